import type { ChatTokenizer } from '../model/tokenizer';
import type { ModelSession } from '../runtime/ort-runtime';

/** Token ids that end an answer: the config's eos ids and the tokenizer's eos token. */
export function stopIds(model: { session: ModelSession; tokenizer: ChatTokenizer }): number[] {
  const tok = model.tokenizer;
  return [...model.session.spec.eosTokenIds, ...(tok.eosToken ? [tok.idOf(tok.eosToken)] : [])].filter((i): i is number => i !== undefined);
}

/**
 * Greedy decoding by re-running the forward pass per token (no KV cache yet: acceptable for
 * one-sentence summaries and short answers). Stops at a stop id or after maxTokens.
 */
export async function greedyGenerate(session: ModelSession, prompt: number[], opts: { maxTokens: number; stopIds: number[]; onToken?: (id: number) => void }): Promise<number[]> {
  const ids = [...prompt];
  const out: number[] = [];
  for (let i = 0; i < opts.maxTokens; i++) {
    const r = await session.forward({ ids, layers: [] });
    const logits = r.logits!.data;
    let best = 0;
    for (let v = 1; v < logits.length; v++) if (logits[v]! > logits[best]!) best = v;
    if (opts.stopIds.includes(best)) break;
    out.push(best);
    ids.push(best);
    opts.onToken?.(best);
  }
  return out;
}

import type { ChatTokenizer } from '../model/tokenizer/tokenizer';
import type { ModelSession } from '../runtime/ort-runtime';

/** Token ids that end an answer: the config's eos ids and the tokenizer's eos token. */
export function stopIds(model: { session: ModelSession; tokenizer: ChatTokenizer }): number[] {
  const tok = model.tokenizer;
  return [...model.session.spec.eosTokenIds, ...(tok.eosToken ? [tok.idOf(tok.eosToken)] : [])].filter((i): i is number => i !== undefined);
}

/**
 * Greedy decoding. With a KV-cache graph the prompt is run once and each new token is one step on
 * the cache; without one (or with `noCache`, for benchmarks) the whole sequence is run again per token.
 * Stops at a stop id, after maxTokens, or when `between` (awaited after each token) says so.
 */
export async function greedyGenerate(
  session: ModelSession,
  prompt: number[],
  opts: {
    maxTokens: number;
    stopIds: number[];
    onToken?: (id: number) => void;
    noCache?: boolean;
    between?: () => Promise<boolean>;
    /** Why it stopped: the model wrote a stop id, the token limit, or `between` said so. */
    onStop?: (why: GenerationStop) => void;
  },
): Promise<number[]> {
  const cached = session.graph.kvCache && !opts.noCache;
  const ids = [...prompt];
  const out: number[] = [];
  let step = await session.forward({ ids, layers: [], keepCache: cached });
  for (let i = 0; i < opts.maxTokens; i++) {
    const best = argmax(step.logits!.data);
    if (opts.stopIds.includes(best)) return stop(out, 'end');
    out.push(best);
    ids.push(best);
    opts.onToken?.(best);
    if (i + 1 === opts.maxTokens) break;
    // The model worker yields here, so a cancel can reach it; true stops.
    if (opts.between && (await opts.between())) return stop(out, 'stopped');
    step = cached ? await session.forward({ ids: [best], layers: [], keepCache: true, past: step.present! }) : await session.forward({ ids, layers: [] });
  }
  return stop(out, 'limit');

  function stop(ids: number[], why: GenerationStop): number[] {
    opts.onStop?.(why);
    return ids;
  }
}

/** The most tokens an answer the model writes may have. */
export const ANSWER_MAX_TOKENS = 96;

/** Why greedy decoding stopped: the model's end of answer, the token limit, or a cancel. */
export type GenerationStop = 'end' | 'limit' | 'stopped';

function argmax(v: Float32Array): number {
  let best = 0;
  for (let i = 1; i < v.length; i++) if (v[i]! > v[best]!) best = i;
  return best;
}

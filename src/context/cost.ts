import type { Role } from '../conversation/types';
import type { Conversation } from '../conversation/types';
import { selectTurn } from '../conversation/rounds';
import { applyPolicy, type PolicyInputs } from './apply';
import type { Policy } from './policy';

export interface RoundCost {
  round: number;
  /** Tokens of the prompt the model reads before answering this round. */
  contextTokens: number;
  /** Of those, tokens not already in a prefix KV cache kept from the previous round. */
  prefilled: number;
}

/** Renders messages through the chat template and tokenizes them. */
export type EncodeChat = (messages: { role: Role; content: string }[], addGenerationPrompt: boolean) => number[];

function commonPrefix(a: number[], b: number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * Cost of a policy per round, from real token sequences: after round k − 1 the cache holds that
 * round's prompt and answer; round k prefills whatever of its prompt differs from it (longest
 * common prefix). So Full and Clip between cuts prefill only the new round, while Window, whose
 * boundary shifts every round, re-prefills everything (paper 2 §2.2, Appendix E).
 */
export function policyCost(conversation: Conversation, upToTurn: number, p: Policy, encodeChat: EncodeChat, inputs: PolicyInputs = {}): RoundCost[] {
  const out: RoundCost[] = [];
  let cache: number[] = [];
  for (let k = 1; k <= upToTurn; k++) {
    const seen = applyPolicy(conversation, selectTurn(conversation, k), p, inputs).map(({ role, content }) => ({ role, content }));
    const prompt = encodeChat(seen.slice(0, -1), true);
    out.push({ round: k, contextTokens: prompt.length, prefilled: prompt.length - commonPrefix(prompt, cache) });
    cache = encodeChat(seen, false);
  }
  return out;
}

import type { Role } from '../conversation/types';
import type { Conversation } from '../conversation/types';
import { selectTurn } from '../conversation/rounds';
import { applyPolicy, type PolicyInputs } from './apply';
import type { Policy } from './policy';
import { commonPrefix } from '../util/common-prefix';

export interface RoundCost {
  round: number;
  /** Tokens of the prompt the model reads before answering this round. */
  contextTokens: number;
  /** Of those, tokens not already in a prefix KV cache kept from the previous round. */
  prefilled: number;
}

/** Renders messages through the chat template and tokenizes them. */
export type EncodeChat = (messages: { role: Role; content: string }[], addGenerationPrompt: boolean) => number[];

/**
 * Cost of a policy per round, from real token sequences: after round k − 1 the cache holds that
 * round's prompt and answer; round k prefills whatever of its prompt differs from it (longest
 * common prefix). So Full and Clip between cuts prefill only the new round, while Window, whose
 * boundary shifts every round, re-prefills everything (paper 2 §2.2, Appendix E).
 */
export function policyCost(conversation: Conversation, upToTurn: number, p: Policy, encodeChat: EncodeChat, inputs: PolicyInputs = {}): RoundCost[] {
  return new CostSeries(conversation, p, encodeChat, inputs).upTo(upToTurn);
}

/**
 * The cost series of one policy over one conversation, computed a round at a time and kept: every
 * turn's analysis (a rounds sweep scores each) reads its prefix, so the series costs one pass over the
 * rounds in all, not one per turn.
 */
export class CostSeries {
  private readonly rounds: RoundCost[] = [];
  private cache: number[] = [];
  constructor(
    private readonly conversation: Conversation,
    private readonly p: Policy,
    private readonly encodeChat: EncodeChat,
    private readonly inputs: PolicyInputs = {},
  ) {}

  upTo(turn: number): RoundCost[] {
    for (let k = this.rounds.length + 1; k <= turn; k++) {
      const seen = this.seen(k);
      const prompt = this.encodeChat(seen.slice(0, -1), true);
      this.rounds.push({ round: k, contextTokens: prompt.length, prefilled: prompt.length - commonPrefix(prompt, this.cache) });
      this.cache = this.encodeChat(seen, false);
    }
    return this.rounds.slice(0, turn);
  }

  /** Round `turn` alone, from two encodings instead of two per round: what the figures need before the series. */
  at(turn: number): RoundCost {
    if (this.rounds.length >= turn) return this.rounds[turn - 1]!;
    const prompt = this.encodeChat(this.seen(turn).slice(0, -1), true);
    const before = turn > 1 ? this.encodeChat(this.seen(turn - 1), false) : [];
    return { round: turn, contextTokens: prompt.length, prefilled: prompt.length - commonPrefix(prompt, before) };
  }

  /** The messages the model sees in round k, its answer last. */
  private seen(k: number) {
    return applyPolicy(this.conversation, selectTurn(this.conversation, k), this.p, this.inputs).map(({ role, content }) => ({ role, content }));
  }
}

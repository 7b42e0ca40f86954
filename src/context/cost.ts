import type { Role } from '../conversation/types';
import type { Conversation } from '../conversation/types';
import { selectTurn } from '../conversation/turns';
import { applyPolicy, type PolicyInputs } from './apply';
import type { Policy } from './policy';
import { commonPrefix } from '../util/common-prefix';

export interface TurnCost {
  turn: number;
  /** Tokens of the prompt the model reads before answering this turn. */
  contextTokens: number;
  /** Of those, tokens not already in a prefix KV cache kept from the previous turn. */
  prefilled: number;
}

/** Renders messages through the chat template and tokenizes them. */
export type EncodeChat = (messages: { role: Role; content: string }[], addGenerationPrompt: boolean) => number[];

/**
 * Cost of a policy per turn, from real token sequences: after turn k − 1 the cache holds that
 * turn's prompt and answer; turn k prefills whatever of its prompt differs from it (longest
 * common prefix). So Full and Clip between cuts prefill only the new turn, while Window, whose
 * boundary shifts every turn, re-prefills everything (paper 2 §2.2, Appendix E).
 */
export function policyCost(conversation: Conversation, upToTurn: number, p: Policy, encodeChat: EncodeChat, inputs: PolicyInputs = {}): TurnCost[] {
  return new CostSeries(conversation, p, encodeChat, inputs).upTo(upToTurn);
}

/**
 * The cost series of one policy over one conversation, computed a turn at a time and kept: every
 * turn's analysis (a sweep over turns scores each) reads its prefix, so the series costs one pass over the
 * turns in all, not one per turn.
 */
export class CostSeries {
  private readonly turns: TurnCost[] = [];
  private cache: number[] = [];
  constructor(
    private readonly conversation: Conversation,
    private readonly p: Policy,
    private readonly encodeChat: EncodeChat,
    private readonly inputs: PolicyInputs = {},
  ) {}

  upTo(turn: number): TurnCost[] {
    for (let k = this.turns.length + 1; k <= turn; k++) {
      const seen = this.seen(k);
      const prompt = this.encodeChat(seen.slice(0, -1), true);
      this.turns.push({ turn: k, contextTokens: prompt.length, prefilled: prompt.length - commonPrefix(prompt, this.cache) });
      this.cache = this.encodeChat(seen, false);
    }
    return this.turns.slice(0, turn);
  }

  /** Turn `turn` alone, from two encodings instead of two per turn: what the figures need before the series. */
  at(turn: number): TurnCost {
    if (this.turns.length >= turn) return this.turns[turn - 1]!;
    const prompt = this.encodeChat(this.seen(turn).slice(0, -1), true);
    const before = turn > 1 ? this.encodeChat(this.seen(turn - 1), false) : [];
    return { turn, contextTokens: prompt.length, prefilled: prompt.length - commonPrefix(prompt, before) };
  }

  /** The messages the model sees in turn k, its answer last. */
  private seen(k: number) {
    return applyPolicy(this.conversation, selectTurn(this.conversation, k), this.p, this.inputs).map(({ role, content }) => ({ role, content }));
  }
}

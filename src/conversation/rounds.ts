import type { Conversation, Message } from './types';

/** Round r_i = the user message(s) u_i and the assistant answer a_i that closes it (paper 2, §2.2). */
export interface Round {
  /** 1-based round number = the assistant turn number. */
  index: number;
  /** Indices into conversation.messages. */
  users: number[];
  assistant: number;
}

export interface Turns {
  /** Index of the system message, or null. */
  system: number | null;
  /** Every round up to and including the scored one. */
  rounds: Round[];
  /** The scored round (the last of `rounds`). */
  current: Round;
}

/** Splits messages into rounds; user messages after the last assistant answer belong to no round. */
export function splitRounds(messages: Message[]): { system: number | null; rounds: Round[] } {
  const rounds: Round[] = [];
  let users: number[] = [];
  let system: number | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'system') system = i;
    else if (m.role === 'user') users.push(i);
    else {
      rounds.push({ index: rounds.length + 1, users, assistant: i });
      users = [];
    }
  });
  return { system, rounds };
}

/**
 * The rounds up to the scored answer. `turn` is the 1-based assistant turn (default: the last one);
 * everything after it is ignored.
 */
export function selectTurn(conversation: Conversation, turn?: number): Turns {
  const { system, rounds } = splitRounds(conversation.messages);
  const t = turn ?? rounds.length;
  if (!Number.isInteger(t) || t < 1 || t > rounds.length) {
    throw new RangeError(`turn ${turn} does not exist: the conversation has assistant turns 1..${rounds.length}`);
  }
  return { system, rounds: rounds.slice(0, t), current: rounds[t - 1]! };
}

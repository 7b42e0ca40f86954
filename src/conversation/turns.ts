import type { Conversation, Message } from './types';

/** A turn: the user message(s) u_i and the assistant answer a_i that closes it (paper 2, §2.2, calls it round r_i). */
export interface Turn {
  /** 1-based: the number of its assistant answer. */
  index: number;
  /** Indices into conversation.messages. */
  users: number[];
  assistant: number;
}

export interface Turns {
  /** Index of the system message, or null. */
  system: number | null;
  /** Every turn up to and including the scored one. */
  all: Turn[];
  /** The scored turn (the last of `all`). */
  current: Turn;
}

/** Splits messages into turns; user messages after the last assistant answer belong to no turn. */
export function splitTurns(messages: Message[]): { system: number | null; all: Turn[] } {
  const turns: Turn[] = [];
  let users: number[] = [];
  let system: number | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'system') system = i;
    else if (m.role === 'user') users.push(i);
    else {
      turns.push({ index: turns.length + 1, users, assistant: i });
      users = [];
    }
  });
  return { system, all: turns };
}

/**
 * The turns up to the scored answer. `turn` is the 1-based assistant turn (default: the last one);
 * everything after it is ignored.
 */
export function selectTurn(conversation: Conversation, turn?: number): Turns {
  const { system, all } = splitTurns(conversation.messages);
  const t = turn ?? all.length;
  if (!Number.isInteger(t) || t < 1 || t > all.length) {
    throw new RangeError(`turn ${turn} does not exist: the conversation has assistant turns 1..${all.length}`);
  }
  return { system, all: all.slice(0, t), current: all[t - 1]! };
}

import type { PolicyResult } from '../analysis/analyze';

/** A shown result's key and test id: its policy, prefixed `b-` when model B scored it (compare models). */
export const resultId = (r: PolicyResult): string => (r.model === 'b' ? `b-${r.policy}` : r.policy);

/**
 * Whether two results split the same text into the same tokens (same tokenizer); when not, they compare
 * by message only. Read over the context before the scored answer: when a model wrote its own answer,
 * the two answers are different texts whatever the tokenizers.
 */
export const sameTokens = (a: PolicyResult, b: PolicyResult): boolean =>
  a.query.start === b.query.start && a.tokens.slice(0, a.query.start).every((t, i) => t.text === b.tokens[i]!.text);

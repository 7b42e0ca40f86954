import type { PolicyResult } from '../analysis/analyze';

/** A shown result's key and test id: its policy, prefixed `b-` when model B scored it (compare models). */
export const resultId = (r: PolicyResult): string => (r.model === 'b' ? `b-${r.policy}` : r.policy);

/** Whether two results read the same tokens (same model tokenizer); when not, they compare by message only. */
export const sameTokens = (a: PolicyResult, b: PolicyResult): boolean => a.tokens.length === b.tokens.length && a.tokens.every((t, i) => t.text === b.tokens[i]!.text);

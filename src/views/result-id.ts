import type { PolicyResult } from '../analysis/analyze';

/** A shown result's key and test id: its policy, prefixed `b-` when model B scored it (compare models). */
export const resultId = (r: PolicyResult): string => (r.model === 'b' ? `b-${r.policy}` : r.policy);


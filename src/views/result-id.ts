import type { PolicyResult } from '../analysis/analyze';
import { slotName } from '../state/model-client';

/** A shown result's key and test id: its policy, prefixed `b-`, `c-` or `d-` when a compared model scored it. */
export const resultId = (r: PolicyResult): string => (r.slot ? `${slotName(r.slot).toLowerCase()}-${r.policy}` : r.policy);

import type { PolicyNumbers } from '../../context/policy';

/**
 * The lesson's policy numbers: Clip and Summary cut at 6 turns, not the papers' 12, so that on this 10-turn
 * episode they cut (at 12 they would match Full). Set from the first step, so a label never changes mid-lesson.
 */
export const TABLE: PolicyNumbers = { window: 6, clipAt: 6, clipTo: 1 };

/**
 * The lesson's steps in order, by id. A text that points at another step ("the repeats counted in step 2") says its
 * number through `stepNo`, so adding or removing a step renumbers every such pointer; a test holds the steps to this order.
 */
export const STEP_IDS = ['case', 'generate', 'contexts', 'hide', 'recap', 'reads', 'shares', 'diagonal', 'heads', 'inside', 'cpl', 'check'] as const;
export type StepId = (typeof STEP_IDS)[number];

/** A step's number as the card shows it, counted from 1. */
export const stepNo = (id: StepId): number => STEP_IDS.indexOf(id) + 1;

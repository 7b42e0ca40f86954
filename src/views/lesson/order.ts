/**
 * The lesson's steps in order, by id. A text that points at another step ("the repeats counted in step 2") says its
 * number through `stepNo`, so adding or removing a step renumbers every such pointer; a test holds the steps to this order.
 */
export const STEP_IDS = [
  'case',
  'generate',
  'contexts',
  'hide',
  'hide-last',
  'played',
  'recap',
  'attention',
  'shares',
  'heatmap',
  'diagonal',
  'filler',
  'heads',
  'inside',
  'cpl',
  'check',
] as const;
export type StepId = (typeof STEP_IDS)[number];

/** A step's number as the card shows it, counted from 1. */
export const stepNo = (id: StepId): number => STEP_IDS.indexOf(id) + 1;

/** The lesson's three parts, each from its first step: said in the card's top line, so a learner knows where they are. */
const PARTS: { from: StepId; title: string }[] = [
  { from: 'case', title: 'what the history does' },
  { from: 'attention', title: 'inside the model' },
  { from: 'cpl', title: 'a fix put to the test, and a check' },
];

/** The part a step (by its index) belongs to: "part 2 of 3, inside the model". */
export function partOf(index: number): { n: number; of: number; title: string } {
  let n = 0;
  PARTS.forEach((p, k) => {
    if (STEP_IDS.indexOf(p.from) <= index) n = k;
  });
  return { n: n + 1, of: PARTS.length, title: PARTS[n]!.title };
}

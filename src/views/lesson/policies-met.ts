import { STEP_IDS } from './order';

/**
 * The policies the lesson's table shows at a step: those it has explained by then, so a newcomer meets no row the
 * card has not named (null: every policy, outside the two policy steps). Cut-last is told in the hide step's fold,
 * in words; SUM and Filler not there at all: their rows would come with no explanation on the card.
 */
export function policiesMet(step: number | null): ((spec: string) => boolean) | null {
  if (step === STEP_IDS.indexOf('contexts')) return (p) => /^(full|window|clip|summary|lt|de)\b/.test(p);
  if (step === STEP_IDS.indexOf('hide')) return (p) => !/^(sum|filler|cut-last|ao-last|ao-second-last)$/.test(p);
  if (step === STEP_IDS.indexOf('hide-last')) return (p) => !/^(sum|filler|cut-last)$/.test(p);
  return null;
}

/**
 * The policy buttons the lesson shows at a step (null: every one, outside the lesson): those its cards have named by
 * then, so a newcomer is not handed eleven buttons at once. SUM, never told, waits for the lesson's end; Cut-last,
 * told in a fold, comes with Filler at its step.
 */
export function buttonsMet(step: number | null): ((spec: string) => boolean) | null {
  if (step === null) return null;
  if (step < STEP_IDS.indexOf('contexts')) return (p) => /^(full|de)$/.test(p);
  if (step < STEP_IDS.indexOf('hide')) return (p) => /^(full|window|clip|summary|lt|de)\b/.test(p);
  if (step < STEP_IDS.indexOf('hide-last')) return (p) => !/^(sum|filler|cut-last|ao-last|ao-second-last)$/.test(p);
  if (step < STEP_IDS.indexOf('filler')) return (p) => !/^(sum|filler|cut-last)$/.test(p);
  return (p) => p !== 'sum';
}

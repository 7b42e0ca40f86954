/** The per-answer bars' full width: one scale for every view, so Full and Filler compare by length (they clip above it). */
export const PER_ANSWER_SCALE = 0.1;

/** A per-answer bar: its width (per cent of the cell; full width at 70 %, room left for the mark) and whether it was cut there. */
export function perAnswerBar(value: number): { width: number; clipped: boolean } {
  return { width: Math.min(1, value / PER_ANSWER_SCALE) * 70, clipped: value > PER_ANSWER_SCALE };
}

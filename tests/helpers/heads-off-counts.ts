import type { HeadsOffCounts } from '../../src/views/lesson/wall-records';

/**
 * Hand-set counts of the heads switched off, shaped like the stored ones: of 116 repeats, the most-copying heads off
 * change 43 of 111 moves (39 %), the lowest 12 of 99 (12 %), three at random 24 of 104 (23 %); paired, the top set
 * against the lowest 31 turns to 7, against the random three 25 to 9 (both clear).
 */
export const HEADS_OFF: HeadsOffCounts = {
  of: 116,
  repeats: { top: 68, bottom: 87, random: 80 },
  open: { top: 11, bottom: 9, random: 10 },
  none: { top: 5, bottom: 17, random: 10 },
  moved: { top: 111, bottom: 99, random: 104 },
  changed: { first: 31, second: 7 },
  changedRandom: { first: 25, second: 9 },
};

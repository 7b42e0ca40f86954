/**
 * The CPL step's count over the stored turns at a wall: the demo model's two twins against it, all with the whole
 * history. The first twin is the paper's CPL (trained toward the move made seeing only the turn before); the second,
 * this tool's variant, toward the move made with no history (DE), which step 3 found free of most of the pull.
 */
import { byChance, luckRow, luckWord, movePct, moveRate } from './wall-counts';
import { countTable } from './count-table';
import { WALL_COUNTS, type WallCounts } from './wall-records';
import type { Reveal } from './world';

/** Whether the CPL twin, with the whole history, still repeats the move more often than the demo model with none. */
export const twinAboveNoHistory = (c: WallCounts = WALL_COUNTS): boolean => moveRate(c, 'twin') > moveRate(c, 'de');

/** Whether a twin, with the whole history, repeats clearly less than the demo model: lower, by more than luck. */
const clearlyLower = (c: WallCounts, twin: 'twin' | 'twin-de'): boolean => moveRate(c, twin) < moveRate(c, 'full') && byChance(c.split.full[twin]).clear;

/** Whether the second twin (trained toward DE's move) repeats clearly less than the demo model. */
export const secondTwinWorks = (c: WallCounts = WALL_COUNTS): boolean => clearlyLower(c, 'twin-de');

/**
 * The takeaway: the second twin answers the first's excuse (its target kept the pull). Where neither drops by more
 * than luck, the training, wherever aimed, is what leaves the pull; where the second does, the target was the reason.
 */
function takeaway(c: WallCounts): string {
  const firstClear = clearlyLower(c, 'twin');
  if (secondTwinWorks(c))
    return firstClear ? 'Both twins repeat less at the wall.' : 'The twin trained toward no history repeats clearly less, the other could be luck.';
  // The second twin is the fold's: the card speaks of the one the step introduces.
  if (!firstClear) return 'The twin does not repeat clearly less at the wall.';
  return `The twin repeats less at the wall${twinAboveNoHistory(c) ? ', but not as rarely as with no history' : ''}.`;
}

/** Why the first twin stops short, said only while the second twin bears it out (it repeats clearly less). */
function ltTarget(c: WallCounts): string {
  if (!secondTwinWorks(c) || !twinAboveNoHistory(c) || moveRate(c, 'lt') < moveRate(c, 'de') + 10) return '';
  return ` The first twin's training target, the answer seeing only the turn before, repeats ${movePct(c, 'lt')} (LT): it was never taught to ignore the turn before.`;
}

/**
 * The second twin's rate, and what it tells beside the first's: readers asked why the twin trained toward no history
 * repeats more than the first. Where neither gap to the demo model is more than luck, the order of the two is luck too.
 */
function secondSaid(c: WallCounts): string {
  const rate = `The second twin, trained toward the move made with no history, does in ${movePct(c, 'twin-de')}`;
  if (secondTwinWorks(c) || clearlyLower(c, 'twin')) return `${rate}.`;
  return `${rate}: its gap could be luck too, and so could which twin is lower.`;
}

export function twinTally(c: WallCounts = WALL_COUNTS): Reveal {
  const luck = byChance(c.split.full.twin);
  return {
    takeaway: takeaway(c),
    // No history's rate is drawn in the chart beside: the card keeps the models' rates.
    // The first gap's luck in the sentence shown: readers met it only in the summary's fold.
    said: `At a wall the twin walks into it again in ${movePct(c, 'twin')}, the demo model ${movePct(c, 'full')} (luck gives that gap ${luck.said}: ${luckWord(luck.clear)}). ${secondSaid(c)}${ltTarget(c)}`,
    luck: [luckRow('CPL twin against the demo model', c.split.full.twin), luckRow('second twin (toward DE) against the demo model', c.split.full['twin-de'])],
    // Of the moves made, as the bars and every rate at the wall: readers met a share of all turns beside the bar's.
    counts: countTable(
      [
        ['CPL twin', 'twin'],
        ['second twin (toward DE)', 'twin-de'],
        ['demo model', 'full'],
      ],
      c,
    ),
    // The turns where they part are in the table and on the meter: readers asked for fewer counts in words.
    more: 'In these counts the twins and the demo model all read the whole history (Full).',
  };
}

/**
 * The heads step's count over the stored repeats (wall-records.ts): how often each set of the last layer's heads
 * switched off (the most-copying three, three at random, the lowest three) still repeats the blocked move, where the
 * moves it changed went, and the verdicts the later steps read. Plain functions.
 */
import { holm } from '../../metrics/stats';
import { stepNo } from './order';
import { headsCountTable } from './count-table';
import { type Board, type BoardRow, byChance, chanceOf, LUCK_LINE, pct } from './wall-counts';
import { type HeadSet, type HeadsOffCounts, rate, WALL_COUNTS, type WallCounts } from './wall-records';
import { capitalised, type Reveal, SILENT } from './world';

/** Of the moves a set of heads switched off still makes on the repeats, the share that changed (answers with no move left out, as at the wall). */
const changedRate = (h: HeadsOffCounts, set: HeadSet): number => rate(h.moved[set] - h.repeats[set], h.moved[set] || 1);
/**
 * Of those moves, the share still back into the wall: the measure every other step says ("walks back in 78 %"),
 * where readers of a "changed" share took it for the part cured and misread the bars beside it.
 */
export const stillPct = (h: HeadsOffCounts, set: HeadSet): string => `${still(h, set)} %`;
const still = (h: HeadsOffCounts, set: HeadSet): number => rate(h.repeats[set], h.moved[set] || 1);
/** Of those moves, the share that takes an open way (the bars' green). */
const openOf = (h: HeadsOffCounts, set: HeadSet): number => rate(h.open[set], h.moved[set] || 1);

/**
 * The two controls' luck counted together (Holm's correction over the heads' two tests), as the check's table counts
 * them: a reader found the step calling a gap "more than luck" that the table, counting both, called luck.
 */
export function headsLuck(h: HeadsOffCounts): { random: number; lowest: number } {
  const [random, lowest] = holm([byChance(h.changedRandom).p, byChance(h.changed).p]);
  return { random: random!, lowest: lowest! };
}

/**
 * Whether the most-copying heads off change the repeat clearly more than three heads drawn at random (5 points or more,
 * and beyond chance on the paired turns): the stricter control, since the lowest heads may be the least used.
 */
export const beyondRandom = (h: HeadsOffCounts): boolean => changedRate(h, 'top') >= changedRate(h, 'random') + 5 && headsLuck(h).random < 1 / LUCK_LINE;

/** Whether the most-copying heads off change the repeat more often than the control by 5 points or more: what they carry beyond any three heads. */
export const headsCarry = (c: WallCounts): boolean => c.headsOff.of > 0 && changedRate(c.headsOff, 'top') >= changedRate(c.headsOff, 'bottom') + 5;
/** Whether they do so clearly: 5 points or more, and beyond luck on the turns where both sets make a move, both tests counted. */
export const headsClear = (c: WallCounts): boolean => headsCarry(c) && headsLuck(c.headsOff).lowest < 1 / LUCK_LINE;

/** Whether the moves the most-copying heads off changed went mostly into another wall rather than an open way. */
export const mostlyIntoWalls = (h: HeadsOffCounts): boolean => h.moved.top - h.repeats.top - h.open.top > h.open.top;

/** The heads step's count: over the stored repeats, how often each set of last-layer heads switched off still repeats the move. */
export function headsTally(c: WallCounts = WALL_COUNTS): Reveal {
  const h = c.headsOff;
  if (!h.of) return SILENT;
  // Where the changed moves went is said only of heads that clearly carry more than the control.
  const carry = headsClear(c);
  const random = beyondRandom(h);
  const went = wentTo(h);
  const luck = headsLuck(h);
  const justBeyond = luck.random > 1 / 40;
  return {
    // One plain claim each: how sure, under "Careful:" where only just; the figures under the chart.
    takeaway: !headsCarry(c)
      ? 'The most-copying heads carry no more of the pull than any three heads.'
      : !carry
        ? 'The most-copying heads changed more moves than the control, but that could be luck.'
        : random
          ? mostlyIntoWalls(h)
            ? // The plain result first, where the way out is no likelier: readers found the null result undersold.
              freesNoMore(h)
              ? 'Switching off the copying heads changes which wall it walks into, not whether.'
              : 'Switching off the copying heads changes the repeated move, mostly into another wall.'
            : 'Switching off the copying heads changes the repeated move more than other heads do.'
          : 'The copying heads stop more repeats than the lowest, not clearly more than three at random.',
    // How sure, in words; the chances themselves in the fold. How many repeats: the chart's caption.
    // In step 2's measure (back into the wall); where the changed moves went, under "Careful:": a reader took
    // "changed" for "cured".
    // "In every 100 of them": the base said in the sentence, so 61 is not read against the 78 % of every move at a wall.
    said: `Written again with the most-copying heads off, ${still(h, 'top')} % of the moves made still hit the wall; ${still(h, 'random')} % with three at random off, ${still(h, 'bottom')} % with the lowest${
      carry
        ? random
          ? `. Its gaps to both are more than luck${justBeyond ? ', to the random three only just' : ''}.`
          : '. Only its gap to the lowest is more than luck.'
        : `. Counting both its tests, luck alone would give a gap like the one to the lowest ${chanceOf(luck.lowest).said}.`
    }${carry ? headsLead(h) : ''}`,
    // How sure, unfolded where only just: readers read the bold line as settled.
    // Where the changed moves went, under "Careful:" also where the gap could be luck: it is the step's other finding.
    ...(carry && random && justBeyond
      ? { caveat: 'its gap to three heads at random is only just more than luck.' }
      : headsCarry(c) && went && { caveat: went }),
    board: headsBoard(h, c.turns),
    // Each dot where the two tests counted together put it, as the takeaway and the check's table read them.
    luck: [
      { label: 'most-copying off against three at random', ...chanceOf(luck.random) },
      {
        label: 'most-copying off against the lowest off',
        ...chanceOf(luck.lowest),
        note: 'Both dots count the two tests together: a gap that passes one of several tests may pass by luck.',
      },
    ],
    counts: headsCountTable(h),
    // The turns where the sets part are in the table and on the meter: readers asked for fewer counts in words.
    // Where the changed moves went, in the fold where the caveat says how sure instead.
    more: `${carry && random && justBeyond && went ? `${capitalised(went)} ` : ''}The repeats are ${pct(h.of, c.turns)} of ${c.turns} turns right after a wall; each turn has its own heads ranked. The random three are drawn anew at each turn from the last layer's heads outside the most-copying three (seeded, so a rerun draws the same).`,
  };
}

/**
 * The heads step's count drawn as the running count is: the stored repeats (every one back into the wall with every
 * head on, drawn as a 100 % bar) written again with the most-copying heads off, three at random and the lowest;
 * each among the moves still made, its figure the part still back into the wall, as every count of the lesson.
 */
function headsBoard(h: HeadsOffCounts, turns: number): Board {
  const row = (label: string, set: HeadSet): BoardRow => ({
    label,
    repeats: still(h, set),
    open: openOf(h, set),
    noMove: rate(h.of - h.moved[set], h.of),
  });
  return {
    turns: h.of,
    episodes: 0,
    // The moves as picked, every head on: all back into the wall, the bar the others are read against.
    rows: [
      { label: 'every head on (how these were picked)', repeats: 100, open: 0, noMove: 0 },
      row('most-copying heads off', 'top'),
      row('three at random off (drawn anew each turn)', 'random'),
      row('lowest heads off', 'bottom'),
    ],
    noHistory: null,
    caption: `The ${h.of} moves back into the wall with every head on (of step ${stepNo('generate')}'s ${turns} turns right after a wall), written again with heads switched off: where each move goes now`,
    repeatKey: 'still into the same wall',
  };
}

/**
 * Where the moves the most-copying heads off changed went: into another wall or an open way. Picked for copying the
 * list of cells, they still steer the move; a changed move is not a way out unless it is an open one.
 */
function headsLead(h: HeadsOffCounts): string {
  if (h.moved.top - h.repeats.top <= 0) return '';
  // Into walls, the caveat (`wentTo`) says it, and the takeaway what they carry.
  return mostlyIntoWalls(h) ? '' : ' Without these heads it more often finds its way around the wall.';
}

/** Where the most-copying heads' changed moves went, unfolded under "Careful:" (readers took a change for a cure); empty without any. */
function wentTo(h: HeadsOffCounts): string {
  if (h.moved.top - h.repeats.top <= 0) return '';
  if (!mostlyIntoWalls(h)) return 'most moves that changed took an open way.';
  return freesNoMore(h)
    ? `with them off it finds an open way as rarely as with others off (${openOf(h, 'top')} % against ${openOf(h, 'random')} % at random).`
    : 'most moves that changed went into another wall, not an open way, so switching heads off breaks the model more often than it frees it.';
}

/** Whether the most-copying heads off find an open way no more often (within 5 points) than either control: no way out held there. */
export const freesNoMore = (h: HeadsOffCounts): boolean => openOf(h, 'top') <= Math.max(openOf(h, 'random'), openOf(h, 'bottom')) + 5;

/**
 * Every comparison the lesson's findings rest on, in one table for the check's fold ("How sure is each finding?").
 * Readers asked for one place that gives, for each claim, where the two conditions part, the gap, how far it could
 * move had other mazes come up, and how often luck alone would give it, also counted against the many comparisons
 * the lesson makes (Holm's correction). Plain functions over the stored records.
 */
import { clusterInterval, holm, signFlipTest } from '../../metrics/stats';
import { CLOSED_LOOP, type ClosedLoopRecord, type PlayedMaze } from './closed-loop';
import type { StepId } from './order';
import { chanceOf, LUCK_LINE } from './wall-counts';
import { type Split, WALL_COUNTS, type WallCounts } from './wall-records';

/** One comparison: the two conditions, what is counted, and the luck of its gap. */
export interface EvidenceRow {
  step: StepId;
  compared: string;
  counted: string;
  /** Turns (or mazes) where only the first gives the outcome, and where only the second does. */
  onlyFirst: number;
  onlySecond: number;
  /** The first's outcomes less the second's, over every maze, and the range 95 % of redraws of the mazes give. */
  gap: number;
  range: [number, number];
  /** Luck alone (each maze counted once), and the same counted against every comparison in the table. */
  p: number;
  holm: number;
  said: string;
  holmSaid: string;
  /** Under 1 in 20 once every comparison is counted. */
  clear: boolean;
}

/** The same split read the other way round: the second condition first. */
const flip = (s: Split): Split => ({ first: s.second, second: s.first, byMaze: s.byMaze?.map((d) => -d) });

/** Two players' goals, maze by maze: +1 where only the first reached it, −1 where only the second did. */
export function goalsByMaze(a: readonly PlayedMaze[], b: readonly PlayedMaze[]): Split {
  const bySeed = new Map(b.map((m) => [m.seed, m.reached]));
  const byMaze = a.filter((m) => bySeed.has(m.seed)).map((m) => Number(m.reached) - Number(bySeed.get(m.seed)));
  return { first: byMaze.filter((d) => d > 0).length, second: byMaze.filter((d) => d < 0).length, byMaze };
}

const REPEATS = 'repeats the blocked move';

/** The comparisons, in the lesson's order, each with the split its step reads. */
function comparisons(c: WallCounts, loop: ClosedLoopRecord): { step: StepId; compared: string; counted: string; split: Split }[] {
  return [
    { step: 'generate', compared: 'Full against DE (no history)', counted: REPEATS, split: c.split.de.full },
    { step: 'contexts', compared: 'LT (the turn before) against DE', counted: REPEATS, split: c.split.de.lt },
    { step: 'hide', compared: 'Full against AO (all its answers hidden)', counted: REPEATS, split: flip(c.split.full.ao) },
    { step: 'hide-last', compared: 'Full against AO-last (its previous answer hidden)', counted: REPEATS, split: flip(c.split.full['ao-last']) },
    { step: 'hide-last', compared: 'Full against AO-second-last (the control)', counted: REPEATS, split: flip(c.split.full['ao-second-last']) },
    ...(c.followed
      ? [{ step: 'hide-last' as const, compared: 'its previous move swapped, against Full', counted: 'takes the swapped-in way', split: c.followed.split }]
      : []),
    ...(loop.played.full.length
      ? [
          {
            step: 'played' as const,
            compared: 'DE against Full, played to the end',
            counted: 'reaches the goal (mazes)',
            split: goalsByMaze(loop.played.de, loop.played.full),
          },
        ]
      : []),
    { step: 'heads', compared: 'most-copying heads off against 3 at random', counted: 'moves off the wall it repeated', split: c.headsOff.changedRandom },
    { step: 'heads', compared: 'most-copying heads off against the 3 lowest', counted: 'moves off the wall it repeated', split: c.headsOff.changed },
    { step: 'cpl', compared: 'the demo model against its CPL twin', counted: REPEATS, split: flip(c.split.full.twin) },
  ];
}

/** The table's rows: each comparison's gap, its range over redrawn mazes, and its luck alone and counted with the rest. */
export function evidenceRows(c: WallCounts = WALL_COUNTS, loop: ClosedLoopRecord = CLOSED_LOOP): EvidenceRow[] {
  const rows = comparisons(c, loop).map(({ split, ...r }) => {
    const byMaze = split.byMaze ?? [split.first - split.second];
    return { ...r, onlyFirst: split.first, onlySecond: split.second, gap: split.first - split.second, range: clusterInterval(byMaze), p: signFlipTest(byMaze) };
  });
  const corrected = holm(rows.map((r) => r.p));
  return rows.map((r, i) => ({
    ...r,
    holm: corrected[i]!,
    said: chanceOf(r.p).said,
    holmSaid: chanceOf(corrected[i]!).said,
    clear: corrected[i]! < 1 / LUCK_LINE,
  }));
}

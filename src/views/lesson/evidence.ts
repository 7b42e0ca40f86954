/**
 * Every comparison the lesson's findings rest on, in one table for the check's fold ("How sure is each finding?").
 * Readers asked for one place that gives, for each claim, where the two conditions part, the gap, how far it could
 * move had other mazes come up, and how often luck alone would give it, also counted against the other comparisons
 * made to answer the same question (Holm's correction within each question: the lesson's one main comparison,
 * Full against no history, stands alone). Plain functions over the stored records.
 */
import { clusterInterval, holm, signFlipTest } from '../../metrics/stats';
import { CLOSED_LOOP, type ClosedLoopRecord, goalsByMaze } from './closed-loop';
import type { StepId } from './order';
import { chanceOf, LUCK_LINE } from './wall-counts';
import { type Split, WALL_COUNTS, type WallCounts } from './wall-records';

/** One comparison: the two conditions, what is counted, and the luck of its gap. */
export interface EvidenceRow {
  /** The lesson's question this comparison helps answer: Holm's correction counts the comparisons of one question. */
  question: Question;
  step: StepId;
  compared: string;
  counted: string;
  /** Turns (or mazes) where only the first gives the outcome, and where only the second does. */
  onlyFirst: number;
  onlySecond: number;
  /** The first's outcomes less the second's, over every maze, and the range 95 % of redraws of the mazes give. */
  gap: number;
  range: [number, number];
  /** Luck alone (each maze counted once), and the same counted against the other comparisons of its question. */
  p: number;
  holm: number;
  said: string;
  holmSaid: string;
  /** Under 1 in 20 once its question's comparisons are counted. */
  clear: boolean;
}

/** The same split read the other way round: the second condition first. */
const flip = (s: Split): Split => ({ first: s.second, second: s.first, byMaze: s.byMaze?.map((d) => -d) });

const REPEATS = 'repeats the blocked move';

/** The lesson's questions, in its order: each comparison answers one. */
const Q = {
  history: 'Does its history bring the repeats?',
  where: 'Where in the history is the pull?',
  goal: 'Does cutting the history reach the goal more often?',
  heads: 'Do the most-copying heads make the move?',
  training: 'Does training against it help?',
} as const;
export const QUESTIONS = Object.values(Q);
export type Question = (typeof Q)[keyof typeof Q];

/** The comparisons, in the lesson's order, each with the split its step reads. */
function comparisons(c: WallCounts, loop: ClosedLoopRecord): { question: Question; step: StepId; compared: string; counted: string; split: Split }[] {
  return [
    { question: Q.history, step: 'generate', compared: 'Full against DE (no history)', counted: REPEATS, split: c.split.de.full },
    { question: Q.where, step: 'contexts', compared: 'LT (the turn before) against DE', counted: REPEATS, split: c.split.de.lt },
    { question: Q.where, step: 'hide', compared: 'Full against AO (all its answers hidden)', counted: REPEATS, split: flip(c.split.full.ao) },
    {
      question: Q.where,
      step: 'hide-last',
      compared: 'Full against AO-last (its previous answer hidden)',
      counted: REPEATS,
      split: flip(c.split.full['ao-last']),
    },
    {
      question: Q.where,
      step: 'hide-last',
      compared: 'Full against AO-second-last (the control)',
      counted: REPEATS,
      split: flip(c.split.full['ao-second-last']),
    },
    ...(c.followed
      ? [
          {
            question: Q.where,
            step: 'hide-last' as const,
            compared: 'its previous move swapped, against Full',
            counted: 'takes the swapped-in way',
            split: c.followed.split,
          },
        ]
      : []),
    ...(loop.played.full.length
      ? [
          {
            question: Q.goal,
            step: 'played' as const,
            compared: 'DE against Full, played to the end',
            counted: 'reaches the goal (mazes)',
            split: goalsByMaze(loop.played.de, loop.played.full),
          },
        ]
      : []),
    {
      question: Q.heads,
      step: 'heads',
      compared: 'most-copying heads off against 3 at random',
      counted: 'moves off the wall it repeated',
      split: c.headsOff.changedRandom,
    },
    {
      question: Q.heads,
      step: 'heads',
      compared: 'most-copying heads off against the 3 lowest',
      counted: 'moves off the wall it repeated',
      split: c.headsOff.changed,
    },
    { question: Q.training, step: 'cpl', compared: 'the demo model against its CPL twin', counted: REPEATS, split: flip(c.split.full.twin) },
  ];
}

/** The stored records' table, worked out once: each row's range redraws the mazes 10,000 times, too much for every render of the check. */
let stored: EvidenceRow[] | null = null;

/** The table's rows: each comparison's gap, its range over redrawn mazes, and its luck alone and counted with the rest. */
export function evidenceRows(c: WallCounts = WALL_COUNTS, loop: ClosedLoopRecord = CLOSED_LOOP): EvidenceRow[] {
  if (c === WALL_COUNTS && loop === CLOSED_LOOP) {
    stored ??= rowsOf(c, loop);
    return stored;
  }
  return rowsOf(c, loop);
}

function rowsOf(c: WallCounts, loop: ClosedLoopRecord): EvidenceRow[] {
  const rows = comparisons(c, loop).map(({ split, ...r }) => {
    const byMaze = split.byMaze ?? [split.first - split.second];
    return { ...r, onlyFirst: split.first, onlySecond: split.second, gap: split.first - split.second, range: clusterInterval(byMaze), p: signFlipTest(byMaze) };
  });
  // Each question's comparisons corrected together; the table keeps the lesson's order.
  const corrected = new Map<(typeof rows)[number], number>();
  for (const q of QUESTIONS) {
    const mine = rows.filter((r) => r.question === q);
    holm(mine.map((r) => r.p)).forEach((p, i) => corrected.set(mine[i]!, p));
  }
  return rows.map((r) => {
    const p = corrected.get(r)!;
    return { ...r, holm: p, said: chanceOf(r.p).said, holmSaid: chanceOf(p).said, clear: p < 1 / LUCK_LINE };
  });
}

/**
 * The stored turns at a wall compared two ways on the same turns (a sign test's pairs), and split by where the turn
 * stands in a run of repeats. Plain functions over `WallTurn`s.
 */
import type { Split, WallTurn } from './wall-records';

/** An answer that makes a move: one is written, and it is not 'stay'. The basis of every rate at the wall. */
export const makesMove = (m: string | null): m is string => m !== null && m !== 'stay';

/** The move that hit the wall, written again. */
export const repeatsHit = (t: WallTurn, m: string | null): boolean => m === t.hit;

/** A move that leads somewhere from where the agent stands: written, not 'stay', and not into a wall. */
export const isOpen = (t: WallTurn, m: string | null): boolean => makesMove(m) && !t.blocked.includes(m);

/**
 * Two conditions on the same turns, paired where both make a move (as every rate at the wall is of the moves made): on
 * how many only the first gives the outcome, and on how many only the second does.
 */
export function pairedSplit(
  turns: readonly WallTurn[],
  first: (t: WallTurn) => string | null,
  second: (t: WallTurn) => string | null,
  outcome: (t: WallTurn, m: string | null) => boolean,
): Split {
  const paired = turns.filter((t) => makesMove(first(t)) && makesMove(second(t)));
  const onlyFirst = (t: WallTurn) => outcome(t, first(t)) && !outcome(t, second(t));
  const onlySecond = (t: WallTurn) => !outcome(t, first(t)) && outcome(t, second(t));
  const mazes = [...new Set(turns.map((t) => t.seed))];
  return {
    first: paired.filter(onlyFirst).length,
    second: paired.filter(onlySecond).length,
    byMaze: mazes.map((seed) => {
      const here = paired.filter((t) => t.seed === seed);
      return here.filter(onlyFirst).length - here.filter(onlySecond).length;
    }),
  };
}

/** Full's and DE's repeats of the blocked move on some turns, among the moves each makes, and where the two part. */
export interface Stage {
  turns: number;
  mazes: number;
  full: { repeats: number; moved: number };
  de: { repeats: number; moved: number };
  split: Split;
}

/**
 * The turns at a wall in two stages: the model meets the wall for the first time in a row (`first`), or its own
 * previous answer already walked into that same wall (`after`: the turn before is stored, Full wrote its blocked move
 * again, and it is the same wall). Readers asked whether the gap is built into turns that stuck runs pile up: this
 * says where it is.
 */
export interface Stages {
  first: Stage;
  after: Stage;
}

export function hitStages(turns: readonly WallTurn[]): Stages {
  const at = new Map(turns.map((t) => [`${t.seed}:${t.turn}`, t]));
  const repeatedBefore = (t: WallTurn) => {
    const before = at.get(`${t.seed}:${t.turn - 1}`);
    return !!before && before.moves.full === before.hit && before.hit === t.hit;
  };
  const stage = (some: readonly WallTurn[]): Stage => {
    const of = (w: 'full' | 'de') => ({
      repeats: some.filter((t) => repeatsHit(t, t.moves[w])).length,
      moved: some.filter((t) => makesMove(t.moves[w])).length,
    });
    return {
      turns: some.length,
      mazes: new Set(some.map((t) => t.seed)).size,
      full: of('full'),
      de: of('de'),
      split: pairedSplit(
        some,
        (t) => t.moves.full,
        (t) => t.moves.de,
        repeatsHit,
      ),
    };
  };
  return { first: stage(turns.filter((t) => !repeatedBefore(t))), after: stage(turns.filter(repeatedBefore)) };
}

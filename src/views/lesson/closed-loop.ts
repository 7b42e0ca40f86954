/**
 * The mazes played to their end under each policy (training/closed-loop.ts, stored in examples/cache/closed-loop.json):
 * whether each reached the goal, and how often each walked back into a wall it had just hit, on its own turns rather
 * than Full's. Plain functions over the stored record.
 */
import record from '../../../examples/cache/closed-loop.json';
import { byChance } from './wall-counts';
import { rate, type Split } from './wall-records';

/** One maze played under one policy. */
export interface PlayedMaze {
  seed: number;
  /** Turns played (the last one included). */
  turns: number;
  reached: boolean;
  /** Moves into a wall. */
  hits: number;
  /** Turns right after a move into a wall where it made a move, and of those, the ones that repeat that move. */
  afterWall: number;
  repeats: number;
  /** Why the maze ended: the goal, an answer with no move, "stay", or the last turn. */
  ended: 'goal' | 'no move' | 'stay' | 'turns';
}

/** The policies (and the twin, under Full) that played every maze. */
export const PLAYERS = ['full', 'lt', 'de', 'ao', 'ao-last', 'ao-second-last', 'twin'] as const;
export type Player = (typeof PLAYERS)[number];

export interface ClosedLoopRecord {
  episodes: number;
  firstSeed: number;
  /** Each player's mazes, in seed order; the mazes walled in at the start are left out. */
  played: Record<Player, PlayedMaze[]>;
}

/** One player's tally: mazes, goals reached, and repeats right after a wall among the moves made there. */
export interface PlayTally {
  mazes: number;
  reached: number;
  afterWall: number;
  repeats: number;
  /** Repeats of the moves made right after a wall, in whole per cent. */
  repeatRate: number;
}

export function playTally(mazes: readonly PlayedMaze[]): PlayTally {
  const sum = (f: (m: PlayedMaze) => number) => mazes.reduce((s, m) => s + f(m), 0);
  const [afterWall, repeats] = [sum((m) => m.afterWall), sum((m) => m.repeats)];
  return { mazes: mazes.length, reached: sum((m) => (m.reached ? 1 : 0)), afterWall, repeats, repeatRate: rate(repeats, afterWall || 1) };
}

/** Two players' goals, maze by maze (mazes only one of them played left out): +1 where only the first reached it, −1 where only the second did. */
export function goalsByMaze(a: readonly PlayedMaze[], b: readonly PlayedMaze[]): Split {
  const bySeed = new Map(b.map((m) => [m.seed, m.reached]));
  const byMaze = a.filter((m) => bySeed.has(m.seed)).map((m) => Number(m.reached) - Number(bySeed.get(m.seed)));
  return { first: byMaze.filter((d) => d > 0).length, second: byMaze.filter((d) => d < 0).length, byMaze };
}

/**
 * Paired by maze, two players' goals: in how many mazes only the first reached it, and only the second (the turns where
 * they part, for a sign test, as every comparison of the lesson).
 */
export function goalSplit(a: readonly PlayedMaze[], b: readonly PlayedMaze[]): { only: number; other: number } {
  const s = goalsByMaze(a, b);
  return { only: s.first, other: s.second };
}

export const CLOSED_LOOP = record as ClosedLoopRecord;

/** The goal count of a player, "6 of 38". */
export const goalsOf = (r: ClosedLoopRecord, p: Player): string => {
  const t = playTally(r.played[p]);
  return `${t.reached} of ${t.mazes}`;
};

/** How sure a gap in goals is (mazes where only one of two reached it, a sign test as every comparison of the lesson). */
export const goalLuck = (only: number, other: number) => byChance({ first: only, second: other });

/** Whether no policy reached the goal in clearly more mazes than Full: a gap in goals luck would give 1 time in 20 or more. */
export function noGoalGain(r: ClosedLoopRecord, luck = (only: number, other: number): boolean => goalLuck(only, other).clear): boolean {
  return PLAYERS.filter((p) => p !== 'full').every((p) => {
    const s = goalSplit(r.played[p], r.played.full);
    return s.only <= s.other || !luck(s.only, s.other);
  });
}

/**
 * The played step's fold: the counts behind the bars' repeats for Full, DE and AO-last (the bars give every rate), and
 * the CPL twin, which plays the same way and is met later. Empty without a record.
 */
export function closedSaid(r: ClosedLoopRecord): string {
  if (!r.played.full.length) return '';
  const count = (p: Player) => {
    const t = playTally(r.played[p]);
    return `${t.repeats} of ${t.afterWall} moves`;
  };
  const twin = playTally(r.played.twin);
  return `The counts behind the repeats: Full ${count('full')}, DE ${count('de')}, AO-last ${count('ao-last')}. With no history it repeats more on its own turns than at the walls Full hit: nothing tells it which way it just tried. The CPL twin (met later) played the same way: ${twin.repeatRate} % (${count('twin')}), goal in ${twin.reached}.`;
}

/**
 * The turns right after a wall that scripts/inertia-turns.ts recorded (examples/cache/wall-turns.json), and the
 * counts computed from them: how often each writer repeats the blocked move, and where two writers part on the same
 * turns. Plain functions; the words the lesson says of them are in wall-counts.ts.
 */
import stored from '../../../examples/cache/wall-turns.json';
import { LOOKS_BACK } from './world';
import { hitStages, isOpen, makesMove, pairedSplit, repeatsHit, type Stages } from './paired';

export { isOpen, pairedSplit } from './paired';

/**
 * Who wrote a move at a turn right after a wall: the demo model under Full, LT, DE, Window-6, Clip-6→1, Summary-6→1 (the
 * lesson's policy numbers), AO, Filler and SUM (by their
 * policy specs), under AO-last (only its previous answer hidden: this tool's test, not a paper's policy) and AO-second-last
 * (only the answer before it: AO-last's control), under Cut-last (the previous answer cut to its first line, the list of cells
 * it has been at: the control that keeps those facts), the CPL twin under Full, the second twin (trained toward the
 * answer with no earlier turn, DE) under Full, and the demo model under Full with its previous answer's move swapped for
 * an open way (the swap test, `swap-last`).
 */
export const WRITERS = [
  'full',
  'lt',
  'de',
  'window:6',
  'clip:6:1',
  'summary:6:1',
  'ao',
  'filler',
  'sum',
  'ao-last',
  'ao-second-last',
  'cut-last',
  'twin',
  'twin-de',
  'swap-last',
] as const;
export type Writer = (typeof WRITERS)[number];

/** One turn right after the demo model hit a wall, in an episode it played itself. */
export interface WallTurn {
  seed: number;
  turn: number;
  /** The move that hit the wall on the turn before. */
  hit: string;
  /** The moves that would hit a wall from where the agent stands (north, south, east, west). */
  blocked: string[];
  /** The open way the swap test writes into the previous answer in place of the move that hit the wall. */
  swapTo?: string;
  /** The moves that bring it nearer its goal from where it stands (absent in turns recorded before it was kept). */
  toGoal?: string[];
  /** Each writer's move (null: it wrote none). */
  moves: Record<Writer, string | null>;
  /**
   * How much the Full answer's move looks back at the same move in the prior assistant answers: its attention on
   * them, in times what an even spread gives them (the inside recap's fold counts how few look back); null when it cannot be read.
   */
  look: number | null;
  /**
   * The Full answer's prior assistant share and diagonal ratio (last layer, head mean), each beside what an even spread
   * of attention gives (absent in turns recorded before they were kept).
   */
  reads?: { prior: number; priorEven: number; diagonal: number; diagonalEven: number };
  /**
   * Where Full repeats the move (else null): the moves written with the last layer's 3 heads of highest diagonal
   * ratio switched off (top) and, as the controls, its 3 of lowest (bottom), ranked on this turn's Full answer, and
   * 3 drawn at random from the 5 heads outside the top 3 (random).
   */
  headsOff: { top: string | null; bottom: string | null; random: string | null } | null;
}

/** The same turns under two conditions: how many give the outcome under the first only, and under the second only (a sign test's pairs). */
export interface Split {
  first: number;
  second: number;
  /**
   * Per maze, in maze order: its turns where only the first gives the outcome, less those where only the second does.
   * The turns of one maze share its history, so the luck of a gap is read with each maze counted once (absent in a
   * hand-made split: then turn by turn).
   */
  byMaze?: number[];
}

/** The sets of last-layer heads switched off: the most-copying ones, and the two controls. */
export type HeadSet = 'top' | 'bottom' | 'random';

/** Over the turns where Full repeats the move: how often each set of heads switched off still repeats it, takes an open way, writes no move. */
export interface HeadsOffCounts {
  of: number;
  repeats: Record<HeadSet, number>;
  open: Record<HeadSet, number>;
  none: Record<HeadSet, number>;
  /** Turns where the set off still makes a move (writes one, and not 'stay'): the basis of every rate, as at the wall. */
  moved: Record<HeadSet, number>;
  /** Of the turns where both sets off make a move: where only the most-copying heads off change it, and where only the lowest do. */
  changed: Split;
  /** The same against the heads drawn at random. */
  changedRandom: Split;
}

export interface WallCounts {
  episodes: number;
  turns: number;
  /** Turns where the writer repeats the move that hit the wall. */
  repeats: Record<Writer, number>;
  /** Turns where the writer's move is an open way. */
  open: Record<Writer, number>;
  /** Turns where the writer makes a move at all (writes one, and not 'stay'). */
  moved: Record<Writer, number>;
  /** Of the turns where Full repeats the move (and its look can be read), how many look back at least LOOKS_BACK times even. */
  looks: { back: number; of: number };
  headsOff: HeadsOffCounts;
  /** Each writer against Full and against DE on the same turns: where only it repeats the blocked move, and where only Full (or DE) does. */
  split: { full: Record<Writer, Split>; de: Record<Writer, Split> };
  /** The mazes where the model hit a wall at all: the turns come from these, not from every episode. */
  mazes: number;
  /** The turns left out (`hasWayOut`), in a cell walled on all four sides, and the mazes they are in. */
  walledIn?: { turns: number; mazes: number };
  /**
   * Turns where the move that hit the wall still leads toward the goal (the goal lies beyond the wall), and of DE's
   * repeats, those: why it walks into the wall even with no history. Absent where the turns do not say where the goal is.
   */
  goalBeyond?: { turns: number; deRepeats: number };
  /**
   * The swap test: on how many turns the model writes the move its previous answer was changed to (`swap`), and, on the
   * same turns, how often that move comes under Full and under DE anyway. Absent where the turns do not keep it.
   */
  followed?: { swap: number; full: number; de: number; split: Split };
  /** DE's moves made, by direction: where the model heads with no history at all. */
  noHistoryMoves?: Record<string, number>;
  /** The moves that hit the walls, by direction: where the walls of these turns stand. */
  hitWays?: Record<string, number>;
  /** The mean over the turns of each `reads` figure: the shares and diagonal over every turn at a wall, not one answer. */
  reads?: { prior: number; priorEven: number; diagonal: number; diagonalEven: number };
  /** Full against DE at the first meeting of a wall, and once the model's own answers already hold that repeat. */
  stages?: Stages;
}

/**
 * A turn where some way is open: in two of the stored mazes the model starts in a cell walled on all four sides, where
 * every move hits a wall and no policy could do otherwise (the swap test has no open way to offer). Those turns are
 * left out of every count, and said so.
 */
export const hasWayOut = (t: WallTurn): boolean => t.blocked.length < 4;

export function wallCounts(episodes: number, all: readonly WallTurn[]): WallCounts {
  const turns = all.filter(hasWayOut);
  const walled = all.filter((t) => !hasWayOut(t));
  const read = turns.filter((t) => t.moves.full === t.hit && t.look !== null);
  const count = (hit: (t: WallTurn, m: string | null) => boolean) =>
    Object.fromEntries(WRITERS.map((w) => [w, turns.filter((t) => hit(t, t.moves[w])).length])) as Record<Writer, number>;
  return {
    episodes,
    turns: turns.length,
    repeats: count(repeatsHit),
    open: count(isOpen),
    moved: count((_, m) => makesMove(m)),
    looks: { back: read.filter((t) => t.look! >= LOOKS_BACK).length, of: read.length },
    headsOff: headsOffCounts(turns),
    split: { full: splitAgainst(turns, 'full'), de: splitAgainst(turns, 'de') },
    mazes: new Set(turns.map((t) => t.seed)).size,
    walledIn: { turns: walled.length, mazes: new Set(walled.map((t) => t.seed)).size },
    stages: hitStages(turns),
    ...(turns.length > 0 && turns.every((t) => t.toGoal) && { goalBeyond: goalBeyond(turns) }),
    ...(turns.length > 0 && turns.every((t) => t.reads) && { reads: meanReads(turns) }),
    ...(turns.length > 0 && turns.every((t) => t.swapTo) && { followed: followedSwap(turns) }),
    noHistoryMoves: byDirection(turns.map((t) => t.moves.de).filter(makesMove)),
    hitWays: byDirection(turns.map((t) => t.hit)),
  };
}

/** How often each writer writes the swap test's move: the swapped answer's, Full's and DE's. */
function followedSwap(turns: readonly WallTurn[]): NonNullable<WallCounts['followed']> {
  const to = (w: Writer) => turns.filter((t) => t.moves[w] === t.swapTo).length;
  // Paired with Full on the same turns: where only the swapped answer's model writes the new move, and where only Full does.
  const split = pairedSplit(
    turns,
    (t) => t.moves['swap-last'],
    (t) => t.moves.full,
    (t, m) => m === t.swapTo,
  );
  return { swap: to('swap-last'), full: to('full'), de: to('de'), split };
}

/** How many of these moves go each way. */
function byDirection(moves: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of moves) out[m] = (out[m] ?? 0) + 1;
  return out;
}

/** The mean of each answer's shares over the turns. */
function meanReads(turns: readonly WallTurn[]): NonNullable<WallCounts['reads']> {
  const mean = (k: keyof NonNullable<WallTurn['reads']>) => turns.reduce((s, t) => s + t.reads![k], 0) / turns.length;
  return { prior: mean('prior'), priorEven: mean('priorEven'), diagonal: mean('diagonal'), diagonalEven: mean('diagonalEven') };
}

/** Where the goal lies beyond the wall just hit: the blocked move is one that would bring the agent nearer it. */
function goalBeyond(turns: readonly WallTurn[]): { turns: number; deRepeats: number } {
  const beyond = turns.filter((t) => t.toGoal!.includes(t.hit));
  return { turns: beyond.length, deRepeats: beyond.filter((t) => repeatsHit(t, t.moves.de)).length };
}

/**
 * Each writer against one other on the same turns: where only the writer repeats the blocked move, and where only the
 * other does. Paired on the turns where both make a move, as every rate at the wall is of the moves made: a writer that
 * often writes no move would otherwise look as if it repeated less.
 */
function splitAgainst(turns: readonly WallTurn[], other: Writer): Record<Writer, Split> {
  return Object.fromEntries(
    WRITERS.map((w) => [
      w,
      pairedSplit(
        turns,
        (t) => t.moves[w],
        (t) => t.moves[other],
        repeatsHit,
      ),
    ]),
  ) as Record<Writer, Split>;
}

function headsOffCounts(turns: readonly WallTurn[]): HeadsOffCounts {
  const off = turns.filter((t) => t.moves.full === t.hit && t.headsOff);
  const sets = (hit: (t: WallTurn, m: string | null) => boolean): Record<HeadSet, number> => ({
    top: off.filter((t) => hit(t, t.headsOff!.top)).length,
    bottom: off.filter((t) => hit(t, t.headsOff!.bottom)).length,
    random: off.filter((t) => hit(t, t.headsOff!.random)).length,
  });
  // The top set against a control, paired where both still make a move, as every rate at the wall.
  const against = (other: 'bottom' | 'random'): Split =>
    pairedSplit(
      off,
      (t) => t.headsOff!.top,
      (t) => t.headsOff![other],
      (t, m) => m !== t.hit,
    );
  return {
    of: off.length,
    repeats: sets(repeatsHit),
    open: sets(isOpen),
    none: sets((_, m) => m === null),
    moved: sets((_, m) => makesMove(m)),
    changed: against('bottom'),
    changedRandom: against('random'),
  };
}

/** n of total in whole per cent: the one rounding every count here is said, drawn and tabled with. */
export const rate = (n: number, total: number): number => Math.round((n / total) * 100);

/** The stored turns themselves, for the counts a step makes of them (Window-6's early turns). */
export const WALL_TURNS = (stored.turns as WallTurn[]).filter(hasWayOut);

/** The counts of the stored episodes (examples/cache/wall-turns.json, pinned to a fresh run by a test). */
export const WALL_COUNTS: WallCounts = wallCounts(stored.episodes, stored.turns as WallTurn[]);

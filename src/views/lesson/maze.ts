/**
 * The maze as its user turns tell it ("Round 5. Position (3,3). Walls: south. Goal: (3,4)."): where the agent
 * stood each turn, the walls named there, and the goal, for the case step to draw. Plain functions.
 */
import { wallsIn } from './moves';

export interface MazeTrail {
  /** Cells per side (the system prompt's "6x6 grid"). */
  size: number;
  /** Where the agent stood at each turn, and the walls its user message names there. */
  steps: { x: number; y: number; walls: string[] }[];
  goal: { x: number; y: number } | null;
  /** The turns of the last run at one cell (the agent standing against a wall), when two or more. */
  stuck: { from: number; to: number } | null;
  /** How the system prompt numbers the cells ("cell = 6y + x + 1": cell = a·y + x + b), or null when it says not. */
  numbering: { a: number; b: number } | null;
  /**
   * Where the answers' lists of cells stop matching the path: the first turn whose list is not every cell stood on
   * so far, and whether, in the last run at one cell, some lists add that cell again and some do not. Null when
   * every list matches (or the answers keep none).
   */
  drift: { turn: number; uneven: boolean } | null;
}

/** A cell's number as the system prompt counts them: what the answers' lists of cells say. */
export const cellNumber = (n: { a: number; b: number }, x: number, y: number): number => n.a * y + x + n.b;

/** Past this many cells a side the drawing would be unreadable on a card: none is drawn. */
const MAX_SIZE = 16;

/** The maze of a conversation's observations, turn by turn, or null when they tell none (or one too large to draw). */
export function mazeTrail(system: string | null, observations: readonly string[], answers: readonly string[] = []): MazeTrail | null {
  const steps = observations.flatMap((o) => {
    const m = /Position \((\d+),(\d+)\)/.exec(o);
    return m ? [{ x: Number(m[1]), y: Number(m[2]), walls: wallsIn(o) ?? [] }] : [];
  });
  if (!steps.length) return null;
  const g = /Goal: \((\d+),(\d+)\)/.exec(observations.at(-1) ?? '');
  const goal = g ? { x: Number(g[1]), y: Number(g[2]) } : null;
  const told = Number(/(\d+)x(\d+) grid/.exec(system ?? '')?.[1]);
  const size = told || Math.max(...steps.flatMap((s) => [s.x, s.y]), goal?.x ?? 0, goal?.y ?? 0) + 1;
  const inside = (p: { x: number; y: number }) => p.x < size && p.y < size;
  if (size > MAX_SIZE || !steps.every(inside) || (goal && !inside(goal))) return null;
  // The last run of turns at one cell: where the agent kept walking into a wall.
  let from = steps.length - 1;
  const last = steps.at(-1)!;
  while (from > 0 && steps[from - 1]!.x === last.x && steps[from - 1]!.y === last.y) from--;
  const counted = /cell = (\d+)y \+ x \+ (\d+)/.exec(system ?? '');
  const numbering = counted ? { a: Number(counted[1]), b: Number(counted[2]) } : null;
  const stuck = from < steps.length - 1 ? { from: from + 1, to: steps.length } : null;
  return { size, steps, goal, stuck, numbering, drift: numbering && listDrift(steps, numbering, stuck, answers) };
}

/** An answer's list of cells ("Been at: 3 4 10."), or null when it gives none. */
const listOf = (answer: string): number[] | null => {
  const m = /Been at:([\d\s]*)/.exec(answer);
  return m ? m[1]!.trim().split(/\s+/).filter(Boolean).map(Number) : null;
};

/** `MazeTrail.drift`: the lists are the model's own notes, which a reader takes for the path unless told. */
function listDrift(steps: MazeTrail['steps'], n: { a: number; b: number }, stuck: MazeTrail['stuck'], answers: readonly string[]): MazeTrail['drift'] {
  const cells = steps.map((s) => cellNumber(n, s.x, s.y));
  const lists = answers.slice(0, steps.length).map(listOf);
  const off = lists.findIndex((l, t) => l !== null && l.join(' ') !== cells.slice(0, t + 1).join(' '));
  if (off < 0) return null;
  // In the run at one cell, each list's growth over the one before: some grow and some do not, or all alike.
  const grew = stuck ? lists.slice(stuck.from - 1, stuck.to).map((l, k, all) => (k && l && all[k - 1] ? l.length > all[k - 1]!.length : null)) : [];
  return { turn: off + 1, uneven: grew.includes(true) && grew.includes(false) };
}

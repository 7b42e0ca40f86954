/**
 * The fold's count table: for each policy a step reads, where its move went on every stored turn right after a wall,
 * as counts that add up to the same number of turns (one base for every row: "no move" is a column of its own), and
 * the rate the bars and the words give, that of the moves made. Readers asked for a small table in place of the
 * fold's sentences of counts.
 */
import { type HeadSet, type HeadsOffCounts, rate, WALL_COUNTS, type WallCounts, type Writer } from './wall-records';

export interface CountRow {
  label: string;
  repeats: number;
  otherWall: number;
  open: number;
  noMove: number;
  /** Repeats in every 100 moves made, rounded: the figure the bars draw. */
  rate: number;
  /** Moves into any wall, the same or another, in every 100 moves made: a drop in repeats may only swap walls. */
  anyWall: number;
}

export interface CountTable {
  caption: string;
  /** What a row is: a policy, or a set of heads switched off. */
  rowsAre: string;
  /** The turns every row adds up to. */
  turns: number;
  rows: CountRow[];
}

/** One row from a writer's counts over `turns`: what is neither a repeat nor an open way, of the moves made, hit another wall. */
const row = (label: string, turns: number, repeats: number, open: number, moved: number): CountRow => ({
  label,
  repeats,
  otherWall: moved - repeats - open,
  open,
  noMove: turns - moved,
  rate: rate(repeats, moved || 1),
  anyWall: rate(moved - open, moved || 1),
});

/** The rows for these policies (label, writer), in order. */
export function countTable(rows: readonly (readonly [string, Writer])[], c: WallCounts = WALL_COUNTS): CountTable {
  return {
    caption: `The counts: where the move went, on each of the ${c.turns} turns right after a wall (${c.episodes} mazes the demo model played)`,
    rowsAre: 'policy',
    turns: c.turns,
    rows: rows.map(([label, w]) => row(label, c.turns, c.repeats[w], c.open[w], c.moved[w])),
  };
}

/** The heads step's table: over the stored repeats, where the move went with each set of the last layer's heads switched off. */
export function headsCountTable(h: HeadsOffCounts): CountTable {
  const sets: [string, HeadSet][] = [
    ['most-copying 3', 'top'],
    ['3 at random', 'random'],
    ['lowest 3', 'bottom'],
  ];
  return {
    caption: `The counts: where the move went with heads switched off, on each of the ${h.of} repeats (every one into the wall with every head on)`,
    rowsAre: 'heads off',
    turns: h.of,
    rows: sets.map(([label, k]) => row(label, h.of, h.repeats[k], h.open[k], h.moved[k])),
  };
}

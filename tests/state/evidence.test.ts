import { describe, expect, it } from 'vitest';
import { holm, signFlipTest } from '../../src/metrics/stats';
import { goalsByMaze, type PlayedMaze } from '../../src/views/lesson/closed-loop';
import { type EvidenceRow, evidenceRows } from '../../src/views/lesson/evidence';
import { headsLuck } from '../../src/views/lesson/heads-tally';
import { evidenceSaid } from '../../src/views/lesson/summary';
import { WALL_COUNTS, WALL_TURNS } from '../../src/views/lesson/wall-records';

describe("the check's table of every comparison", () => {
  it("counts Full against DE from the stored turns themselves, maze by maze (the first row, recounted by hand's rule)", () => {
    const rows = evidenceRows();
    const first = rows[0]!;
    expect(first.compared).toBe('Full against DE (no history)');
    // Recounted here: on the turns where both make a move, only Full repeats the blocked move, or only DE does.
    const moves = (m: string | null) => m !== null && m !== 'stay';
    const both = WALL_TURNS.filter((t) => moves(t.moves.full) && moves(t.moves.de));
    const onlyFull = both.filter((t) => t.moves.full === t.hit && t.moves.de !== t.hit);
    const onlyDe = both.filter((t) => t.moves.de === t.hit && t.moves.full !== t.hit);
    expect([first.onlyFirst, first.onlySecond]).toEqual([onlyFull.length, onlyDe.length]);
    expect(first.gap).toBe(onlyFull.length - onlyDe.length);
    const seeds = [...new Set(WALL_TURNS.map((t) => t.seed))];
    const byMaze = seeds.map((s) => onlyFull.filter((t) => t.seed === s).length - onlyDe.filter((t) => t.seed === s).length);
    expect(first.p).toBe(signFlipTest(byMaze));
    // The range holds the gap; Holm's correction is of every row's p, and never lowers one.
    expect(first.range[0]).toBeLessThanOrEqual(first.gap);
    expect(first.range[1]).toBeGreaterThanOrEqual(first.gap);
    // Holm's correction within each question: the main comparison alone keeps its own luck.
    expect(first.holm).toBe(first.p);
    const where = rows.filter((r) => r.question === rows[1]!.question);
    expect(where.map((r) => r.holm)).toEqual(holm(where.map((r) => r.p)));
    expect(where.map((r) => r.step)).toEqual(['contexts', 'hide', 'hide-last', 'hide-last', 'hide-last']);
    // The heads step counts its two tests together as this table does: the same two figures.
    const heads = rows.filter((r) => r.step === 'heads').map((r) => r.holm);
    expect(heads).toEqual([headsLuck(WALL_COUNTS.headsOff).random, headsLuck(WALL_COUNTS.headsOff).lowest]);
    // The stored records' table is worked out once.
    expect(evidenceRows()).toBe(rows);
    for (const r of rows) expect(r.holm).toBeGreaterThanOrEqual(r.p);
    // Each hiding row reads Full first: Full repeats more where its answers are hidden (the gap is Full's extra repeats).
    const aoLast = rows.find((r) => r.compared.startsWith('Full against AO-last'))!;
    expect(aoLast.onlyFirst).toBe(WALL_COUNTS.split.full['ao-last'].second);
  });

  it('pairs goals maze by maze, leaving out mazes only one played', () => {
    const m = (seed: number, reached: boolean): PlayedMaze => ({
      seed,
      reached,
      turns: 5,
      hits: 0,
      afterWall: 0,
      repeats: 0,
      ended: reached ? 'goal' : 'turns',
    });
    const a = [m(1, true), m(2, false), m(3, true), m(4, true)];
    const b = [m(1, false), m(2, true), m(3, true)];
    expect(goalsByMaze(a, b)).toEqual({ first: 1, second: 1, byMaze: [1, -1, 0] });
  });

  it('says how many pass alone, and names those that could be luck once their question is counted', () => {
    const row = (compared: string, p: number, clear: boolean) => ({ compared, p, clear }) as EvidenceRow;
    expect(evidenceSaid([row('A', 0.001, true), row('B', 0.03, false), row('C', 0.4, false)])).toBe(
      'Counted alone, 2 of the 3 comparisons its findings rest on give a gap more than luck. Among many comparisons one may pass by luck, so the table below also counts together those made for one question: then B could be luck. Trust most what several steps agree on.',
    );
    expect(evidenceSaid([row('A', 0.01, false), row('B', 0.02, false), row('C', 0.4, false)])).toContain('then A and B could be luck.');
    expect(evidenceSaid([row('A', 0.001, true), row('C', 0.4, false)])).toContain('each still passes.');
  });
});

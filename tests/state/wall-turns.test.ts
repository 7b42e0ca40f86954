import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dirSource } from '../../src/cli/dir-source';
import { CPL_DE_MODEL_PATH, CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { signTest } from '../../src/metrics/stats';
import { summary } from '../../src/views/lesson/summary';
import { twinTally } from '../../src/views/lesson/twin-tally';
import { byChance, growsSaid, looksBackShare, looksRare, noHistoryLean, scoreboard, stagesSaid, wallTally } from '../../src/views/lesson/wall-counts';
import { headsTally } from '../../src/views/lesson/heads-tally';
import { policyTally } from '../../src/views/lesson/policy-tally';
import { hiddenTally, latestTally } from '../../src/views/lesson/hidden-counts';
import { recapReveal as recapWith, recapRows } from '../../src/views/lesson/recap';
import type { ClosedLoopRecord } from '../../src/views/lesson/closed-loop';
import { WORDS } from '../../src/views/lesson/world';
import { hasWayOut, WALL_COUNTS, WALL_TURNS, wallCounts, type WallTurn, WRITERS } from '../../src/views/lesson/wall-records';
import { hitStages } from '../../src/views/lesson/paired';
import { swapLastMove, wallEpisode } from '../../training/wall-turns';
import { HEADS_OFF } from '../helpers/heads-off-counts';

const stored = JSON.parse(readFileSync('examples/cache/wall-turns.json', 'utf8')) as { episodes: number; firstSeed: number; turns: WallTurn[] };

const sp = (first: number, second: number) => ({ first, second });

/** No mazes played through: the fixture's recap reads its own counts only (the closed-loop figures have their own test). */
const NO_LOOP: ClosedLoopRecord = { episodes: 0, firstSeed: 0, played: { full: [], lt: [], de: [], ao: [], 'ao-last': [], 'ao-second-last': [], twin: [] } };
const recapReveal = (c: Parameters<typeof recapWith>[0]) => recapWith(c, NO_LOOP);

describe('the wall counts the lesson quotes', () => {
  it('split the turns by whether the previous answer already walked into the same wall (hand-computed)', () => {
    const at = (turn: number, full: string, de: string, hit = 'south'): WallTurn => ({
      seed: 1,
      turn,
      hit,
      blocked: ['south', 'north'],
      moves: Object.fromEntries(WRITERS.map((w) => [w, w === 'full' ? full : w === 'de' ? de : 'east'])) as WallTurn['moves'],
      look: null,
      headsOff: null,
    });
    // Turn 3 meets the wall; Full repeats it, so turn 4 follows a repeat, and Full repeats again, so turn 5 does too.
    // Turn 7 is stored but turn 6 is not (the model moved away): a first meeting again. Turn 8 follows turn 7, whose
    // Full answer took an open way: first again. Turn 9 follows a repeat into another wall (north): first.
    const s = hitStages([
      at(3, 'south', 'east'),
      at(4, 'south', 'south'),
      at(5, 'south', 'east'),
      at(7, 'east', 'east'),
      at(8, 'north', 'south', 'north'),
      at(9, 'south', 'east'),
    ]);
    expect(s.after).toEqual({ turns: 2, mazes: 1, full: { repeats: 2, moved: 2 }, de: { repeats: 1, moved: 2 }, split: { first: 1, second: 0, byMaze: [1] } });
    expect(s.first).toEqual({ turns: 4, mazes: 1, full: { repeats: 3, moved: 4 }, de: { repeats: 0, moved: 4 }, split: { first: 3, second: 0, byMaze: [3] } });
  });

  it('say where the gap is: at a first meeting of a wall, and once the previous answer walked into it (hand-computed)', () => {
    const stage = (fullR: number, deR: number, n: number, byMaze: number[]) => ({
      turns: n,
      mazes: byMaze.length,
      full: { repeats: fullR, moved: n },
      de: { repeats: deR, moved: n },
      split: { first: byMaze.filter((x) => x > 0).length, second: byMaze.filter((x) => x < 0).length, byMaze },
    });
    // First meetings: 5 mazes each one turn apart, 1 time in 16 by a sign flip (could be luck); after a repeat, 15 mazes: clear.
    const c = { ...WALL_COUNTS, stages: { first: stage(18, 13, 41, [1, 1, 1, 1, 1]), after: stage(90, 49, 94, Array(15).fill(1)) } };
    expect(stagesSaid(c)).toBe(
      'Where the gap is: the first time it meets a wall (41 turns), it walks back in at 44 % with its whole history and 32 % with none (could be luck). Once its previous answer has already walked into that wall (94 turns), 96 % against 52 % (more than luck). Most of the gap sits in those runs of repeats, which also pile up the turns counted here. ',
    );
    expect(growsSaid(c)).toBe(
      ' Most of the gap sits where its previous answer already walked into the wall (96 % against 52 %); the first time it meets a wall, 44 % against 32 %, which could be luck.',
    );
    // Where the gap after a repeat could be luck too, the close says nothing of it.
    expect(growsSaid({ ...c, stages: { ...c.stages, after: stage(90, 49, 94, [1, -1]) } })).toBe('');
  });

  it('leave out a turn in a cell walled on all four sides, and say how many (hand-computed)', () => {
    const moves = Object.fromEntries(WRITERS.map((w) => [w, 'south'])) as WallTurn['moves'];
    const at = (seed: number, blocked: string[]): WallTurn => ({ seed, turn: 3, hit: 'south', blocked, moves, look: null, headsOff: null });
    // Maze 1: one turn with a way out (east). Maze 2: walled in, every move a wall; no policy could do otherwise.
    const c = wallCounts(2, [at(1, ['south', 'west', 'north']), at(2, ['south', 'west', 'north', 'east']), at(2, ['south', 'west', 'north', 'east'])]);
    expect(c.turns).toBe(1);
    expect(c.mazes).toBe(1);
    expect(c.walledIn).toEqual({ turns: 2, mazes: 1 });
    expect(c.repeats.full).toBe(1);
    // The stored records: two mazes start the model in a walled-in cell (14 turns), none of them counted.
    expect(WALL_TURNS.every(hasWayOut)).toBe(true);
    expect(WALL_COUNTS.walledIn).toEqual({ turns: 14, mazes: 2 });
  });
  it('count repeats and open ways per writer from the records (hand-computed)', () => {
    const turn = (moves: WallTurn['moves'], look: number | null, headsOff: WallTurn['headsOff'] = null): WallTurn => ({
      seed: 1,
      turn: 3,
      hit: 'south',
      blocked: ['south', 'west'],
      moves,
      look,
      headsOff,
    });
    // Every turn here is one maze's (seed 1): each split's gap by maze is its one gap.
    const spm = (first: number, second: number) => ({ first, second, byMaze: [first - second] });
    const c = wallCounts(2, [
      turn(
        {
          full: 'south',
          lt: 'east',
          de: 'west',
          'window:6': 'south',
          'clip:6:1': 'south',
          'summary:6:1': 'south',
          ao: 'east',
          filler: 'south',
          sum: null,
          'ao-last': 'south',
          'ao-second-last': 'south',
          'cut-last': 'west',
          twin: null,
          'twin-de': null,
          'swap-last': null,
        },
        5.6,
        {
          top: 'north',
          bottom: 'south',
          random: 'south',
        },
      ),
      turn(
        {
          full: 'south',
          lt: 'south',
          de: 'stay',
          'window:6': 'south',
          'clip:6:1': 'south',
          'summary:6:1': 'south',
          ao: null,
          filler: 'east',
          sum: 'south',
          'ao-last': 'east',
          'ao-second-last': 'south',
          'cut-last': 'south',
          twin: 'north',
          'twin-de': 'north',
          'swap-last': 'north',
        },
        1.49,
        {
          top: null,
          bottom: 'west',
          random: 'east',
        },
      ),
      // Not a repeat under Full: neither its look nor its heads-off moves are counted.
      turn(
        {
          full: 'east',
          lt: 'south',
          de: 'stay',
          'window:6': 'south',
          'clip:6:1': 'south',
          'summary:6:1': 'south',
          ao: null,
          filler: 'west',
          sum: 'south',
          'ao-last': null,
          'ao-second-last': null,
          'cut-last': 'north',
          twin: 'north',
          'twin-de': 'north',
          'swap-last': 'north',
        },
        9,
        {
          top: 'north',
          bottom: 'north',
          random: 'north',
        },
      ),
      // Its look cannot be read: not counted either.
      turn(
        {
          full: 'south',
          lt: 'south',
          de: 'stay',
          'window:6': 'south',
          'clip:6:1': 'south',
          'summary:6:1': 'south',
          ao: null,
          filler: 'stay',
          sum: 'north',
          'ao-last': 'west',
          'ao-second-last': 'east',
          'cut-last': null,
          twin: 'north',
          'twin-de': 'north',
          'swap-last': 'north',
        },
        null,
        {
          top: 'south',
          bottom: 'south',
          random: 'stay',
        },
      ),
    ]);
    expect(c).toEqual({
      episodes: 2,
      turns: 4,
      mazes: 1,
      walledIn: { turns: 0, mazes: 0 },
      // Every turn here is turn 3 of one maze: none follows a repeat, so all four meet the wall first.
      stages: {
        first: { turns: 4, mazes: 1, full: { repeats: 3, moved: 4 }, de: { repeats: 0, moved: 1 }, split: spm(1, 0) },
        after: { turns: 0, mazes: 0, full: { repeats: 0, moved: 0 }, de: { repeats: 0, moved: 0 }, split: { first: 0, second: 0, byMaze: [] } },
      },
      // DE's moves made, by direction: one, west.
      noHistoryMoves: { west: 1 },
      hitWays: { south: 4 },
      repeats: {
        full: 3,
        lt: 3,
        de: 0,
        'window:6': 4,
        'clip:6:1': 4,
        'summary:6:1': 4,
        ao: 0,
        filler: 1,
        sum: 2,
        'ao-last': 1,
        'ao-second-last': 2,
        'cut-last': 1,
        twin: 0,
        'twin-de': 0,
        'swap-last': 0,
      },
      open: {
        full: 1,
        lt: 1,
        de: 0,
        'window:6': 0,
        'clip:6:1': 0,
        'summary:6:1': 0,
        ao: 1,
        filler: 1,
        sum: 1,
        'ao-last': 1,
        'ao-second-last': 1,
        'cut-last': 1,
        twin: 3,
        'twin-de': 3,
        'swap-last': 3,
      },
      moved: {
        full: 4,
        lt: 4,
        de: 1,
        'window:6': 4,
        'clip:6:1': 4,
        'summary:6:1': 4,
        ao: 1,
        filler: 3,
        sum: 3,
        'ao-last': 3,
        'ao-second-last': 3,
        'cut-last': 3,
        twin: 3,
        'twin-de': 3,
        'swap-last': 3,
      },
      looks: { back: 1, of: 2 },
      // Only the top heads off change the first turn's move; neither the fourth's; on the second the top set makes none.
      headsOff: {
        of: 3,
        repeats: { top: 1, bottom: 2, random: 1 },
        open: { top: 1, bottom: 0, random: 1 },
        none: { top: 1, bottom: 0, random: 0 },
        moved: { top: 2, bottom: 3, random: 2 },
        // Paired where both sets make a move (turns 1 and 4; the top set writes none on turn 2).
        changed: { first: 1, second: 0, byMaze: [1] },
        // Against the random heads, only turn 1 pairs (turn 4's random set stays): the top set changes it, the random set not.
        changedRandom: { first: 1, second: 0, byMaze: [1] },
      },
      // Paired where both make a move, as every rate at the wall. Full repeats on turns 1, 2 and 4 and moves on all; DE moves on
      // turn 1 only (west), so against DE only turn 1 pairs. Against Full, e.g. LT repeats on turn 3 only it, Full on turn 1 only it.
      split: {
        full: {
          full: spm(0, 0),
          lt: spm(1, 1),
          de: spm(0, 1),
          'window:6': spm(1, 0),
          'clip:6:1': spm(1, 0),
          'summary:6:1': spm(1, 0),
          ao: spm(0, 1),
          // Filler stays on turn 4: turns 1–3 pair, and only Full repeats on turn 2.
          filler: spm(0, 1),
          // SUM writes nothing on turn 1: turns 2–4 pair; only SUM repeats on turn 3, only Full on turn 4.
          sum: spm(1, 1),
          // Hiding the previous answer repeats on turn 1 only; Full also on turns 2 and 4 (it writes nothing on turn 3).
          'ao-last': spm(0, 2),
          // The control repeats with Full on turns 1 and 2; only Full on turn 4 (it writes nothing on turn 3).
          'ao-second-last': spm(0, 1),
          // The list kept: it moves on turns 1–3; only Full repeats on turn 1, both on turn 2, neither on turn 3.
          'cut-last': spm(0, 1),
          twin: spm(0, 2),
          'twin-de': spm(0, 2),
          'swap-last': spm(0, 2),
        },
        de: {
          full: spm(1, 0),
          lt: spm(0, 0),
          de: spm(0, 0),
          'window:6': spm(1, 0),
          'clip:6:1': spm(1, 0),
          'summary:6:1': spm(1, 0),
          ao: spm(0, 0),
          filler: spm(1, 0),
          sum: spm(0, 0),
          'ao-last': spm(1, 0),
          'ao-second-last': spm(1, 0),
          'cut-last': spm(0, 0),
          twin: spm(0, 0),
          'twin-de': spm(0, 0),
          'swap-last': spm(0, 0),
        },
      },
    });
    // One turn where the two sets part: fewer repeats with the top heads off, but not clearly beyond chance.
    expect(headsTally(c)).toEqual({
      takeaway: 'The most-copying heads changed more moves than the control, but that could be luck.',
      // Where its changed moves went, still said: the step's other finding.
      caveat: 'most moves that changed took an open way.',
      said: 'Written again with the most-copying heads off, 50 % of the moves made still hit the wall; 50 % with three at random off, 67 % with the lowest. Counting both its tests, luck alone would give a gap like the one to the lowest 1 time in 2 or more.',
      more: "The repeats are 75 % of 4 turns right after a wall; each turn has its own heads ranked. The random three are drawn anew at each turn from the last layer's heads outside the most-copying three (seeded, so a rerun draws the same).",
      // Over the 3 repeats: with the top heads off 1 repeat, 1 open way, 1 no move; the random set the same; the lowest 2 repeats and 1 other wall.
      counts: {
        caption: 'The counts: where the move went with heads switched off, on each of the 3 repeats (every one into the wall with every head on)',
        rowsAre: 'heads off',
        turns: 3,
        rows: [
          { label: 'most-copying 3', repeats: 1, otherWall: 0, open: 1, noMove: 1, rate: 50, anyWall: 50 },
          { label: '3 at random', repeats: 1, otherWall: 0, open: 1, noMove: 1, rate: 50, anyWall: 50 },
          { label: 'lowest 3', repeats: 2, otherWall: 1, open: 0, noMove: 0, rate: 67, anyWall: 100 },
        ],
      },
      // Drawn among the moves made: with the top heads off 1 repeat and 1 open way of 2 (50 % each; 1 of 3 no move, written beside); 2 of 3 with the lowest off.
      board: {
        turns: 3,
        episodes: 0,
        rows: [
          // The moves as picked: all back into the wall with every head on.
          { label: 'every head on (how these were picked)', repeats: 100, open: 0, noMove: 0 },
          { label: 'most-copying heads off', repeats: 50, open: 50, noMove: 33 },
          { label: 'three at random off (drawn anew each turn)', repeats: 50, open: 50, noMove: 33 },
          { label: 'lowest heads off', repeats: 67, open: 0, noMove: 0 },
        ],
        noHistory: null,
        caption:
          "The 3 moves back into the wall with every head on (of step 2's 4 turns right after a wall), written again with heads switched off: where each move goes now",
        repeatKey: 'still into the same wall',
      },
      // On the luck meter: each set parts from the most-copying one on a single turn (1 against 0): p = 1.
      luck: [
        { label: 'most-copying off against three at random', p: 1, said: '1 time in 2 or more', clear: false },
        {
          label: 'most-copying off against the lowest off',
          p: 1,
          said: '1 time in 2 or more',
          clear: false,
          note: 'Both dots count the two tests together: a gap that passes one of several tests may pass by luck.',
        },
      ],
    });
    const even = { ...c.headsOff, repeats: { top: 2, bottom: 2, random: 2 } };
    expect(headsTally({ ...c, headsOff: even }).takeaway).toBe('The most-copying heads carry no more of the pull than any three heads.');
    expect(headsTally({ ...c, headsOff: { ...even, of: 0 } }).said).toBe('');
    expect(looksBackShare({ ...c, looks: { back: 15, of: 116 } })).toBe('13 %');
    expect(looksRare({ ...c, looks: { back: 15, of: 116 } })).toBe(true);
    expect(looksRare(c)).toBe(false);
  });

  it('read each gap with each maze counted once (hand-computed)', () => {
    const moves = (full: string | null, de: string | null) => Object.fromEntries(WRITERS.map((w) => [w, w === 'de' ? de : full])) as WallTurn['moves'];
    const at = (seed: number, full: string | null, de: string | null): WallTurn => ({
      seed,
      turn: 3,
      hit: 'south',
      blocked: ['south'],
      moves: moves(full, de),
      look: null,
      headsOff: null,
    });
    // Maze 1: Full alone repeats twice; maze 2: DE alone once, and a turn where DE writes no move (not paired).
    const c = wallCounts(2, [at(1, 'south', 'east'), at(1, 'south', 'north'), at(2, 'east', 'south'), at(2, 'south', null)]);
    expect(c.split.de.full).toEqual({ first: 2, second: 1, byMaze: [2, -1] });
    // Sign flips of (2, −1): sums 1, 3, −3, −1; |sum| ≥ 1 in all 4.
    expect(byChance(c.split.de.full)).toMatchObject({ p: 1, clear: false });
    // Without its mazes, turn by turn: the sign test on 2 against 1.
    expect(byChance({ first: 2, second: 1 }).p).toBeCloseTo(signTest(2, 1));
  });

  it("say the counts in words, with their shares of the turns, and what the twin's count means", () => {
    const c = {
      episodes: 40,
      turns: 200,
      mazes: 3,
      repeats: {
        full: 150,
        lt: 140,
        de: 90,
        'window:6': 148,
        'clip:6:1': 148,
        'summary:6:1': 148,
        ao: 80,
        filler: 20,
        sum: 90,
        'ao-last': 88,
        'ao-second-last': 140,
        'cut-last': 100,
        twin: 120,
        'twin-de': 140,
        'swap-last': 140,
      },
      open: {
        full: 20,
        lt: 25,
        de: 80,
        'window:6': 21,
        'clip:6:1': 21,
        'summary:6:1': 21,
        ao: 30,
        filler: 80,
        sum: 30,
        'ao-last': 80,
        'ao-second-last': 20,
        'cut-last': 60,
        twin: 50,
        'twin-de': 30,
        'swap-last': 30,
      },
      moved: {
        full: 200,
        lt: 200,
        de: 200,
        'window:6': 200,
        'clip:6:1': 200,
        'summary:6:1': 200,
        ao: 160,
        filler: 100,
        sum: 150,
        'ao-last': 190,
        'ao-second-last': 195,
        'cut-last': 198,
        twin: 200,
        'twin-de': 200,
        'swap-last': 200,
      },
      looks: { back: 19, of: 116 },
      headsOff: HEADS_OFF,
      // Against Full, then DE, on the same turns: where only the writer repeats the blocked move, and only Full (DE) does.
      split: {
        full: {
          full: sp(0, 0),
          lt: sp(15, 25),
          de: sp(9, 69),
          'window:6': sp(2, 4),
          'clip:6:1': sp(2, 4),
          'summary:6:1': sp(2, 4),
          ao: sp(10, 80),
          filler: sp(5, 135),
          sum: sp(20, 80),
          'ao-last': sp(8, 70),
          'ao-second-last': sp(12, 14),
          'cut-last': sp(6, 56),
          twin: sp(11, 41),
          'twin-de': sp(18, 28),
          'swap-last': sp(18, 28),
        },
        de: {
          // Three mazes with a wall: Full repeats more in two (by 3 and 1), DE in one (by 1); sign flips: |±3±1±1| ≥ 3 in 6 of 8.
          full: { ...sp(69, 9), byMaze: [3, 1, -1] },
          lt: sp(60, 10),
          de: sp(0, 0),
          'window:6': sp(68, 10),
          'clip:6:1': sp(68, 10),
          'summary:6:1': sp(68, 10),
          ao: sp(37, 45),
          filler: sp(5, 75),
          sum: sp(20, 20),
          'ao-last': sp(30, 32),
          'ao-second-last': sp(62, 12),
          'cut-last': sp(40, 30),
          twin: sp(41, 11),
          'twin-de': sp(41, 11),
          'swap-last': sp(41, 11),
        },
      },
    };
    // The card's running count: what the learner has reached, in the order taught.
    expect(scoreboard({ generate: false, contexts: true, hide: true, cpl: true }, c)).toBeNull();
    const row = (label: string, repeats: number, open: number, noMove = 0) => expect.objectContaining({ label, repeats, open, noMove });
    expect(scoreboard({ generate: true, contexts: false, hide: false, cpl: false }, c)).toEqual({
      turns: 200,
      episodes: 40,
      mazes: 3,
      rows: [row('whole history (Full)', 75, 10), row('no history (DE)', 45, 40)],
      noHistory: 45,
    });
    // Each bar's count beside its per cent: Full 150 of its 200 moves, DE 90 of 200.
    expect(scoreboard({ generate: true, contexts: false, hide: false, cpl: false }, c)!.rows.map((r) => r.counted)).toEqual(['150 of 200', '90 of 200']);
    expect(scoreboard({ generate: true, contexts: true, hide: true, cpl: true }, c)!.rows).toEqual([
      row('whole history (Full)', 75, 10),
      row('last 6 turns (Window-6)', 74, 11),
      // Built from Window-6's counts in this fixture.
      row('piled up to 6, then the last (Clip-6→1)', 74, 11),
      row('as Clip, with summaries (Summary-6→1)', 74, 11),
      row('turn before only (LT)', 70, 13),
      row('own answers hidden (AO)', 50, 19, 20),
      // 88 and 80 of the 190 moves; 10 of 200 turns make none.
      row('previous answer hidden (AO-last)', 46, 42, 5),
      // The control: 140 and 20 of 195 moves; 5 of 200 turns make none (2.5 %, rounded up).
      row('answer two turns back hidden (AO-second-last)', 72, 10, 3),
      row('no history (DE)', 45, 40),
      row('CPL twin, whole history', 60, 25),
      row('second twin (toward DE), whole history', 70, 15),
    ]);
    // In the hide step AO-last's bar waits for its click; elsewhere it is drawn once the step is reached.
    expect(scoreboard({ generate: true, contexts: true, hide: true, cpl: false, aoLast: false }, c)!.rows.map((r) => r.writer)).not.toContain('ao-last');
    // The twin's step: only the rows its words read, in the same order.
    expect(
      scoreboard({ generate: true, contexts: true, hide: true, cpl: true }, c, ['full', 'lt', 'de', 'twin', 'twin-de'])!.rows.map((r) => r.writer),
    ).toEqual(['full', 'lt', 'de', 'twin', 'twin-de']);
    expect(wallTally(c)).toEqual({
      takeaway: 'After a wall, it walks into it again in 75 % of moves with history, 45 % without.',
      // Luck, said first here: Full and DE part 69 against 9.
      // Read with each maze counted once (3 mazes: 1 time in 2 or more), as every gap after it.
      said: 'Could the gap be luck? Were Full and DE alike, luck would make one this size 1 time in 2 or more, so it could be luck.',
      // Why no history still repeats, unfolded: its own rate, and what the pull is measured from.
      caveat: 'even with no history it walks back in 45 % of the time; only the extra 30 points come from its history.',
      more: "Over 200 turns right after a wall, in the 3 of the 40 mazes where it hit one, the whole history adds 30 repeats in every 100 moves (75 − 45); the next steps find where they come from. The model always writes its likeliest next token, so a rerun writes the same answers: luck here is which mazes and turns came up. The two disagree on 78 turns: only Full repeats the blocked move 69 times, only DE 9; were the two alike, luck would split them this unevenly less than 1 time in 1,000. Counted maze by maze, Full repeats more in 2 of the 3 mazes with a wall (by 1 to 3 turns), DE in 1 (by 1 turn); were the two alike, which one repeats more in a maze would be a coin toss, and the mazes' gaps would add up this lopsided 1 time in 2 or more. Full's extra repeats come to 3 turns; drawing 3 of these mazes again at random, 10,000 times, 95 % of the totals fall between −3 and 9.",
      counts: {
        caption: 'The counts: where the move went, on each of the 200 turns right after a wall (40 mazes the demo model played)',
        rowsAre: 'policy',
        turns: 200,
        rows: [
          { label: 'Full', repeats: 150, otherWall: 30, open: 20, noMove: 0, rate: 75, anyWall: 90 },
          { label: 'DE', repeats: 90, otherWall: 30, open: 80, noMove: 0, rate: 45, anyWall: 60 },
        ],
      },
      luck: [
        { label: 'Full against DE, turn by turn', p: signTest(69, 9), said: 'less than 1 time in 1,000', clear: true },
        {
          label: 'the same, each maze counted once',
          p: 6 / 8,
          said: '1 time in 2 or more',
          clear: false,
          note: "The second line counts each maze once, by how many more of its turns repeat under Full: a maze's turns share one history, so they are not independent tosses. From here on, every gap is read this stricter way. The lesson makes many such comparisons, and among many, one could pass the line by luck: trust most the ones its steps agree on.",
        },
      ],
    });
    // Where the model heads with no history (north 80, west 54 of 149: 90 %) and how rarely the goal lies beyond the
    // wall (39 of 149 turns, 8 of DE's repeats): the fold gives the counts; the caveat, the same either way, the gap.
    const leaning = { ...c, noHistoryMoves: { north: 80, west: 54, south: 9, east: 6 }, goalBeyond: { turns: 39, deRepeats: 8 } };
    expect(wallTally(leaning).caveat).toBe('even with no history it walks back in 45 % of the time; only the extra 30 points come from its history.');
    expect(wallTally(leaning).more).toContain(
      " Why so often with none? Its goal lies beyond the wall it hit at only 39 of the 200 turns, and at 8 of DE's 90 repeats; with no history it heads north or west in 90 % of its moves.",
    );
    // Most of the walls hit stand that way too (north 93 and west 9 of 149): the lean alone walks it into them.
    expect(wallTally({ ...leaning, hitWays: { north: 93, south: 32, east: 15, west: 9 } }).caveat).toBe(
      'even with no history it walks back in 45 % of the time; only the extra 30 points come from its history.',
    );
    // No two ways make three in four of its moves: no lean named.
    expect(noHistoryLean({ ...c, noHistoryMoves: { north: 40, west: 40, south: 40, east: 29 } })).toBeNull();
    // The first twin clearly lower, the second (toward DE) by a gap luck could give: the first twin's verdict.
    expect(twinTally(c)).toEqual({
      takeaway: 'The twin repeats less at the wall, but not as rarely as with no history.',
      said: 'At a wall the twin walks into it again in 60 %, the demo model 75 % (luck gives that gap less than 1 time in 1,000: more than luck). The second twin, trained toward the move made with no history, does in 70 %.',
      // Of the moves made, as the bars give them.
      counts: {
        caption: 'The counts: where the move went, on each of the 200 turns right after a wall (40 mazes the demo model played)',
        rowsAre: 'policy',
        turns: 200,
        rows: [
          { label: 'CPL twin', repeats: 120, otherWall: 30, open: 50, noMove: 0, rate: 60, anyWall: 75 },
          { label: 'second twin (toward DE)', repeats: 140, otherWall: 30, open: 30, noMove: 0, rate: 70, anyWall: 85 },
          { label: 'demo model', repeats: 150, otherWall: 30, open: 20, noMove: 0, rate: 75, anyWall: 90 },
        ],
      },
      more: 'In these counts the twins and the demo model all read the whole history (Full).',
      luck: [
        { label: 'CPL twin against the demo model', p: signTest(11, 41), said: 'less than 1 time in 1,000', clear: true },
        { label: 'second twin (toward DE) against the demo model', p: signTest(18, 28), said: 'about 1 time in 5', clear: false },
      ],
    });
    // The second twin clearly lower: both said; with the first twin's drop luck could give, the second's target is the reason,
    // and the first twin's target (LT 70 % against DE 45 %) is said to keep the pull.
    const second = { ...c, split: { ...c.split, full: { ...c.split.full, 'twin-de': sp(5, 40) } } };
    expect(twinTally(second).takeaway).toBe('Both twins repeat less at the wall.');
    const onlySecond = { ...second, split: { ...second.split, full: { ...second.split.full, twin: sp(20, 28) } } };
    // A gap luck could give, said with why (not rare enough), not as a bare figure a reader takes for rare.
    expect(twinTally(onlySecond).said).toContain('(luck gives that gap about 1 time in 3: could be luck)');
    expect(twinTally(onlySecond).takeaway).toBe('The twin trained toward no history repeats clearly less, the other could be luck.');
    expect(twinTally(onlySecond).said).toMatch(
      / 70 %\. The first twin's training target, the answer seeing only the turn before, repeats 70 % \(LT\): it was never taught to ignore the turn before\.$/,
    );
    // Neither clearly lower: the training, wherever aimed, leaves the pull.
    const neither = { ...c, split: { ...c.split, full: { ...c.split.full, twin: sp(20, 28) } } };
    expect(twinTally(neither).takeaway).toBe('The twin does not repeat clearly less at the wall.');
    const t = (turn: number): WallTurn => ({ seed: 1, turn, hit: 'south', blocked: [], moves: c.open as never, look: null, headsOff: null });
    expect(policyTally('window:6', 'Window-6', c, [t(3), t(7), t(9)]).said).toBe(
      'At the wall it repeats the blocked move in 74 % under Window-6 against 75 % under Full: at 2 of those turns Window-6 still keeps every turn, so at the wall it changes little.',
    );
    // Hiding its answers, among the answers that make a move: AO 80 of 160 (50 %, at DE's 45 % + 5).
    expect(hiddenTally(c)).toEqual({
      takeaway: 'At the walls Full hit, hiding its own answers (AO) takes the extra repeats away.',
      said: 'Of the moves made, AO (50 %) repeats the blocked move about as often as DE. It finds an open way less than half as often as with no history.',
      // What "unsettles" means, unfolded beside the bold line: 31 % of its moves into other walls against DE's 15 %.
      caveat: 'hiding its answers confuses it, so 31 % of its moves hit another wall, against 15 % with no history.',
      // AO alone, the papers' own test: SUM and Filler are not in the step.
      more: 'Hidden answers sometimes leave no move (the model never trained on them): the bars leave those out and write their share beside each.',
      // The counts in the fold's table, every row over the 200 turns: AO 80 + 49 + 31 + 40 (no move).
      counts: {
        caption: 'The counts: where the move went, on each of the 200 turns right after a wall (40 mazes the demo model played)',
        rowsAre: 'policy',
        turns: 200,
        rows: [
          { label: 'AO', repeats: 80, otherWall: 50, open: 30, noMove: 40, rate: 50, anyWall: 81 },
          { label: 'Full', repeats: 150, otherWall: 30, open: 20, noMove: 0, rate: 75, anyWall: 90 },
          { label: 'DE', repeats: 90, otherWall: 30, open: 80, noMove: 0, rate: 45, anyWall: 60 },
        ],
      },
      // On the luck meter: AO against DE parts 37 against 45 (could be luck); against Full, 10 against 80.
      luck: [
        { label: 'AO against DE', p: signTest(37, 45), said: 'about 1 time in 2', clear: false },
        { label: 'AO against Full', p: signTest(10, 80), said: 'less than 1 time in 1,000', clear: true },
      ],
    });
    // Every answer a move: no word of missing moves. AO at Full's rate: the takeaway says the repeats do not come with its words.
    const fine = { ...c, repeats: { ...c.repeats, ao: 150, sum: 100 }, moved: { ...c.moved, ao: 200, sum: 200, filler: 200 } };
    expect(hiddenTally(fine).said).toBe('Of the moves made, AO (75 %) keeps them all, as Full.');
    // SUM and Filler are not in the step: AO alone, then its table.
    expect(hiddenTally(fine).more).toBeUndefined();
    expect(hiddenTally(fine).counts!.rows.map((r) => r.label)).toEqual(['AO', 'Full', 'DE']);
    expect(hiddenTally(fine).takeaway).toBe('Hiding its own answers (AO) leaves the extra repeats as they were.');
    // The recap after: each policy's rate and reading side by side, from the same counts (LT 70 %: most of the 30 extra back).
    expect(recapRows(c).map((r) => [r.label, r.rate, r.tells])).toEqual([
      ['Full', 75, "30 more in every 100 moves than DE: the history's pull"],
      ['DE', 45, 'its pull with no history at all: the line to read the others against'],
      ['LT', 70, 'most of the extra comes back: the pull is in the turn before'],
      // AO's moves hit other walls far more than DE's (31 % against 15 %): said in its row.
      ['AO', 50, 'as with no history, but more moves hit other walls: confused too'],
      // 88 of 190 (46 %, at DE's 45 %), its other walls 12 % against DE's 15 %: settled, so the repeats went with that answer.
      // Its control keeps the repeats (72 %): read with it.
      ['AO-last', 46, 'as with no history, while its control keeps them: the pull goes with that answer'],
      // 140 of 195 (72 %): 27 of the 30 extra stay with one placeholder on the answer before.
      ['AO-second-last', 72, 'most of the extra repeats stay: one placeholder alone does not take them away'],
    ]);
    // How sure each gap to DE is, in plain words from the paired turns: Full 53 against 9 (rare by luck), AO 37 against 45 (often).
    expect(recapRows(c).map((r) => r.luck)).toEqual([
      // Full against DE, each of its 3 mazes counted once (gaps 3, 1, −1): could be luck.
      'from DE: could be luck',
      undefined,
      // LT against Full, 15 against 25: could be luck (about 1 time in 6).
      'from DE: more than luck; from Full: could be luck',
      'from DE: could be luck; from Full: more than luck',
      'from DE: could be luck; from Full: more than luck',
      'from DE: more than luck; from Full: could be luck',
    ]);
    // Under each rate, how often it finds an open way: Full 20 of 200 moves, DE 80 of 200.
    expect(
      recapReveal(c)
        .table!.rows.slice(0, 2)
        .map((r) => [r.figure, r.also]),
    ).toEqual([
      ['75 %', 'open way: 10 %'],
      ['45 %', 'open way: 40 %'],
    ]);
    expect(recapReveal(c).takeaway).toBe("The extra repeats come with the model's previous answer.");
    // Where hiding that answer also sends its moves into other walls (33 % against DE's 15 %): the claim stays plain, the caveat says it.
    expect(recapReveal({ ...c, open: { ...c.open, 'ao-last': 40 } })).toMatchObject({
      takeaway: "The extra repeats come with the model's previous answer.",
      caveat: 'hiding its previous answer confuses it (more moves into other walls), so part of its drop in repeats (AO-last) may be confusion.',
    });
    expect(recapReveal(c).said).toBe(
      'AO-last is the direct test: only the previous answer hidden; its control hides the answer two turns back and keeps the repeats: a placeholder alone does not take them away.',
    );
    expect(recapReveal(c).caveat).toBe("AO's placeholders confuse it (more moves into other walls), so part of its drop may be confusion.");
    // The close reads the shares over every stored turn where the record has them, this answer beside: 0.5 / 0.4 and 0.18 / 0.12.
    expect(
      summary({ ...c, reads: { prior: 0.5, priorEven: 0.4, diagonal: 0.18, diagonalEven: 0.12 } }, { prior: 1.3, diagonal: 1.5 }).points![1]!.items[0],
    ).toBe(
      'Over the 200 turns at a wall, its prior assistant answers get 1.3 times what their length alone would give them (this answer: 1.3). Its line-for-line copying (the diagonal, 1.5 times an even share; this answer: 1.5) is mostly the list of cells the task asks for.',
    );
    // The swap test first where the model follows it (41 of 147 moves against 17 of 149, 27 turns against 3).
    const swapped = { ...c, followed: { swap: 41, full: 17, de: 17, split: sp(27, 3) }, moved: { ...c.moved, 'swap-last': 147, full: 149 } };
    expect(recapReveal(swapped).said).toMatch(
      /^The swap test: with its previous answer's move changed to an open way, it takes that way in 28 % of its moves; unchanged, 11 % go that way\. It leans toward what it is shown to have done\. AO-last is the direct test/,
    );
    expect(latestTally(swapped).more).toMatch(
      /^The swap test, this tool's: with its previous answer's move changed to an open way, it takes that way in 28 % of its moves; unchanged, 11 % go that way \(41 of 147 moves, against 17 of 149\)\. Its thought and action are changed, its list of cells kept; luck would give that gap less than 1 time in 1,000, so it is more than luck\. It leans toward what it is shown to have done, though most of its moves still do not follow it\. /,
    );
    // As many with the answer as written: not said in the recap.
    expect(recapReveal({ ...swapped, followed: { ...swapped.followed, swap: 17, split: sp(3, 3) } }).said).toMatch(/^AO-last is the direct test/);
    // Where the control drops too, the recap says the repeats only seem to go with the previous answer.
    expect(recapReveal({ ...c, repeats: { ...c.repeats, 'ao-second-last': 90 } }).takeaway).toMatch(/^The extra repeats seem to come with/);
    // The hide step's AO-last: 88 of 190 moves (46 %) against DE's 45 % and Full's 75 %; its other walls 12 % against DE's 15 %.
    // Its control keeps 140 of 195 (72 %): the placeholder alone does not take the repeats away.
    expect(latestTally(c).takeaway).toBe('At the walls Full hit, hiding its previous answer, not an older one, takes the extra repeats away.');
    // Where many of its moves hit another wall (33 % against DE's 15 %), the bold line stays plain: the caveat says where they went.
    expect(latestTally({ ...c, open: { ...c.open, 'ao-last': 40 } }).takeaway).toBe(
      'At the walls Full hit, hiding its previous answer, not an older one, takes the extra repeats away.',
    );
    // The same wall and any wall, side by side: AO-last 88 and 110 of 190 moves; the control 140 and 175 of 195; DE 90 and 120 of 200 (45 %, 60 %); Full 150 and 180 of 200.
    expect(latestTally(c).said).toBe(
      'With its previous answer hidden (AO-last), 46 % of its moves go back into the wall; with the one two turns back hidden, 72 %.',
    );
    // Why the drop is not the placeholder's confusion alone, first in the fold.
    expect(latestTally(c).more).toMatch(
      /^So the drop is not the placeholder's confusion alone: the same placeholder one answer earlier leaves the repeats, and without the previous answer it finds more open ways than with it\. /,
    );
    expect(latestTally({ ...c, repeats: { ...c.repeats, 'ao-second-last': 90 } }).takeaway).toBe(
      'Hiding its previous answer takes the extra repeats away, and so does hiding an older one.',
    );
    expect(latestTally(c).more).toMatch(
      /\. AO-last and AO-second-last are this tool's tests, not a paper's policies: each puts AO's placeholder in place of one answer, without AO's line in the system prompt\. Was it the missing list/,
    );
    // Cut-last in the fold: 100 of 198 moves (51 %) into the same wall, 38 (19 %) into another, at DE's 15 % + 4: the missing list was the confusion.
    expect(latestTally(c).more).toContain(
      "Cut-last, this tool's second test, keeps the previous answer's first line, the list, and cuts its thought and move: 51 % of its moves go into the same wall, 19 % into another wall, as with no history: the missing list was the confusion.",
    );
    // The harshest reading, no move counted as a repeat: AO-last (88 + 10) of 200, Cut-last (100 + 2) of 200, Full 150 of 200.
    expect(latestTally(c).more).toMatch(/Counting the answers that make no move as repeats, AO-last would be 49 % and Cut-last 51 %, against 75 % for Full\.$/);
    // Its table: 88 + 22 + 80 + 10 (no move) of 200; the list kept, 100 + 38 + 60 + 2.
    expect(latestTally(c).counts!.rows.map((r) => r.label)).toEqual(['AO-last', 'AO-second-last', 'Full', 'DE', 'Cut-last']);
    expect(latestTally(c).counts!.rows.slice(0, 2)).toEqual([
      { label: 'AO-last', repeats: 88, otherWall: 22, open: 80, noMove: 10, rate: 46, anyWall: 58 },
      { label: 'AO-second-last', repeats: 140, otherWall: 35, open: 20, noMove: 5, rate: 72, anyWall: 90 },
    ]);
    expect(latestTally(c).counts!.rows.at(-1)).toEqual({ label: 'Cut-last', repeats: 100, otherWall: 38, open: 60, noMove: 2, rate: 51, anyWall: 70 });
    expect(latestTally(c).luck!.map((r) => r.label)).toEqual(['AO-last against Full', 'AO-second-last against Full', 'Cut-last against Full']);
    // More moves into other walls (33 %) where the control's stay at 18 %: said beside, then why it is not the placeholder's confusion alone.
    // On the card, as AO's confusion is, with its figures; why it is not the placeholder's confusion alone, in the words after.
    expect(latestTally({ ...c, open: { ...c.open, 'ao-last': 40 } })).toMatchObject({
      caveat: 'hiding it confuses the model, so many repeats just move to another wall (33 % of moves, against 15 % with no history).',
      more: expect.stringMatching(/^So the drop is not the placeholder's confusion alone/),
    });
    // With the list kept, as many moves into other walls (69 of 198, 35 %): the list was not what it missed, said in the fold.
    expect(latestTally({ ...c, open: { ...c.open, 'ao-last': 40, 'cut-last': 29 } }).more).toContain(
      '51 % of its moves go into the same wall, 35 % into another wall, so the missing list is not what confuses it.',
    );
    expect(latestTally({ ...c, open: { ...c.open, 'ao-last': 40, 'ao-second-last': 0 } }).caveat).toBe(
      'any one placeholder confuses it (33 % of moves into another wall, against 15 % with no history), yet the control keeps the repeats.',
    );
    expect(latestTally(c).caveat).toBeUndefined();
    expect(latestTally({ ...c, repeats: { ...c.repeats, 'ao-last': 145 } }).takeaway).toBe('Hiding its previous answer leaves the extra repeats as they were.');
    // Both placeholders unsettling (the previous answer's other walls at 33 %, its control's at 28 %): said once, of both.
    const shaken = { ...c, open: { ...c.open, 'ao-last': 40, 'ao-second-last': 0 } };
    expect(recapRows(shaken).find((r) => r.label === 'AO-last')!.tells).toBe(
      'as with no history, with more moves into other walls, while its control keeps them: the pull goes with that answer',
    );
    // Without a control that keeps the repeats, the row says the model is confused too.
    expect(recapRows({ ...shaken, repeats: { ...shaken.repeats, 'ao-second-last': 90 } }).find((r) => r.label === 'AO-last')!.tells).toBe(
      'as with no history, but more moves hit other walls: confused too',
    );
    expect(recapReveal(shaken).caveat).toBe('both placeholders confuse it (more moves into other walls), so part of each drop may be confusion.');
    // Hiding only the previous answer keeps the repeats while hiding them all takes them away: the older answers.
    const older = { ...c, repeats: { ...c.repeats, 'ao-last': 145 } };
    expect(recapReveal(older).takeaway).toBe("The extra repeats come with the model's own answers, not only the previous one.");
    // AO at Full's rate, LT bringing little back: the recap says the pull is not only in its words, and no row says otherwise.
    const notWords = { ...fine, repeats: { ...fine.repeats, lt: 100 } };
    expect(recapReveal(notWords).takeaway).toBe("The extra repeats do not come only with the model's own words.");
    expect(recapRows(notWords).find((r) => r.label === 'AO')!.tells).toBe('the extra repeats all stay');
    expect(recapRows(notWords).find((r) => r.label === 'LT')!.tells).toBe('little of the extra comes back');
    expect(recapReveal(notWords).said).not.toMatch(/unsettle/);
    // Every takeaway the stored counts give fits the card's bold line (the browser walk checks them as rendered too).
    for (const r of [wallTally(), hiddenTally(), latestTally(), recapWith(), headsTally(), twinTally(), policyTally('lt', 'LT')])
      expect(r.takeaway?.split(/\s+/).length ?? 0, r.takeaway).toBeLessThanOrEqual(WORDS.takeaway);
    expect(policyTally('ao', 'AO', c).said).toMatch(/under AO against 75 % under Full\.$/);
    // LT (lt 140 of 200, de 90, full 150): the turn before alone brings back most of the extra repeats.
    const cutBars = scoreboard({ generate: true, contexts: true, hide: false, cpl: false }, c, ['full', 'window:6', 'clip:6:1', 'summary:6:1', 'de'])!;
    expect(cutBars.rows.map((r) => r.writer)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'de']);
    expect(policyTally('lt', 'LT', c)).toEqual({
      takeaway: 'The turn before alone brings back the extra repeats.',
      said: 'At the wall it repeats the blocked move in 70 % under LT against 75 % under Full, and 45 % with no earlier turn (DE).',
      // The chart's other rows (Window-6, Clip and Summary at 74 %, Full 75 %): near Full, with the share of the stored
      // walls where each still keeps every turn (the least of the three).
      // In the fold, under their bars (Full, the three, DE).
      board: { ...cutBars, caption: 'The policies that cut the history in steps, at the same 200 turns right after a wall' },
      // What the turn before holds, unfolded; why the cutting policies sit near Full, in the fold.
      caveat: "the turn before holds both the user's message and the model's answer; the next two steps tell them apart.",
      // LT against DE, 60 against 10: more than luck; against Full, 15 against 25: could be luck (about 1 time in 6).
      more: expect.stringMatching(
        /^LT's gap to DE is more than luck; its gap to Full could be luck\. Window-6, Clip-6→1 and Summary-6→1 sit near Full, since they keep the turn before too \(early in a maze, every turn\)\. In the bars above: in early turns Window-6, Clip-6→1 and Summary-6→1 still show everything, so at (half|a third|a quarter|some) or more of the walls they read what Full reads\.$/,
      ),
      // The table: LT, the two ends, then the three that cut in steps (Window-6's counts in this fixture).
      counts: expect.objectContaining({
        turns: 200,
        rows: [
          { label: 'LT', repeats: 140, otherWall: 35, open: 25, noMove: 0, rate: 70, anyWall: 88 },
          { label: 'Full', repeats: 150, otherWall: 30, open: 20, noMove: 0, rate: 75, anyWall: 90 },
          { label: 'DE', repeats: 90, otherWall: 30, open: 80, noMove: 0, rate: 45, anyWall: 60 },
          ...['Window-6', 'Clip-6→1', 'Summary-6→1'].map((label) => ({ label, repeats: 148, otherWall: 31, open: 21, noMove: 0, rate: 74, anyWall: 90 })),
        ],
      }),
      // LT against DE (60 against 10: more than luck), then against Full (15 against 25: could be luck).
      luck: [
        { label: 'LT against DE', p: signTest(60, 10), said: 'less than 1 time in 1,000', clear: true },
        { label: 'LT against Full', p: signTest(15, 25), said: 'about 1 time in 6', clear: false },
      ],
    });
    // Walls at turns 3, 7 and 9: Window-6 keeps every turn at 3 and 7, Clip (6 earlier turns cut to 1) at 3 only: 33 %.
    // Summary at 50 %, its gap to Full's 75 % said against luck.
    const t3 = (turn: number) => ({ seed: 1, turn, hit: 'south', blocked: [], moves: c.open as never, look: null, headsOff: null }) as WallTurn;
    const lowSummary = { ...c, repeats: { ...c.repeats, 'summary:6:1': 100 }, split: { ...c.split, full: { ...c.split.full, 'summary:6:1': sp(0, 50) } } };
    expect(policyTally('lt', 'LT', lowSummary, [t3(3), t3(7), t3(9)]).more).toContain(
      ' In the bars above: in early turns Window-6 and Clip-6→1 still show everything, so at a third or more of the walls they read what Full reads.',
    );
    expect(
      policyTally('lt', 'LT', { ...lowSummary, split: { ...lowSummary.split, full: { ...lowSummary.split.full, 'summary:6:1': sp(5, 7) } } }, [t3(3)]).more,
    ).toMatch(/ Summary-6→1, swapping cut answers for summaries, is lower than Full \(50 %; luck: 1 time in 2 or more, so it could be luck\)\.$/);
    expect(policyTally('lt', 'LT', lowSummary, [t3(3)]).more).toMatch(
      / Summary-6→1, swapping cut answers for summaries, is lower than Full \(50 %; luck: less than 1 time in 1,000, so more than luck\)\.$/,
    );
    expect(policyTally('lt', 'LT', { ...c, repeats: { ...c.repeats, lt: 110 } }).said).toMatch(/, and 45 % under DE \(no earlier turn\)\.$/);
    expect(policyTally('clip:12:1', 'Clip-12→1', c).said).toBe('');
    // The close: what the history does to the move, what attention showed, two lists from the same counts.
    const [writes, attention] = summary(c, { prior: 1.31, diagonal: 1.52 }, NO_LOOP).points!;
    expect(writes!.items).toEqual([
      'With its whole history it repeats the blocked move in 75 % of its moves; with none, 45 %.',
      // 88 of 190 moves: 46 %, at DE's 45 %.
      // Its control keeps the repeats (72 %): the pull sits in the previous answer, said without "seems".
      'With only its previous answer hidden (AO-last), 46 %; with only the answer two turns back hidden, 72 %, so the pull sits in the previous answer.',
    ]);
    // What LT showed, in the fold with the papers' findings: the card keeps its lines on the move few.
    expect(summary(c, {}, NO_LOOP).more).toMatch(/^With only the turn before \(LT\), 70 %, so the pull is mostly in the turn before\. What the papers report/);
    expect(attention!.items).toEqual([
      'Its prior assistant answers get 1.3 times what their length alone would give them, and its line-for-line copying (the diagonal, 1.5 times an even share) is mostly the list of cells the task asks for.',
      'Written again with the most-copying heads off, fewer of the 116 repeats stayed in the wall than with the 3 lowest off (61 % of the moves made against 88 %; with every head on, all of them), though it found an open way no more often. Attention picked the heads; switching them off tested them.',
    ]);
    // What it means for the chatbots a newcomer uses: the way out said with this model's own counts, and only where
    // no history is well below the whole history (10 points or more); else what to expect, in words.
    expect(summary(c, {}, NO_LOOP).points!.at(-1)!.items).toEqual([
      'When a chatbot keeps repeating a wrong answer, a fresh chat may break that loop but not solve the task. Here, at the walls its history had hit, no history cut the repeats from 75 % to 45 %.',
    ]);
    expect(summary({ ...c, repeats: { ...c.repeats, de: c.repeats.full } }, {}, NO_LOOP).points!.at(-1)!.items).toEqual([
      'In a long chat a model may keep leaning on what it wrote before, mistakes included.',
    ]);
    // The twin's drop within chance, said beside the papers' training result with its figures; no figures against chance: none quoted.
    const otherSummary = summary({ ...c, repeats: { ...c.repeats, ao: 100 }, split: { ...c.split, full: { ...c.split.full, twin: sp(5, 9) } } }, {}, NO_LOOP);
    const other = otherSummary.points!;
    expect(other[1]!.items).toHaveLength(2);
    expect(other[1]!.items[0]).toBe('Its line-for-line copying (the diagonal) is mostly the list of cells the task asks for.');
    // The papers' training result beside this page's twin, in the fold: its drop within luck, said so; a clear drop, not.
    expect(otherSummary.more).toMatch(
      /raised the agents' success by about 4 % \(as its abstract gives them\)\. This page's two tiny twins, trained so, dropped by no more than luck could give \(60 % and 70 %, against 75 %\)\. Every rate/,
    );
    expect(summary(c, {}, NO_LOOP).more).toMatch(/raised the agents' success by about 4 % \(as its abstract gives them\)\. Every rate/);
    // The control stops as many: said so; and a gap within chance, said so.
    expect(
      summary({
        ...c,
        headsOff: { ...c.headsOff, repeats: { top: 87, bottom: 87, random: 87 }, moved: { top: 99, bottom: 99, random: 99 } },
      }).points![1]!.items.at(-1),
    ).toBe('Switching off the most-copying heads left about as many repeats back in the wall as switching off the 3 lowest.');
    expect(summary({ ...c, headsOff: { ...c.headsOff, changed: sp(6, 4) } }).points![1]!.items.at(-1)).toMatch(
      /, a gap that could be luck\. Attention picked the heads; switching them off tested them\.$/,
    );
    // The same drop, but the two disagree on few turns (5 against 9): not clearly beyond chance (2 × 0.212 = 0.42: about 1 time in 2).
    const close = { ...c, split: { ...c.split, full: { ...c.split.full, twin: sp(5, 9) } } };
    // With the second twin's gap luck could give too: neither clearly lower.
    expect(twinTally(close).takeaway).toMatch(/^The twin does not repeat clearly less/);
    // Its luck on the meter, in the lesson's words.
    expect(twinTally(close).luck![0]).toMatchObject({ said: 'about 1 time in 2', clear: false });
    // The heads, paired where both sets make a move: 31 against 7 is clear (a sign test: about 1 time in 8,600).
    // Most of its changed moves hit another wall (32 of 43), and it finds an open way no more often (11 of 111, 10 %,
    // against 10 of 104 at random): which wall, not whether.
    expect(headsTally(c).takeaway).toBe('Switching off the copying heads changes which wall it walks into, not whether.');
    // About 1 time in 8,600 against three at random: clear, so the caveat is where the changed moves went.
    expect(headsTally(c).caveat).toBe('with them off it finds an open way as rarely as with others off (10 % against 10 % at random).');
    // Only just beyond luck against three at random (22 against 9, about 1 time in 40 or more): said unfolded instead.
    const justClear = { ...c, headsOff: { ...c.headsOff, changedRandom: sp(20, 8) } };
    expect(headsTally(justClear).caveat).toBe('its gap to three heads at random is only just more than luck.');
    // More open ways than either control (21 of 111, 19 %), still mostly other walls (22): the changed moves said as walls.
    const freer = { ...c, headsOff: { ...c.headsOff, open: { ...c.headsOff.open, top: 21 } } };
    expect(headsTally(freer).takeaway).toBe('Switching off the copying heads changes the repeated move, mostly into another wall.');
    // Were most of them open ways, the heads that matter.
    const freed = { ...c, headsOff: { ...c.headsOff, open: { ...c.headsOff.open, top: 40 } } };
    expect(headsTally(freed).takeaway).toBe('Switching off the copying heads changes the repeated move more than other heads do.');
    // Three at random changing nearly as many (29 % of 105 against 39 %; paired 22 against 15, about 1 time in 3): said so, on the card and in the close.
    const close3 = {
      ...c,
      headsOff: { ...c.headsOff, repeats: { ...c.headsOff.repeats, random: 75 }, moved: { ...c.headsOff.moved, random: 105 }, changedRandom: sp(22, 15) },
    };
    expect(headsTally(close3).takeaway).toBe('The copying heads stop more repeats than the lowest, not clearly more than three at random.');
    expect(headsTally(close3).said).toMatch(
      /^Written again with the most-copying heads off, 61 % of the moves made still hit the wall; 71 % with three at random off, 88 % with the lowest\. Only its gap to the lowest is more than luck\./,
    );
    expect(summary(close3).points![1]!.items.at(-1)).toBe(
      'Written again with the most-copying heads off, fewer of the 116 repeats stayed in the wall than with the 3 lowest off (61 % of the moves made against 88 %; with every head on, all of them), but 3 at random came close (71 %), though it found an open way no more often. Attention picked the heads; switching them off tested them.',
    );
    // The turns where the sets part, on the meter: 31 against 7, then 25 against 9 (turn by turn in this fixture).
    expect(headsTally(c).luck!.map((r) => [r.label, r.said])).toEqual([
      ['most-copying off against three at random', 'less than 1 time in 100'],
      ['most-copying off against the lowest off', 'less than 1 time in 1,000'],
    ]);
    // LT near DE: no such reason to give, even with the second twin clearly lower.
    const secondLower = { ...c, repeats: { ...c.repeats, lt: 95 }, split: { ...c.split, full: { ...c.split.full, 'twin-de': sp(5, 40) } } };
    expect(twinTally(secondLower).said).toMatch(/The second twin, trained toward the move made with no history, does in 70 %\.$/);
    // Neither clearly lower: the order of the two twins is said to be luck too.
    const noneClear = { ...c, split: { ...c.split, full: { ...c.split.full, twin: sp(20, 25), 'twin-de': sp(20, 22) } } };
    expect(twinTally(noneClear).said).toMatch(/does in 70 %: its gap could be luck too, and so could which twin is lower\.$/);
    // A twin no lower than the demo model is not clearly lower either.
    expect(twinTally({ ...c, repeats: { ...c.repeats, twin: 150 } }).takeaway).toMatch(/^The twin does not repeat clearly less/);
  });

  it("the swap test's history: the previous answer's thought and action told another move, its list of cells and every other message kept", () => {
    const history = [
      { role: 'system' as const, content: 'maze' },
      { role: 'user' as const, content: 'Round 1. Walls: south.' },
      { role: 'assistant' as const, content: 'Been at: 16 22.\nThought: south, now south.\nAction -> south' },
      { role: 'user' as const, content: 'Round 2. Walls: south. You hit a wall.' },
      { role: 'assistant' as const, content: 'Been at: 22.\nThought: south.\nAction -> south' },
    ];
    const swapped = swapLastMove(history, 'south', 'east');
    expect(swapped[2]!.content).toBe('Been at: 16 22.\nThought: east, now east.\nAction -> east');
    expect(swapped.filter((_, i) => i !== 2)).toEqual(history.filter((_, i) => i !== 2));
    // No previous answer where it should be: the history unchanged.
    expect(swapLastMove(history.slice(0, 2), 'south', 'east')).toEqual(history.slice(0, 2));
  });

  // The stored file is what the two demo models write now (else `npx tsx scripts/inertia-turns.ts`): the first
  // episodes played again, turn for turn.
  describe('the stored episodes, played again', () => {
    let model: OpenModel;
    let twin: OpenModel;
    let twinDe: OpenModel;
    let heads: OpenModel;
    beforeAll(async () => {
      [model, twin, twinDe, heads] = await Promise.all([
        openModel(dirSource(DEMO_MODEL_PATH)),
        openModel(dirSource(CPL_MODEL_PATH)),
        openModel(dirSource(CPL_DE_MODEL_PATH)),
        openModel(dirSource(DEMO_MODEL_PATH), { headFigures: true }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([model?.session.release(), twin?.session.release(), twinDe?.session.release(), heads?.session.release()]);
    });

    it('equal a fresh run of the first episodes with a turn after a wall', async () => {
      const seeds = [...new Set(stored.turns.map((t) => t.seed))].slice(0, 3);
      expect(seeds.length).toBe(3);
      for (const seed of seeds) {
        const fresh = (await wallEpisode({ model, twin, twinDe, heads }, seed)).map((x) => x.turn);
        const kept = stored.turns.filter((t) => t.seed === seed);
        // The moves exactly; each look and share to within rounding (another CPU may sum the attention in another order).
        const moves = (ts: WallTurn[]) => ts.map((t) => ({ ...t, look: t.look === null, reads: Object.keys(t.reads ?? {}) }));
        expect(moves(fresh), `seed ${seed}`).toEqual(moves(kept));
        fresh.forEach((t, i) => t.look !== null && expect(t.look, `seed ${seed} turn ${t.turn}`).toBeCloseTo(kept[i]!.look!, 1));
        fresh.forEach((t, i) => {
          for (const [k, v] of Object.entries(t.reads!)) expect(v, `seed ${seed} turn ${t.turn} ${k}`).toBeCloseTo(kept[i]!.reads![k as 'prior'], 3);
        });
      }
      expect(stored.episodes).toBe(40);
      expect(Math.max(...stored.turns.map((t) => t.seed))).toBeLessThan(stored.firstSeed + stored.episodes);
    }, 300_000);
  });
});

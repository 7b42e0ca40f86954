import { stepNo } from '../../src/views/lesson/order';
import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { insideReveal, insideRows, SO_WHAT } from '../../src/views/lesson/inside';
import { WALL_COUNTS, type WallCounts } from '../../src/views/lesson/wall-records';
import type { LessonWorld } from '../../src/views/lesson/world';
import { HEADS_OFF } from '../helpers/heads-off-counts';

/**
 * A hand-made answer of 2 tokens after 10 (4 of them prior assistant), one prior answer of 3 tokens, r = 1: chance
 * gives the prior answers (4/11 + 4/12) / 2 = 34.8 % and the band (2/11 + 3/12) / 2 = 21.6 %.
 */
const cats = ['sink', 'sink', 'sink', 'system', 'prior', 'prior', 'user', 'prior', 'prior', 'user', 'current', 'current'];
const result = (policy: string, diagonal: number, perHead: number[] = []): PolicyResult =>
  ({
    policy,
    slot: 0,
    layer: 1,
    radius: 1,
    diagonal,
    ratios: { sink: 0.05, system: 0.05, user: 0.1, prior: 0.7, current: 0.1 },
    query: { start: 10, end: 12 },
    tokens: cats.map((category) => ({ category })),
    diagonalPerAnswer: [{ message: 0, turn: 1, value: diagonal }],
    messages: [{ content: { start: 2, length: 3 } }],
    perHead: perHead.map((d) => ({ diagonal: d })),
  }) as unknown as PolicyResult;
const full = result('full', 0.6, [0.3, 1.2, 0.3]);
const filler = result('filler', 0.1);
/** The stored counts' shape, with hand-picked counts: 15 of 116 repeats look back; heads off change 43 of 111 and 12 of 99 moves. */
const c: WallCounts = {
  ...WALL_COUNTS,
  turns: 149,
  looks: { back: 15, of: 116 },
  headsOff: HEADS_OFF,
};
const world = (results: PolicyResult[]) => ({ results, fromModel: true, fromCache: false }) as unknown as LessonWorld;

describe('the recap of the look inside', () => {
  it('puts each step of the attention half in a row, its figure computed from the page and the counts (hand-computed)', () => {
    expect(insideRows(full, filler, c).map((r) => [r.label, r.figure, r.tells])).toEqual([
      // 0.7 / 0.348 = 2.01.
      [
        `${stepNo('shares')}. Five kinds of token`,
        '70 %, 2.0 times an even share (over 149 turns at a wall, 1.1)',
        'it leans on its own answers: far more than their length gives them',
      ],
      // 0.6 / 0.216 = 2.78.
      [
        `${stepNo('diagonal')}. The diagonal`,
        '2.8 times an even share (over 149 turns at a wall, 1.4)',
        'copies them in order beyond an even share, mostly the list of cells the task asks for',
      ],
      [`${stepNo('filler')}. Filler in place of its answers`, '10 % against 60 %', 'the copying follows their words'],
      // Head 1 of layer 1: 1.2 against the layer's 0.6.
      [
        `${stepNo('heads')}. Each head's diagonal`,
        "the last layer's 2nd head: 2.0 times the average",
        'one head has the most copying-shaped attention; the test below asks whether it matters',
      ],
      // (111 − 68) / 111 = 38.7 %, (99 − 87) / 99 = 12.1 %; 31 against 7 is clear.
      // (104 − 80) / 104 = 23 % at random; 25 against 9 is clear too.
      // Most of the changed moves go into other walls (32 against 11 open): they matter, how is left open.
      [
        `${stepNo('heads')}. Switching heads off`,
        '61 %, 77 %, 88 %',
        'switching them off changes the repeated move more than other heads do, but finds an open way no more often: which wall, not whether',
      ],
    ]);
    // Only the test's row says how sure its gaps are: 25 against 9 (two-sided sign test: p = 0.009), 31 against 7.
    expect(insideRows(full, filler, c).map((r) => r.luck)).toEqual([
      ...Array(4).fill(undefined),
      'luck, both tests counted: against random less than 1 time in 100; against the lowest less than 1 time in 1,000',
    ]);
  });

  it('answers the half’s question in one line, from the same figures, and waits for both policies', () => {
    const r = insideReveal(world([full, filler]), c);
    // One plain claim; the test's verdict on the copying heads under "Careful:" (32 of 43 changed moves into another wall).
    expect(r.takeaway).toBe('Attention gave clues, not the cause.');
    expect(r.caveat).toBe('attention maps look convincing, but only switching parts off tests them; here it changed which wall, not whether.');
    // With them off it finds an open way far more often than the controls (21 of 111, 19 %, against 10 %): mostly other walls still (22), but not "no more often".
    const freer = { ...c, headsOff: { ...c.headsOff, open: { ...c.headsOff.open, top: 21 } } };
    expect(insideReveal(world([full, filler]), freer).caveat).toBe(
      'attention maps look convincing, but only switching parts off tests them; here it changed the move, mostly into another wall.',
    );
    // Of the 43 moves changed, 11 open ways: 32 into other walls.
    expect(r.said).toBe(
      `${SO_WHAT} The clues were that it leans on its own answers, copies them in order beyond an even share, and one head stands out from its layer. Most moves it changes run into another wall: the heads change which wall, not whether, so they do not show the way out.`,
    );
    expect(r.table!.rows).toHaveLength(5);
    // The stored repeats read one by one, in the fold: 15 of 116 = 12.9 %, fewer than half, so a look is not needed.
    expect(r.more).toContain(
      'when it writes the repeated move, it gives the same move in its prior assistant answers 1.5 times an even share or more only 13 % of the time, so a repeat is rarely a plain look back at the old move (each token also carries a mix of the words before it).',
    );
    expect(insideReveal(world([full, filler]), { ...c, looks: { back: 80, of: 116 } }).more).toContain(
      'when it writes the repeated move, it gives the same move in its prior assistant answers 1.5 times an even share or more 69 % of the time.',
    );
    // Three at random changing nearly as many (29 %; 22 against 15 is within chance): the row, the line and the words say so.
    const close = {
      ...c,
      headsOff: {
        ...c.headsOff,
        repeats: { ...c.headsOff.repeats, random: 75 },
        moved: { ...c.headsOff.moved, random: 105 },
        changedRandom: { first: 22, second: 15 },
      },
    };
    expect(insideRows(full, filler, close).at(-1)!.tells).toBe('fewer than with the lowest off, not clearly fewer than with three at random: not singled out');
    expect(insideReveal(world([full, filler]), close).takeaway).toBe('Attention gave clues, not the cause.');
    expect(insideReveal(world([full, filler]), close).caveat).toMatch(/here the test did not single out the copying heads\.$/);
    expect(insideReveal(world([full, filler]), close).said).toContain(
      ' Three heads at random change nearly as many moves as the most-copying ones, so the pull is not held by the copying few.',
    );
    // Filler not yet scored: no table with a row missing.
    expect(insideReveal(world([full]), c).table).toBeUndefined();
    // The control changing as many: no claim for the heads, in the row or the line.
    const even = { ...c, headsOff: { ...c.headsOff, repeats: { top: 87, bottom: 87, random: 87 }, moved: { top: 99, bottom: 99, random: 99 } } };
    expect(insideRows(full, filler, even).at(-1)!.tells).toBe('they carry no more of it than any heads');
    expect(insideReveal(world([full, filler]), even).takeaway).toBe('Attention gave clues, not the cause.');
    // Figures at chance: no clue claimed.
    const flat = { ...full, ratios: { ...full.ratios, prior: 0.3 }, diagonal: 0.2, perHead: [{ diagonal: 0.2 }, { diagonal: 0.2 }] } as PolicyResult;
    expect(insideReveal(world([flat, filler]), c).said).not.toContain('The clues');
    expect(
      insideRows(flat, filler, c)
        .slice(0, 2)
        .map((r) => r.tells),
    ).toEqual(['about what their length gives them: no sign of leaning', 'no more in order than an even share']);
    // A little above chance (1.3 times, as on the demo model's answer): said as a little, and as a clue.
    const some = { ...full, ratios: { ...full.ratios, prior: 0.45 } } as PolicyResult;
    expect(insideRows(some, filler, c)[0]!.tells).toBe('a little more than their length gives them: mostly, they are just long');
    expect(insideReveal(world([some, filler]), c).said).toContain(
      `${SO_WHAT} The clues were that it reads its own answers a little more than their length gives, `,
    );
  });
});

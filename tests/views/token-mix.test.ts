import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { tokenMix, tokenMixSaid } from '../../src/views/lesson/token-mix';

// Tokens: 0 system, 1–4 a prior assistant answer (header, "Been", "22", "south"), 5 a user turn, 6–9 the answer
// (header, "Been", "22", "east"), whose rows are 6 to 9; its last word, "east", is row 3.
const texts = ['sys', 'assistant', 'Been', '22', 'south', 'user', 'assistant', 'Been', '22', 'east'];
const cats = ['system', 'prior', 'prior', 'prior', 'prior', 'user', 'current', 'current', 'current', 'current'];
const owner = [0, 1, 1, 1, 1, 2, 3, 3, 3, 3];
const S = texts.length;

function result(lastRow: Record<number, number>): PolicyResult {
  const data = new Float32Array(4 * S);
  for (const [k, v] of Object.entries(lastRow)) data[3 * S + Number(k)] = v;
  return {
    tokens: texts.map((text, i) => ({ text, category: cats[i], message: owner[i] })),
    query: { start: 6, end: 10 },
    attention: { layer: 0, mean: { data, heads: 1, rowStart: 6, rows: 4, seqLen: S }, perHead: null },
    messages: [
      { role: 'system', category: 'system', turn: null, span: { start: 0, length: 1 }, content: { start: 0, length: 1 } },
      { role: 'assistant', category: 'prior', turn: 1, span: { start: 1, length: 4 }, content: { start: 2, length: 3 } },
      { role: 'user', category: 'user', turn: 2, span: { start: 5, length: 1 }, content: { start: 5, length: 1 } },
      { role: 'assistant', category: 'current', turn: 2, span: { start: 6, length: 4 }, content: { start: 7, length: 3 } },
    ],
  } as unknown as PolicyResult;
}

describe("one token's share-out, before the five kinds' guess", () => {
  it("names the answer's last word and the three tokens it reads most, with what is left (hand-computed)", () => {
    const r = result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 9: 0.05 });
    // The top three: 0.5, 0.2, 0.15; the other 10 − 3 tokens it sees share 1 − 0.85.
    expect(tokenMix(r)).toEqual({
      q: 9,
      parts: [
        { k: 3, share: expect.closeTo(0.5, 6) },
        { k: 4, share: expect.closeTo(0.2, 6) },
        { k: 8, share: expect.closeTo(0.15, 6) },
      ],
      rest: expect.closeTo(0.15, 6),
      others: 7,
    });
    expect(tokenMixSaid(r)).toBe(
      `For example, the answer's last word, "east", gives 50 % to "22" (turn 1's answer), 20 % to "south" (turn 1's answer) and 15 % to "22" (its own answer); the other 7 tokens share the last 15 %.`,
    );
  });

  it('says nothing without attention rows', () => {
    expect(tokenMixSaid({ ...result({}), attention: undefined } as unknown as PolicyResult)).toBe('');
    expect(tokenMixSaid(null)).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { slab } from '../../src/metrics/slab';
import { named, workedLook } from '../../src/views/lesson/worked';

/** Seven tokens, one message; the answer is tokens 4–6, so the attention has those three rows over all seven. */
function result(rows: number[][]): PolicyResult {
  const texts = ['<s>', 'Action', ' ->', '\n', ' south', ' now', '.'];
  return {
    query: { start: 4, end: 7 },
    tokens: texts.map((text) => ({ text, message: 0, category: 'current' })),
    messages: [{ turn: 2, span: { start: 0, end: 7 } }],
    attention: { layer: 1, mean: slab(Float32Array.from(rows.flat()), 3, 7, 4) },
  } as unknown as PolicyResult;
}

describe('attention worked once', () => {
  it("splits the 100 % of the answer's most focused token (not its last, the move) into the 3 it looks at most and the rest (hand-computed)", () => {
    const r = result([
      [0.2, 0.2, 0.2, 0.2, 0.2, 0, 0],
      [0.05, 0.4, 0.1, 0.05, 0.15, 0.25, 0],
      [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01],
    ]);
    // The last row looks hardest (0.9) but is the move; of the others token 5 (" now") has the largest single look, 0.4: "Action" 0.4, itself 0.25, " south" 0.15, the other 3 tokens 0.05 + 0.1 + 0.05.
    const look = workedLook(r)!;
    expect(look.token).toBe('"now"');
    expect(look.parts.map((p) => p.label)).toEqual(['"Action" (its own answer)', 'itself', '"south" (its own answer)', 'the other 3 together']);
    [0.4, 0.25, 0.15, 0.2].forEach((v, i) => expect(look.parts[i]!.value).toBeCloseTo(v, 6));
  });

  it('names white space in words, and draws nothing without the rows', () => {
    expect([named(' '), named('\n'), named(' ->')]).toEqual(['a space', 'a line break', '"->"']);
    expect(workedLook({ ...result([[0], [0], [0]].map(() => Array(7).fill(1 / 7))), attention: undefined } as PolicyResult)).toBeNull();
  });
});

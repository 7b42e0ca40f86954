import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { slab } from '../../src/metrics/slab';
import { named, workedLook } from '../../src/views/lesson/worked';

/** Six tokens; the answer is tokens 4–5, so the attention has those two rows over all six. */
function result(rows: number[][]): PolicyResult {
  const texts = ['<s>', 'Action', ' ->', '\n', ' south', ' now'];
  return {
    query: { start: 4, end: 6 },
    tokens: texts.map((text) => ({ text })),
    attention: { layer: 1, mean: slab(Float32Array.from(rows.flat()), 2, 6, 4) },
  } as unknown as PolicyResult;
}

describe('attention worked once', () => {
  it("splits the answer's last token's 100 % into every earlier token together, the few just before it, and itself (hand-computed)", () => {
    const r = result([
      [0.1, 0.2, 0.3, 0.1, 0.3, 0],
      [0.05, 0.15, 0.1, 0.2, 0.3, 0.2],
    ]);
    // The last token (5, " now") looks back: tokens 0–1 together 0.05 + 0.15, then 2, 3 and 4 one by one, itself 0.2.
    const look = workedLook(r)!;
    expect(look.token).toBe('"now"');
    expect(look.parts.map((p) => p.label)).toEqual(['the 2 tokens before', '"->"', 'a line break', '"south"', 'itself']);
    const values = look.parts.map((p) => p.value);
    [0.2, 0.1, 0.2, 0.3, 0.2].forEach((v, i) => expect(values[i]).toBeCloseTo(v, 6));
    expect(values.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
  });

  it('names white space in words, and draws nothing without the rows or with too few tokens before', () => {
    expect([named(' '), named('\n'), named(' ->')]).toEqual(['a space', 'a line break', '"->"']);
    expect(workedLook({ ...result([[0], [0]].map(() => Array(6).fill(1 / 6))), attention: undefined } as PolicyResult)).toBeNull();
    expect(workedLook(result([Array(6).fill(1 / 6), Array(6).fill(1 / 6)]), 5)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import type { Category } from '../../src/metrics/categories';
import { copyShift, longestCommonRun, longestCommonRunAt, ngramOverlap } from '../../src/metrics/copy';
import { bandColumns, bandOffsets, categoryRatios, chanceRatios, diagonalRatio, diagonalRows, massPerMessage, rowSums } from '../../src/metrics/inertia';
import { headOf, headsOf, layerRows, rowsOf, slab } from '../../src/metrics/slab';

const close = (got: number, want: number) => expect(got).toBeCloseTo(want, 12);

/** 12 tokens: 3 sink, system, 2 user, one earlier answer (content 6..8), user, current answer (10, 11). */
const CATS: Category[] = ['sink', 'sink', 'sink', 'system', 'user', 'user', 'prior', 'prior', 'prior', 'user', 'current', 'current'];
const ROWS = [
  [0.3, 0.05, 0.05, 0.1, 0.05, 0.05, 0.2, 0.1, 0.05, 0.02, 0.03, 0],
  [0.2, 0.1, 0.0, 0.1, 0.0, 0.1, 0.05, 0.15, 0.1, 0.0, 0.1, 0.1],
];
const A = slab(ROWS.flat(), 2, 12, 10);

describe('category ratios (hand-computed)', () => {
  it('averages each row’s mass per category', () => {
    const r = categoryRatios(A, CATS);
    close(r.sink, 0.35);
    close(r.system, 0.1);
    close(r.user, 0.11);
    close(r.prior, 0.325);
    close(r.current, 0.115);
    close(r.sink + r.system + r.user + r.prior + r.current, 1);
  });
  it('gives chance: each answer row spreads its weight evenly over itself and every token before it', () => {
    // Row 10 sees 11 tokens (3 sink, 1 system, 3 user, 3 prior, itself); row 11 sees 12 (one more current).
    const c = chanceRatios(CATS, 10, 12);
    close(c.sink, (3 / 11 + 3 / 12) / 2);
    close(c.system, (1 / 11 + 1 / 12) / 2);
    close(c.user, (3 / 11 + 3 / 12) / 2);
    close(c.prior, (3 / 11 + 3 / 12) / 2);
    close(c.current, (1 / 11 + 2 / 12) / 2);
    close(c.sink + c.system + c.user + c.prior + c.current, 1);
    expect(chanceRatios(CATS, 10, 10).prior).toBe(0);
  });
  it('is zero with no query rows and refuses mismatched categories', () => {
    expect(categoryRatios(slab([], 0, 12), CATS).prior).toBe(0);
    expect(() => categoryRatios(A, CATS.slice(1))).toThrow('11 categories for 12 keys');
  });
});

describe('diagonal inertia ratio (hand-computed)', () => {
  const span = [{ start: 6, length: 3 }];
  it('r = 0 takes the same offset, r = 1 a band of three', () => {
    close(diagonalRatio(A, span, 0).total, (0.2 + 0.15) / 2);
    close(diagonalRatio(A, span, 1).total, (0.3 + 0.3) / 2);
  });
  it('row by row: each row its band (r = 1: row 0 keys 6..7, row 1 keys 6..8), and their mean is the ratio', () => {
    const rows = diagonalRows(A, span, 1);
    close(rows[0]!, 0.2 + 0.1);
    close(rows[1]!, 0.05 + 0.15 + 0.1);
    close((rows[0]! + rows[1]!) / 2, diagonalRatio(A, span, 1).total);
    expect(() => diagonalRows(A, span, -1)).toThrow('radius must be ≥ 0');
  });
  it('offset by offset inside the band (r = 1): d = −1 row 1 key 6, d = 0 keys 6 and 7, d = 1 keys 7 and 8; they add up to the ratio', () => {
    const d = bandOffsets(A, span, 1);
    close(d[0]!, 0.05 / 2);
    close(d[1]!, (0.2 + 0.15) / 2);
    close(d[2]!, (0.1 + 0.1) / 2);
    close(d[0]! + d[1]! + d[2]!, diagonalRatio(A, span, 1).total);
    expect(() => bandOffsets(A, span, -1)).toThrow('radius must be ≥ 0');
  });
  it('key by key inside the band (r = 1): row 0 gives keys 6, 7 (0.2, 0.1), row 1 keys 6, 7, 8 (0.05, 0.15, 0.1); they add up to the ratio, with the rows that give each a part', () => {
    const c = bandColumns(A, span, 1);
    expect([...c.keys()].sort()).toEqual([6, 7, 8]);
    close(c.get(6)!.mass, (0.2 + 0.05) / 2);
    close(c.get(7)!.mass, (0.1 + 0.15) / 2);
    close(c.get(8)!.mass, 0.1 / 2);
    close(
      [...c.values()].reduce((x, v) => x + v.mass, 0),
      diagonalRatio(A, span, 1).total,
    );
    // Rows giving a key at least 0.05 of theirs: key 6 both (0.2, 0.05), key 7 both, key 8 one; at 0.1, key 6 one.
    expect([6, 7, 8].map((k) => c.get(k)!.rows)).toEqual([2, 2, 1]);
    expect(bandColumns(A, span, 1, 0.1).get(6)!.rows).toBe(1);
    expect(() => bandColumns(A, span, -1)).toThrow('radius must be ≥ 0');
  });
  it('a shift moves the band: offset i reads i + shift of the earlier answer (the copy-aligned diagonal)', () => {
    // +1: row 0 reads key 7 (0.1), row 1 key 8 (0.1). −1: row 0 falls before the answer, row 1 reads key 6 (0.05).
    close(diagonalRatio(A, span, 0, [1]).total, (0.1 + 0.1) / 2);
    close(diagonalRatio(A, span, 0, [-1]).total, (0 + 0.05) / 2);
    // r = 1 around i + 1: row 0 keys 6..8 (0.35), row 1 keys 7..8 (0.25).
    close(diagonalRatio(A, span, 1, [1]).total, (0.35 + 0.25) / 2);
    close(diagonalRatio(A, span, 1, [0]).total, diagonalRatio(A, span, 1).total);
  });
  it('a radius that covers the answer (or r = ∞) equals the prior-answer ratio', () => {
    const prior = categoryRatios(A, CATS).prior;
    close(diagonalRatio(A, span, 5).total, prior);
    close(diagonalRatio(A, span, Infinity).total, prior);
    for (const r of [0, 1, 2, 3]) expect(diagonalRatio(A, span, r).total).toBeLessThanOrEqual(prior + 1e-15);
  });

  // Two earlier answers, the second shorter than the radius: [sink×3, user, A, A, user, B, current, current].
  const B = slab(
    [
      [0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.2, 0.0, 0],
      [0.1, 0, 0, 0.1, 0.1, 0.3, 0.1, 0.1, 0.1, 0.1],
    ].flat(),
    2,
    10,
    8,
  );
  const spans = [
    { start: 4, length: 2 },
    { start: 7, length: 1 },
  ];
  it('breaks down per earlier answer, and an answer shorter than the offset contributes nothing at r = 0', () => {
    const r0 = diagonalRatio(B, spans, 0);
    close(r0.perAnswer[0]!, (0.2 + 0.3) / 2);
    close(r0.perAnswer[1]!, (0.2 + 0) / 2);
    close(r0.total, 0.35);
    const r1 = diagonalRatio(B, spans, 1);
    close(r1.perAnswer[0]!, (0.3 + 0.4) / 2);
    close(r1.perAnswer[1]!, (0.2 + 0.1) / 2);
    close(r1.total, 0.5);
  });
  it('is zero with no earlier answer and refuses a negative radius', () => {
    expect(diagonalRatio(B, [], 5)).toEqual({ total: 0, perAnswer: [] });
    expect(() => diagonalRatio(B, spans, -1)).toThrow('radius must be ≥ 0');
  });
});

describe('per message and per head', () => {
  it('row sums', () => {
    expect(rowSums(slab([0.25, 0.75, 0.5, 0.25], 2, 2))).toEqual([1, 0.75]);
    expect(rowSums(slab([0.25, 0.75, 0.5, 0.25], 1, 2, 0, 2))).toEqual([1, 0.75]);
    rowSums(A).forEach((s) => close(s, 1));
  });
  it('sums the mean attention of each message', () => {
    const messageOf = [0, 0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 4];
    const m = massPerMessage(A, messageOf);
    close(m.get(0)!, (0.5 + 0.4) / 2);
    close(m.get(2)!, (0.35 + 0.3) / 2);
    close(
      [...m.values()].reduce((a, b) => a + b, 0),
      1,
    );
  });
  it('the ratios of the head mean are the mean of the heads’ ratios', () => {
    const h0 = ROWS.flat();
    const h1 = [...ROWS[1]!, ...ROWS[0]!];
    const heads = headsOf(slab(Float64Array.from([...h0, ...h1]), 2, 12, 10, 2));
    const mean = slab(
      h0.map((v, i) => (v + h1[i]!) / 2),
      2,
      12,
      10,
    );
    const perHeadPrior = heads.map((h) => categoryRatios(h, CATS).prior);
    close(categoryRatios(mean, CATS).prior, (perHeadPrior[0]! + perHeadPrior[1]!) / 2);
  });
});

describe('attention slabs', () => {
  // 2 heads × 3 rows (positions 4, 5, 6) × 2 keys; value = 100·head + 10·row + key.
  const data = Float32Array.from({ length: 12 }, (_, k) => 100 * Math.floor(k / 6) + 10 * Math.floor((k % 6) / 2) + (k % 2));
  const heads = slab(data, 3, 2, 4, 2);
  it('checks its length against its dimensions', () => {
    expect(() => slab(new Float32Array(11), 3, 2, 4, 2)).toThrow('11 values for 2 × 3 × 2');
  });
  it('a head is a view of its rows', () => {
    expect(Array.from(headOf(heads, 1).data)).toEqual([100, 101, 110, 111, 120, 121]);
    expect(headOf(heads, 1).data.buffer).toBe(data.buffer);
  });
  it('rows by absolute position, every head kept; null where the slab lacks some', () => {
    const two = rowsOf(heads, 5, 7)!;
    expect(two).toMatchObject({ heads: 2, rowStart: 5, rows: 2, seqLen: 2 });
    expect(Array.from(two.data)).toEqual([10, 11, 20, 21, 110, 111, 120, 121]);
    expect(rowsOf(heads, 3, 5)).toBeNull();
    expect(rowsOf(heads, 6, 8)).toBeNull();
    expect(rowsOf(heads, 4, 7)).toBe(heads);
    const layer = { layer: 0, mean: headOf(heads, 0), perHead: heads };
    expect(Array.from(layerRows(layer, 6, 7)!.perHead!.data)).toEqual([20, 21, 120, 121]);
    expect(Array.from(layerRows(layer, 6, 7)!.mean.data)).toEqual([20, 21]);
  });
  it('a metric refuses several heads at once (it would add them up)', () => {
    expect(() => categoryRatios(heads, ['sink', 'user'])).toThrow('one head at a time, got 2');
  });
});

describe('copy measures', () => {
  it('longest common run', () => {
    expect(longestCommonRun([1, 2, 3, 4, 5], [9, 2, 3, 4, 8])).toBe(3);
    expect(longestCommonRun([1, 2], [3, 4])).toBe(0);
    expect(longestCommonRun([], [1])).toBe(0);
  });
  it('n-gram overlap', () => {
    expect(ngramOverlap([1, 2, 3, 4], [2, 3, 4, 9], 2)).toBeCloseTo(2 / 3);
    expect(ngramOverlap([1, 2, 3, 4], [2, 3, 4, 9], 3)).toBeCloseTo(1 / 2);
    expect(ngramOverlap([1, 2], [1, 2], 3)).toBe(0);
    expect(ngramOverlap([5, 5, 5], [5, 5], 2)).toBe(1);
  });
});

describe('copy alignment (hand-computed)', () => {
  it('finds where the longest shared run starts in each, and the shift it implies', () => {
    expect(longestCommonRunAt([9, 1, 2, 3, 4, 7], [5, 5, 1, 2, 3, 4])).toEqual({ length: 4, a: 1, b: 2 });
    expect(copyShift([9, 1, 2, 3, 4, 7], [5, 5, 1, 2, 3, 4])).toBe(1);
    expect(copyShift([1, 2, 3, 4, 5], [7, 1, 2, 3, 4, 5])).toBe(1);
    // A copy that starts earlier in the answer than in the earlier answer: negative.
    expect(copyShift([0, 0, 0, 1, 2, 3, 4], [1, 2, 3, 4])).toBe(-3);
    // Shorter than 4 tokens: chance, so paper 2's alignment.
    expect(copyShift([9, 1, 2, 3], [5, 1, 2, 3])).toBe(0);
  });
});

/**
 * The copy-aligned diagonal on synthetic attention: an answer that repeats a prior assistant answer after a
 * preamble of k tokens, its rows putting their attention where the copy reads, or at their own position.
 */
describe('the copy-aligned diagonal, checked on shifted copies', () => {
  const earlier = Array.from({ length: 40 }, (_, i) => 100 + i);
  /** Keys: 3 sink tokens, the prior assistant answer, then the answer itself; one row per answer token. */
  const setup = (k: number, follow: 'copy' | 'position') => {
    const answer = [...Array.from({ length: k }, (_, i) => 500 + i), ...earlier.slice(0, 30)];
    const prior = { start: 3, length: earlier.length };
    const S = 3 + earlier.length + answer.length;
    const rows = new Float64Array(answer.length * S);
    answer.forEach((_, i) => {
      // A copied token (i ≥ k) reads its source, i − k in the prior answer; or every row reads offset i.
      const j = follow === 'copy' ? (i >= k ? i - k : null) : i < prior.length ? i : null;
      if (j === null) rows[i * S] = 1;
      else rows[i * S + prior.start + j] = 1;
    });
    return { shift: copyShift(answer, earlier), a: slab(rows, answer.length, S), prior };
  };

  it("equals paper 2's diagonal when the copy is not shifted (k = 0)", () => {
    const { shift, a, prior } = setup(0, 'copy');
    expect(shift).toBe(0);
    expect(diagonalRatio(a, [prior], 5, [shift]).total).toBe(diagonalRatio(a, [prior], 5).total);
  });

  it("is higher than paper 2's when the attention follows a copy shifted by k tokens", () => {
    for (const k of [8, 26]) {
      const { shift, a, prior } = setup(k, 'copy');
      expect(shift).toBe(-k);
      const aligned = diagonalRatio(a, [prior], 5, [shift]).total;
      const plain = diagonalRatio(a, [prior], 5).total;
      // Every copied row reads inside the aligned band: 30 of 30 + k rows.
      expect(aligned).toBeCloseTo(30 / (30 + k), 12);
      expect(aligned).toBeGreaterThan(plain);
    }
  });

  it("is lower when the attention stays at each row's own position: the two part, and which is higher says which the model follows", () => {
    const { shift, a, prior } = setup(26, 'position');
    expect(diagonalRatio(a, [prior], 5, [shift]).total).toBeLessThan(diagonalRatio(a, [prior], 5).total);
  });
});

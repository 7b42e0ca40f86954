import { describe, expect, it } from 'vitest';
import { clusterInterval, holm, median, signFlipTest, signTest, slope, spearman } from '../../src/metrics/stats';

describe('rank correlation and slope (hand-computed)', () => {
  it('spearman', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 25, 100])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    // ranks [1,2,3,4] vs [2,1,4,3]: d² = 1+1+1+1 = 4, ρ = 1 − 6·4 / (4·15) = 0.6
    expect(spearman([1, 2, 3, 4], [0.2, 0.1, 0.4, 0.3])).toBeCloseTo(0.6);
    // ties get the mean rank: [1, 2.5, 2.5, 4]
    expect(spearman([1, 2, 3, 4], [1, 5, 5, 9])).toBeCloseTo(0.9486833, 6);
    expect(() => spearman([1], [1])).toThrow();
  });
  it('slope', () => {
    expect(slope([1, 2, 3], [2, 4, 6])).toBeCloseTo(2);
    expect(slope([1, 2, 3], [5, 5, 5])).toBe(0);
  });

  it('median: the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('the sign test (hand-computed)', () => {
  it('sums the binomial tail on both sides', () => {
    // 5 tosses, all one way: 2 × (1/32).
    expect(signTest(5, 0)).toBeCloseTo(2 / 32, 15);
    expect(signTest(0, 5)).toBeCloseTo(2 / 32, 15);
    // 10 tosses, 1 against 9: 2 × (1 + 10) / 1024.
    expect(signTest(1, 9)).toBeCloseTo((2 * 11) / 1024, 15);
    // 6 tosses, 2 against 4: 2 × (1 + 6 + 15) / 64; 3 against 3 sums past 1 and is capped.
    expect(signTest(2, 4)).toBeCloseTo((2 * 22) / 64, 15);
    expect(signTest(3, 3)).toBe(1);
    expect(signTest(0, 0)).toBe(1);
    expect(() => signTest(-1, 2)).toThrow(RangeError);
    expect(() => signTest(600, 600)).toThrow(RangeError);
  });

  it('sign-flip test on cluster differences (hand-computed)', () => {
    // Differences 3, 1, −1: 8 sign patterns, sums ±5, ±3, ±1, ±3 (3+1+1, 3+1−1, 3−1+1, 3−1−1 and their negatives):
    // |sum| ≥ |3 + 1 − 1| = 3 in 6 of 8.
    expect(signFlipTest([3, 1, -1])).toBeCloseTo(6 / 8, 15);
    // All one way, 2 and 2: only the two patterns with equal signs reach |4|: 2 of 4.
    expect(signFlipTest([2, 2])).toBeCloseTo(2 / 4, 15);
    // Clusters with no difference carry no sign: the same as without them.
    expect(signFlipTest([2, 0, 2, 0])).toBeCloseTo(2 / 4, 15);
    // Five clusters each +1: the sign test's 2 / 32.
    expect(signFlipTest([1, 1, 1, 1, 1])).toBeCloseTo(signTest(5, 0), 15);
    // A large one outweighs small ones against it: 9, −1, −1 → |7|; patterns with the 9's sign: |9±1±1| ≥ 7 all 4; the
    // other 4 by symmetry: 8 of 8.
    expect(signFlipTest([9, -1, -1])).toBe(1);
    // 6, 1, 1, 1 → 9: only the 9's sign with all three alike (|9|) and mirrored: 2 of 16.
    expect(signFlipTest([6, 1, 1, 1])).toBeCloseTo(2 / 16, 15);
    expect(signFlipTest([])).toBe(1);
    expect(() => signFlipTest([0.5])).toThrow(RangeError);
  });

  it('bootstraps the sum over clusters: each draw a resample of whole clusters (hand-checked)', () => {
    // Every cluster alike: every resample sums the same.
    expect(clusterInterval([2, 2, 2])).toEqual([6, 6]);
    expect(clusterInterval([5])).toEqual([5, 5]);
    expect(clusterInterval([])).toEqual([0, 0]);
    // Two clusters, 0 and 4: a resample sums 0, 4 or 8 (chances 1/4, 1/2, 1/4), so the 95 % interval spans 0 to 8.
    expect(clusterInterval([0, 4])).toEqual([0, 8]);
    // Seeded: the same on every run; a narrower level sits inside a wider one, around the sum seen.
    const d = [3, 0, -1, 5, 2, 0, 1, 4, -2, 0];
    expect(clusterInterval(d)).toEqual(clusterInterval(d));
    const [lo, hi] = clusterInterval(d);
    const [lo50, hi50] = clusterInterval(d, 0.5);
    expect(lo).toBeLessThan(12);
    expect(hi).toBeGreaterThan(12);
    expect(lo50).toBeGreaterThanOrEqual(lo);
    expect(hi50).toBeLessThanOrEqual(hi);
  });
});

describe("Holm's correction for many comparisons (hand-computed)", () => {
  it('multiplies the smallest p by their number, the next by one fewer, never falling, at most 1', () => {
    // Sorted: 0.01 × 4 = 0.04; 0.03 × 3 = 0.09; 0.04 × 2 = 0.08, raised to 0.09; 0.5 × 1 = 0.5. Back in input order.
    const got = holm([0.01, 0.04, 0.03, 0.5]);
    [0.04, 0.09, 0.09, 0.5].forEach((p, i) => expect(got[i]).toBeCloseTo(p, 12));
    expect(holm([0.4, 0.3])).toEqual([0.6, 0.6]);
    expect(holm([0.9, 0.9, 0.9])).toEqual([1, 1, 1]);
    expect(holm([])).toEqual([]);
  });
});

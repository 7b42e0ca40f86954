import { describe, expect, it } from 'vitest';
import { median, slope, spearman } from '../../src/metrics/stats';

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

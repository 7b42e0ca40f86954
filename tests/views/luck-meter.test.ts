import { describe, expect, it } from 'vitest';
import { luckX, pValue } from '../../src/views/lesson/LuckMeter';
import { LUCK_LINE, luckRow } from '../../src/views/lesson/wall-counts';

describe('the luck meter', () => {
  it('places a chance on one log scale, 1 time in 2 at the left, 1 in 1,000 or rarer at the right', () => {
    expect(luckX(0.5)).toBe(0);
    expect(luckX(1)).toBe(0);
    expect(luckX(0.001)).toBeCloseTo(1, 12);
    expect(luckX(1e-9)).toBe(1);
    // The line, 1 in 20: ln(10) / ln(500) of the way.
    expect(luckX(1 / LUCK_LINE)).toBeCloseTo(Math.log(10) / Math.log(500), 12);
    expect(luckX(0.01)).toBeGreaterThan(luckX(0.05));
  });

  it('puts a gap on the side of the line its words say', () => {
    // 9 against 1 on 10 parted turns: p = 22/1024 ≈ 0.021, under 1 in 20; 6 against 4: p ≈ 0.75.
    const clear = luckRow('a', { first: 9, second: 1 });
    expect(clear.clear).toBe(true);
    expect(luckX(clear.p)).toBeGreaterThan(luckX(1 / LUCK_LINE));
    const luck = luckRow('b', { first: 6, second: 4 });
    expect(luck.clear).toBe(false);
    expect(luckX(luck.p)).toBeLessThan(luckX(1 / LUCK_LINE));
    expect(clear.p).toBeCloseTo(22 / 1024, 12);
  });

  it('gives the p-value beside the words, as a researcher reports it', () => {
    // 22/1024 = 0.0215; 6 against 4: 0.754; past 1 in 1,000, a bound.
    expect(pValue(luckRow('a', { first: 9, second: 1 }).p)).toBe('p = 0.021');
    expect(pValue(0.0519)).toBe('p = 0.052');
    expect(pValue(luckRow('b', { first: 6, second: 4 }).p)).toBe('p = 0.75');
    expect(pValue(0.0004)).toBe('p < 0.001');
    expect(pValue(0.004)).toBe('p = 0.004');
  });
});

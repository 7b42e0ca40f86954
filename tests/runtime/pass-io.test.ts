import { describe, expect, it } from 'vitest';
import { clampRange } from '../../src/runtime/pass-io';

describe('a pass row range', () => {
  it('defaults to the last row, clamps to the sequence, and refuses an empty range or one that is not whole numbers', () => {
    expect(clampRange(undefined, 10)).toEqual([9, 10]);
    expect(clampRange([-3, 40], 10)).toEqual([0, 10]);
    expect(() => clampRange([12, 14], 10)).toThrow('row range [12, 14) is empty for a sequence of 10 tokens');
    // A span read as {start, end} where it is {start, length}: undefined end, refused by name.
    expect(() => clampRange([3, undefined as unknown as number], 10)).toThrow('row range [3, undefined) is not two whole numbers');
    expect(() => clampRange([Number.NaN, 4], 10)).toThrow('is not two whole numbers');
  });
});

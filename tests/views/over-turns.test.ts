import { describe, expect, it } from 'vitest';
import { overTurns } from '../../src/views/lesson/attention-reveals';
import { WALL_COUNTS } from '../../src/views/lesson/wall-records';

describe('a figure over every stored turn at a wall, beside one answer', () => {
  const c = { ...WALL_COUNTS, turns: 149, reads: { prior: 0.5, priorEven: 0.4, diagonal: 0.18, diagonalEven: 0.12 } };

  it('says the mean against its chance, and whether this answer is typical (hand-computed)', () => {
    // 0.5 / 0.4 = 1.25 times; this answer at 1.3: within 0.15, typical.
    expect(overTurns('prior', 1.3, c)).toBe(
      ' Over the 149 turns right after a wall, the answers give their prior assistant answers 50 % of their attention on average (even share 40 %), 1.3 times an even share: this answer is typical.',
    );
    // 0.18 / 0.12 = 1.5 times; this answer at 2.0 leans more.
    expect(overTurns('diagonal', 2, c)).toBe(
      ' Over the 149 turns right after a wall, the band gets 18 % on average (even share 12 %), 1.5 times an even share: this answer leans more than most.',
    );
    expect(overTurns('diagonal', 1.1, c)).toMatch(/: this answer leans less than most\.$/);
    // 0.156 / 0.114 = 1.37 times, but 16 % against 11 % reads 1.5: the per cents get their decimal.
    expect(overTurns('diagonal', 1.4, { ...c, reads: { ...c.reads, diagonal: 0.156, diagonalEven: 0.114 } })).toBe(
      ' Over the 149 turns right after a wall, the band gets 15.6 % on average (even share 11.4 %), 1.4 times an even share: this answer is typical.',
    );
  });

  it('says nothing without the record', () => {
    expect(overTurns('prior', 1.3, { ...c, reads: undefined })).toBe('');
  });
});

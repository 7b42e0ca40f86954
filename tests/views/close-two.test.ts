import { describe, expect, it } from 'vitest';
import { closeTwo } from '../../src/views/lesson/cpl';
import { numbersOf } from '../../src/views/lesson/world';

describe('two shares side by side', () => {
  it('reads whole per cents, or one decimal where they would read the same', () => {
    expect(closeTwo(0.18, 0.19)).toBe('18 % against 19 %');
    // 18.6 % and 19.2 % both round to 19 %: "smaller" must show.
    expect(closeTwo(0.186, 0.192)).toBe('18.6 % against 19.2 %');
  });
});

describe("a card's figures", () => {
  it('counts the numbers a reader reads, not the digits of a policy name', () => {
    expect(numbersOf('Window-6 and Clip-6→1 sit near Full at 78 %, 4.5 times, L1·H0')).toEqual(['78', '4.5', '1', '0']);
  });
});

import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { attentionReveal, tokenMix, tokenMixSaid } from '../../src/views/lesson/token-mix';
import type { LessonWorld } from '../../src/views/lesson/world';
import { tinyAnswer } from './tiny-answer';

// The tiny answer's last word, "east", is row 3 (token 9): its attention as given.
const result = (lastRow: Record<number, number>): PolicyResult => tinyAnswer({ 9: lastRow });

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

  it('reveals, on the attention step, how unevenly that token shares out (hand-computed)', () => {
    const world = (r: PolicyResult) => ({ results: [r], fromModel: true, fromCache: false }) as unknown as LessonWorld;
    // The top three take 0.85: far from even.
    expect(attentionReveal(world(result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 9: 0.05 })))).toEqual({
      takeaway: 'Attention is how each token shares out 100 % of its reading over the tokens before it. It is far from even: a few tokens get most of it.',
      said: 'Here "east" gives 85 % to 3 tokens and 15 % to the other 7. The next steps add up every token of the answer this way, by the kind of token read.',
      more: expect.stringMatching(/^For example, the answer's last word, "east", gives 50 % to "22"/),
    });
    // Spread evenly over its 10 tokens (0.1 each): the top three take 0.3, under half.
    const even = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [k, 0.1]));
    expect(attentionReveal(world(result(even))).takeaway).toMatch(/Here it is spread over many tokens\.$/);
  });
});

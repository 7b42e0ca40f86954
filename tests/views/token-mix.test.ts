import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { attentionReveal, notTheWord, spreadSaid, tokenMix, tokenMixSaid } from '../../src/views/lesson/token-mix';
import type { LessonWorld } from '../../src/views/lesson/world';
import { tinyAnswer } from './tiny-answer';

// The tiny answer's last word is "east" (token 9); the token before it, "22" (token 8, row 2), picks it: that row's
// attention as given. Token 8 sees tokens 0 to 8.
const result = (row: Record<number, number>): PolicyResult => tinyAnswer({ 8: row });

describe("one token's share-out, before the five kinds' guess", () => {
  it('names the token that picks the last word and the three tokens it reads most, with what is left (hand-computed)', () => {
    const r = result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 5: 0.05 });
    // The top three: 0.5, 0.2, 0.15; the other 9 − 3 tokens it sees share 1 − 0.85.
    expect(tokenMix(r)).toEqual({
      q: 8,
      next: 9,
      parts: [
        { k: 3, share: expect.closeTo(0.5, 6) },
        { k: 4, share: expect.closeTo(0.2, 6) },
        { k: 8, share: expect.closeTo(0.15, 6) },
      ],
      rest: expect.closeTo(0.15, 6),
      others: 6,
    });
    expect(tokenMixSaid(r)).toBe(
      `For example, "22", the token whose row picks the answer's last word, "east", gives 50 % to "22" (turn 1's answer), 20 % to "south" (turn 1's answer) and 15 % to "22" (its own answer); the other 6 tokens share the last 15 %.`,
    );
  });

  it('says nothing without attention rows', () => {
    expect(tokenMixSaid({ ...result({}), attention: undefined } as unknown as PolicyResult)).toBe('');
    expect(tokenMixSaid(null)).toBe('');
  });

  it('reveals, on the attention step, how unevenly that token shares out (hand-computed)', () => {
    const world = (r: PolicyResult) => ({ results: [r], fromModel: true, fromCache: false }) as unknown as LessonWorld;
    // The top three take 0.85: far from even.
    expect(attentionReveal(world(result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 5: 0.05 })))).toEqual({
      takeaway: 'A few of the tokens it sees get most of it.',
      // An even spread over 9 tokens gives three of them 3/9 = 33 %; 0.85 / (3/9) = 2.55.
      said: `The token "22", picking "east", gives 85 % to its three most-read tokens; spread evenly over all 9 tokens it sees, they would get 33 %. The next steps add up every token of the answer this way, by the kind of token read.`,
      more: expect.stringMatching(/^For example, "22", the token whose row picks the answer's last word, "east", gives 50 % to "22"/),
      // "22", "south", "22": none is "east", so the card says what a glance reads.
      caveat: 'none of them is "east" itself: each token carries the words before it, like a running summary, so it brings those in too.',
    });
    // The 9 tokens it sees, against the 6 read before answering (as the drop-turns step counts them): 3 of its own answer.
    const counted = { ...result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 5: 0.05 }), turn: 2, cost: [{ turn: 2, contextTokens: 6 }] } as unknown as PolicyResult;
    expect(attentionReveal(world(counted)).more).toMatch(
      / It sees 9 tokens: the 6 the model reads before answering \(step 3 counts them under Full\) and the 3 after them, the answer's own up to it\.$/,
    );
    // Were the word about to be written among them ("south", token 4), nothing to say.
    const r = result({ 0: 0.1, 3: 0.5, 4: 0.2, 8: 0.15, 5: 0.05 });
    expect(notTheWord(r, { ...tokenMix(r)!, next: 4 })).toBe(false);
    // Spread evenly over its 9 tokens (1/9 each): the top three take a third, under half.
    const even = Object.fromEntries(Array.from({ length: 9 }, (_, k) => [k, 1 / 9]));
    expect(attentionReveal(world(result(even))).takeaway).toBe('It is spread wide, its three most-read tokens getting under half.');
    // 32 % on 3 of 609 tokens (an even share gives them 0.5 %): far above it, yet under half; 3 of 9 at a third: even.
    expect(spreadSaid(0.32, 3, 609)).toBe('Its three most-read tokens get far more than an even share, yet under half of all its attention.');
    expect(spreadSaid(1 / 3, 3, 9)).toBe('It is spread wide, its three most-read tokens getting under half.');
    expect(spreadSaid(0.85, 3, 9)).toBe('A few of the tokens it sees get most of it.');
  });
});

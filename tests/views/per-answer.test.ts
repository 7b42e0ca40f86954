import { describe, expect, it } from 'vitest';
import { PER_ANSWER_SCALE, perAnswerBar } from '../../src/views/figures/per-answer';

describe('the per-answer bars', () => {
  it('share one scale, and a value above it is cut at full width and said to be', () => {
    expect(perAnswerBar(PER_ANSWER_SCALE / 2)).toEqual({ width: 35, clipped: false });
    expect(perAnswerBar(PER_ANSWER_SCALE)).toEqual({ width: 70, clipped: false });
    // 0.1036 on a 0.1 scale: full width, marked, not drawn as if it were 0.1.
    expect(perAnswerBar(0.1036)).toEqual({ width: 70, clipped: true });
  });
});

import { describe, expect, it } from 'vitest';
import { isTemplateMark } from '../../src/views/tokens/TokenView';

describe('the Tokens panel', () => {
  it("draws a chat template's marks small, and nothing else", () => {
    for (const t of ['<|im_start|>', '<|im_end|>', '<start_of_turn>', '<end_of_turn>', '</s>', '<s>', '<|eot_id|>', '<｜Assistant｜>'])
      expect(isTemplateMark(t), t).toBe(true);
    // Words, punctuation and text that merely contains brackets read as the text they are.
    for (const t of ['south', ' <', '<|im_start|>user', '< b >', '->', '<>', 'a<b>', '<|im_start|> ']) expect(isTemplateMark(t), t).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { changedChars } from '../../src/state/inspector/conversation-slice';

describe('a paste is scored at once, typing after a pause', () => {
  it('counts the characters between the common prefix and suffix', () => {
    expect(changedChars('hello world', 'hello world')).toBe(0);
    expect(changedChars('hello world', 'hello, world')).toBe(1);
    expect(changedChars('abc', 'aXYZc')).toBe(3);
    expect(changedChars('', 'x'.repeat(500))).toBe(500);
    expect(changedChars('aaaa', 'aa')).toBe(2);
  });
});

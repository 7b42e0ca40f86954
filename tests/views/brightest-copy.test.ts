import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { brightestCopy, longestRun } from '../../src/views/lesson/copy-run';
import { tinyAnswer } from './tiny-answer';

const result = tinyAnswer;

describe('the brightest copy in the band', () => {
  it('finds the answer token that reads the same word in the last prior assistant answer the most', () => {
    // "22" (row 8) reads the earlier "22" (3) with 0.3, "Been" (7) reads "Been" (2) with 0.2; "east" reads "south" with 0.6 (no copy).
    expect(brightestCopy(result({ 7: { 2: 0.2 }, 8: { 3: 0.3 }, 9: { 4: 0.6 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.3, 6), reads: 'same' });
    expect(brightestCopy(result({ 7: { 2: 0.4 }, 8: { 3: 0.3 } }))).toEqual({ q: 7, k: 2, weight: expect.closeTo(0.4, 6), reads: 'same' });
    // Among the first rows only (the answer's rows 0 and 1: its header and "Been"): the "22" below is left out.
    expect(brightestCopy(result({ 7: { 2: 0.2 }, 8: { 3: 0.3 } }), 2)).toEqual({ q: 7, k: 2, weight: expect.closeTo(0.2, 6), reads: 'same' });
  });

  it("leaves out the template's header, which every answer repeats", () => {
    // The answer's "assistant" reading the prior's "assistant": not the answer's own words, not a copy worth naming.
    const r = result({ 6: { 1: 0.9 }, 8: { 3: 0.1 } });
    expect(brightestCopy(r)).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.1, 6), reads: 'same' });
  });

  it('prefers a copy of a word that appears once in its band, so the cell can only be that word', () => {
    // The prior answer made "Been 22 22": the answer's "22" reading either is a match as much as a copy.
    const twice = (rows: Record<number, Record<number, number>>) => {
      const r = result(rows);
      return { ...r, tokens: r.tokens.map((t, i) => (i === 4 ? { ...t, text: '22' } : t)) } as PolicyResult;
    };
    // "Been" reads "Been" with 0.4, bright (0.4 × the 8 tokens its row sees ≥ 3): named before the brighter "22".
    expect(brightestCopy(twice({ 7: { 2: 0.4 }, 8: { 3: 0.5 } }))).toEqual({ q: 7, k: 2, weight: expect.closeTo(0.4, 6), reads: 'same' });
    // At 0.2 it is not bright (1.6 < 3): the brightest copy, though ambiguous.
    expect(brightestCopy(twice({ 7: { 2: 0.2 }, 8: { 3: 0.5 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.5, 6), reads: 'same' });
    // With no word once in its band, the brightest copy still.
    expect(brightestCopy(twice({ 8: { 3: 0.5, 4: 0.1 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.5, 6), reads: 'same' });
  });

  it('prefers a bright cell reading the word the answer writes next, as a copier does', () => {
    // "Been" (row 7) writes "22" next and reads the prior's "22" (3) with 0.4, bright (× 8 ≥ 3): named before "22" reading "22".
    expect(brightestCopy(result({ 7: { 3: 0.4 }, 8: { 3: 0.5 } }))).toEqual({ q: 7, k: 3, weight: expect.closeTo(0.4, 6), reads: 'next' });
    // Bright, but under half the brightest same-word cell (0.4 × 2 < 0.9): a faint example convinces no one.
    expect(brightestCopy(result({ 7: { 3: 0.4 }, 8: { 3: 0.9 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.9, 6), reads: 'same' });
    // Not bright (0.3 × 8 = 2.4): the same-word copy.
    expect(brightestCopy(result({ 7: { 3: 0.3 }, 8: { 3: 0.5 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.5, 6), reads: 'same' });
  });

  it('is null without attention rows', () => {
    expect(brightestCopy({ ...result({}), attention: undefined } as unknown as PolicyResult)).toBeNull();
  });
});

describe('the longest slanted line of bright cells', () => {
  // The answer's rows 1–3 (tokens 7–9, seeing 8, 9 and 10 tokens) each read the prior answer's token one place
  // before their own (Been, 22, south at 2–4): offset −1. Bright: at least 3 times 1 / the tokens the row sees.
  it('runs along one offset while every cell is bright (hand-computed)', () => {
    expect(longestRun(result({ 7: { 2: 0.5 }, 8: { 3: 0.5 }, 9: { 4: 0.5 } }))).toEqual({ length: 3, row: 1, d: -1 });
    // Looked for only on the dotted centre (reach 0), the line one token off it is not found.
    expect(longestRun(result({ 7: { 2: 0.5 }, 8: { 3: 0.5 }, 9: { 4: 0.5 } }), 0)).toBeNull();
    // 0.3 × 9 = 2.7 < 3: the middle cell is not bright, so the line breaks into two of 1; the first found is kept.
    expect(longestRun(result({ 7: { 2: 0.5 }, 8: { 3: 0.3 }, 9: { 4: 0.5 } }))).toEqual({ length: 1, row: 1, d: -1 });
    // Two bright cells on different offsets make no line longer than 1.
    expect(longestRun(result({ 7: { 2: 0.5 }, 8: { 4: 0.5 } }))?.length).toBe(1);
  });

  it('is null with no bright cell, or without attention rows', () => {
    expect(longestRun(result({ 7: { 2: 0.1 } }))).toBeNull();
    expect(longestRun({ ...result({}), attention: undefined } as unknown as PolicyResult)).toBeNull();
  });
});

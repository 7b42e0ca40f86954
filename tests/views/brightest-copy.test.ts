import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { brightestCopy, longestRun } from '../../src/views/lesson/copy-run';

// Tokens: 0 system, 1–4 a prior assistant answer (header "assistant", then "Been", "22", "south"), 5 a user turn,
// 6–9 the answer (header "assistant", then "Been", "22", "east"). The answer's rows: 6 to 9.
const texts = ['sys', 'assistant', 'Been', '22', 'south', 'user', 'assistant', 'Been', '22', 'east'];
const cats = ['system', 'prior', 'prior', 'prior', 'prior', 'user', 'current', 'current', 'current', 'current'];
const S = texts.length;

function result(rows: Record<number, Record<number, number>>): PolicyResult {
  const data = new Float32Array(4 * S);
  for (const [q, row] of Object.entries(rows)) for (const [k, v] of Object.entries(row)) data[(Number(q) - 6) * S + Number(k)] = v;
  return {
    tokens: texts.map((text, i) => ({ text, category: cats[i], message: 0 })),
    query: { start: 6, end: 10 },
    radius: 5,
    attention: { layer: 0, mean: { data, heads: 1, rowStart: 6, rows: 4, seqLen: S }, perHead: null },
    diagonalPerAnswer: [{ message: 1, turn: 1, value: 0 }],
    messages: [
      { role: 'system', category: 'system', turn: null, span: { start: 0, length: 1 }, content: { start: 0, length: 1 } },
      { role: 'assistant', category: 'prior', turn: 1, span: { start: 1, length: 4 }, content: { start: 2, length: 3 } },
      { role: 'user', category: 'user', turn: 2, span: { start: 5, length: 1 }, content: { start: 5, length: 1 } },
      { role: 'assistant', category: 'current', turn: 2, span: { start: 6, length: 4 }, content: { start: 7, length: 3 } },
    ],
  } as unknown as PolicyResult;
}

describe('the brightest copy in the band', () => {
  it('finds the answer token that reads the same word in the last prior assistant answer the most', () => {
    // "22" (row 8) reads the earlier "22" (3) with 0.3, "Been" (7) reads "Been" (2) with 0.2; "east" reads "south" with 0.6 (no copy).
    expect(brightestCopy(result({ 7: { 2: 0.2 }, 8: { 3: 0.3 }, 9: { 4: 0.6 } }))).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.3, 6) });
    expect(brightestCopy(result({ 7: { 2: 0.4 }, 8: { 3: 0.3 } }))).toEqual({ q: 7, k: 2, weight: expect.closeTo(0.4, 6) });
    // Among the first rows only (the answer's rows 0 and 1: its header and "Been"): the "22" below is left out.
    expect(brightestCopy(result({ 7: { 2: 0.2 }, 8: { 3: 0.3 } }), 2)).toEqual({ q: 7, k: 2, weight: expect.closeTo(0.2, 6) });
  });

  it("leaves out the template's header, which every answer repeats", () => {
    // The answer's "assistant" reading the prior's "assistant": not the answer's own words, not a copy worth naming.
    const r = result({ 6: { 1: 0.9 }, 8: { 3: 0.1 } });
    expect(brightestCopy(r)).toEqual({ q: 8, k: 3, weight: expect.closeTo(0.1, 6) });
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

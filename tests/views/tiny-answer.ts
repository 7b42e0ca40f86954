import type { PolicyResult } from '../../src/analysis/analyze';

// Tokens: 0 system, 1–4 a prior assistant answer (header "assistant", then "Been", "22", "south"), 5 a user turn,
// 6–9 the answer (header "assistant", then "Been", "22", "east"). The answer's rows: 6 to 9.
const texts = ['sys', 'assistant', 'Been', '22', 'south', 'user', 'assistant', 'Been', '22', 'east'];
const cats = ['system', 'prior', 'prior', 'prior', 'prior', 'user', 'current', 'current', 'current', 'current'];
const owner = [0, 1, 1, 1, 1, 2, 3, 3, 3, 3];
const S = texts.length;

/** The tiny answer's figures, with the head-mean attention of its rows as given (`rows[q][k]`, q from 6 to 9). */
export function tinyAnswer(rows: Record<number, Record<number, number>>): PolicyResult {
  const data = new Float32Array(4 * S);
  for (const [q, row] of Object.entries(rows)) for (const [k, v] of Object.entries(row)) data[(Number(q) - 6) * S + Number(k)] = v;
  return {
    tokens: texts.map((text, i) => ({ text, category: cats[i], message: owner[i] })),
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

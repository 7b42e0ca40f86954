import { CATEGORIES, type AttentionRows, type Category, type CategoryRatios, type Span } from './categories';

/**
 * Category ratios: for each query row, the attention mass per category; then the mean over rows.
 * With rows that sum to 1 the five ratios sum to 1.
 */
export function categoryRatios(a: AttentionRows, categories: readonly Category[]): CategoryRatios {
  if (categories.length !== a.seqLen) throw new RangeError(`${categories.length} categories for ${a.seqLen} keys`);
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as CategoryRatios;
  if (a.nRows === 0) return out;
  for (let i = 0; i < a.nRows; i++) {
    for (let j = 0; j < a.seqLen; j++) out[categories[j]!] += a.rows[i * a.seqLen + j]!;
  }
  for (const c of CATEGORIES) out[c] /= a.nRows;
  return out;
}

export interface DiagonalResult {
  /** Mean over query rows of the attention inside the diagonal bands of every earlier answer. */
  total: number;
  /** The same, per earlier answer (in the order of `priorSpans`); they add up to `total`. */
  perAnswer: number[];
}

/**
 * Diagonal inertia ratio (paper 2 §3.4, design.md): query row i is the current answer's token at
 * offset i; for each earlier answer p with content span [s_p, s_p + n_p), add the attention to
 * s_p + j for j in [i − r, i + r] ∩ [0, n_p). Sum over p, mean over rows. r = Infinity covers whole spans.
 */
export function diagonalRatio(a: AttentionRows, priorSpans: readonly Span[], radius: number): DiagonalResult {
  if (!(radius >= 0)) throw new RangeError(`radius must be ≥ 0, got ${radius}`);
  const perAnswer = priorSpans.map(() => 0);
  if (a.nRows === 0) return { total: 0, perAnswer };
  for (let i = 0; i < a.nRows; i++) {
    const row = i * a.seqLen;
    priorSpans.forEach((p, k) => {
      const lo = Math.max(0, i - radius);
      const hi = Math.min(p.length - 1, i + radius);
      for (let j = lo; j <= hi; j++) perAnswer[k]! += a.rows[row + p.start + j]!;
    });
  }
  for (let k = 0; k < perAnswer.length; k++) perAnswer[k]! /= a.nRows;
  return { total: perAnswer.reduce((s, v) => s + v, 0), perAnswer };
}

/** Mean attention mass per message (keys grouped by the message they belong to; -1 for none). */
export function massPerMessage(a: AttentionRows, messageOf: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  if (a.nRows === 0) return out;
  for (let i = 0; i < a.nRows; i++) {
    for (let j = 0; j < a.seqLen; j++) {
      const m = messageOf[j]!;
      out.set(m, (out.get(m) ?? 0) + a.rows[i * a.seqLen + j]! / a.nRows);
    }
  }
  return out;
}

/** The sum of each row ([nRows × seqLen] row-major): 1 for attention probabilities. */
export function rowSums(rows: ArrayLike<number>, nRows: number, seqLen: number): number[] {
  return Array.from({ length: nRows }, (_, i) => {
    let s = 0;
    for (let j = 0; j < seqLen; j++) s += rows[i * seqLen + j]!;
    return s;
  });
}

/** Splits [heads × rows × seq] into one AttentionRows per head. */
export function perHead(rows: Float32Array | Float64Array, heads: number, nRows: number, seqLen: number): AttentionRows[] {
  return Array.from({ length: heads }, (_, h) => ({ rows: rows.subarray(h * nRows * seqLen, (h + 1) * nRows * seqLen), nRows, seqLen }));
}

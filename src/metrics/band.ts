import type { Span } from './categories';

/**
 * The diagonal band of radius r over one earlier answer, per answer row: the key columns that
 * count for the diagonal ratio (design.md). Rows are offsets into the current answer.
 */
export function diagonalBand(prior: Span, answerRows: number, radius: number): { row: number; from: number; to: number }[] {
  const out = [];
  for (let i = 0; i < answerRows; i++) {
    const lo = Math.max(0, i - radius);
    const hi = Math.min(prior.length - 1, i + radius);
    if (lo <= hi) out.push({ row: i, from: prior.start + lo, to: prior.start + hi });
  }
  return out;
}

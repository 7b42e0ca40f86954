import type { Span } from './categories';

/**
 * The diagonal band of radius r over one earlier answer, per answer row: the key columns that
 * count for the diagonal ratio (design.md). Rows are offsets into the current answer. With a shift,
 * the copy-aligned band: row i centred on offset i + shift (metrics/inertia.ts diagonalRatio).
 */
export function diagonalBand(prior: Span, answerRows: number, radius: number, shift = 0): { row: number; from: number; to: number }[] {
  const out = [];
  for (let i = 0; i < answerRows; i++) {
    const lo = Math.max(0, i + shift - radius);
    const hi = Math.min(prior.length - 1, i + shift + radius);
    if (lo <= hi) out.push({ row: i, from: prior.start + lo, to: prior.start + hi });
  }
  return out;
}

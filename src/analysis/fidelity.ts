import { CATEGORIES, type Category } from '../metrics/categories';
import type { PolicyFigures } from './analyze';

/** How far one run's figures moved from another's: |Δ| of each category share and of the diagonal ratio. */
export interface FigureChange {
  shares: Record<Category, number>;
  diagonal: number;
}

export function figureChange(base: Pick<PolicyFigures, 'ratios' | 'diagonal'>, other: Pick<PolicyFigures, 'ratios' | 'diagonal'>): FigureChange {
  const shares = Object.fromEntries(CATEGORIES.map((c) => [c, Math.abs(other.ratios[c] - base.ratios[c])])) as Record<Category, number>;
  return { shares, diagonal: Math.abs(other.diagonal - base.diagonal) };
}

/** The largest change of each figure over many runs (a quantized model's fidelity table). */
export function largestChange(changes: FigureChange[]): FigureChange {
  const shares = Object.fromEntries(CATEGORIES.map((c) => [c, Math.max(0, ...changes.map((x) => x.shares[c]))])) as Record<Category, number>;
  return { shares, diagonal: Math.max(0, ...changes.map((x) => x.diagonal)) };
}

/** The largest share change of all five. */
export const largestShareChange = (c: FigureChange): number => Math.max(...CATEGORIES.map((k) => c.shares[k]));

import type { PolicyResult } from '../analysis/analyze';
import { CATEGORIES } from '../metrics/categories';

/** The figures of one or more policies as CSV: one row per policy, then one per earlier answer. */
export function figuresCsv(results: PolicyResult[]): string {
  const esc = (v: string | number | null) => (typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v ?? ''));
  const lines = [['policy', 'label', 'turn', 'layer', 'radius', 'tokens', ...CATEGORIES, 'diagonal', 'context_tokens', 'prefilled'].join(',')];
  for (const r of results) {
    const c = r.cost[r.cost.length - 1]!;
    lines.push([r.policy, r.label, r.turn, r.layer, Number.isFinite(r.radius) ? r.radius : 'inf', r.tokens.length, ...CATEGORIES.map((k) => r.ratios[k]), r.diagonal, c.contextTokens, c.prefilled].map(esc).join(','));
  }
  lines.push('', ['policy', 'earlier_answer_round', 'diagonal', 'longest_copied_run', 'ngram_overlap'].join(','));
  for (const r of results) {
    r.diagonalPerAnswer.forEach((d, i) => lines.push([r.policy, d.round, d.value, r.copy[i]?.longestRun ?? '', r.copy[i]?.ngramOverlap ?? ''].map(esc).join(',')));
  }
  lines.push('', ['policy', 'round', 'context_tokens', 'prefilled'].join(','));
  for (const r of results) for (const c of r.cost) lines.push([r.policy, c.round, c.contextTokens, c.prefilled].map(esc).join(','));
  return `${lines.join('\n')}\n`;
}

/** The figures as JSON: the analysis results without the attention arrays (those go to the heatmap exports). */
export function figuresJson(results: PolicyResult[], meta: Record<string, unknown>): string {
  return `${JSON.stringify({ ...meta, results: results.map(({ attention: _a, ...figures }) => figures) }, (_, v) => (v === Infinity ? null : v), 2)}\n`;
}

import type { PolicyResult } from '../analysis/analyze';
import { CATEGORIES } from '../metrics/categories';
import type { AttentionSlab } from '../metrics/slab';

/** A CSV field: quoted when it holds a comma, a quote or a line break (a label, a model's folder path). */
export const csvField = (v: string | number | null): string => (typeof v === 'string' && /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : String(v ?? ''));

/** What the figures were computed from, written into every export beside them. */
export interface Provenance {
  /** The model's source (a Hub id, a folder, the demo model) and its revision (a commit where known). */
  model: string | null;
  revision: string | null;
  backend: string | null;
  /** The weights' precision ('none', 'q8', 'q4', 'awq4-g128'…: model/precision/quantize.ts precisionName). */
  precision: string | null;
  /** The head the views show (the figures' ratios are of the head mean; perHead has every head). */
  head: 'mean' | number;
}

/** One provenance for every result, or each result's own (compared models: each slot's model). */
export type ProvenanceOf = Provenance | ((r: PolicyResult) => Provenance);
const of = (from: ProvenanceOf, r: PolicyResult): Provenance => (typeof from === 'function' ? from(r) : from);

/** Whose answer was scored: the conversation's own, or the one the model wrote in this page. */
export const answerOf = (r: PolicyResult): 'conversation' | 'model' => (r.messages[r.messages.length - 1]?.generated ? 'model' : 'conversation');

/**
 * Whether two results split the same text into the same tokens (same tokenizer); when not, they compare
 * by message only. Read over the context before the scored answer: when a model wrote its own answer,
 * the two answers are different texts whatever the tokenizers.
 */
export const sameTokens = (a: PolicyResult, b: PolicyResult): boolean =>
  a.query.start === b.query.start && a.tokens.slice(0, a.query.start).every((t, i) => t.text === b.tokens[i]!.text);

/**
 * The exports as tidy CSV tables, one kind of row per file (spreadsheets and pandas read each as it is):
 * the figures, one row per policy, with what they were computed from.
 */
export function figuresCsv(results: PolicyResult[], from: ProvenanceOf): string {
  const lines = [
    [
      'policy',
      'label',
      'answer',
      'turn',
      'layer',
      'radius',
      'tokens',
      ...CATEGORIES,
      'diagonal',
      'diagonal_copy_aligned',
      'context_tokens',
      'prefilled',
      'model',
      'revision',
      'backend',
      'precision',
      'heads_off',
      'heads_off_by',
    ].join(','),
  ];
  for (const r of results) {
    const c = r.cost[r.cost.length - 1]!;
    const p = of(from, r);
    lines.push(
      [
        r.policy,
        r.label,
        answerOf(r),
        r.turn,
        r.layer,
        Number.isFinite(r.radius) ? r.radius : 'inf',
        r.tokens.length,
        ...CATEGORIES.map((k) => r.ratios[k]),
        r.diagonal,
        r.diagonalCopyAligned,
        c.contextTokens,
        c.prefilled,
        p.model,
        p.revision,
        p.backend,
        p.precision,
        (r.headsOff ?? []).join(' '),
        r.headsOff ? (r.headsOffBy ?? 'zero') : '',
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One row per prior assistant answer of each policy: its diagonal ratio and the copy measures. */
export function perAnswerCsv(results: PolicyResult[], from: ProvenanceOf): string {
  const lines = [['policy', 'turn', 'prior_turn', 'diagonal', 'longest_copied_run', 'copy_offset', 'ngram_overlap', 'model', 'heads_off'].join(',')];
  for (const r of results) {
    r.diagonalPerAnswer.forEach((d, i) =>
      lines.push(
        [
          r.policy,
          r.turn,
          d.turn,
          d.value,
          r.copy[i]?.longestRun ?? '',
          r.copy[i]?.shift ?? '',
          r.copy[i]?.ngramOverlap ?? '',
          of(from, r).model,
          (r.headsOff ?? []).join(' '),
        ]
          .map(csvField)
          .join(','),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One row per turn of each policy: the tokens in context and those prefilled (paper 1, Fig. 4). */
export function turnsCsv(results: PolicyResult[], from: ProvenanceOf): string {
  const lines = [['policy', 'turn', 'context_tokens', 'prefilled', 'model'].join(',')];
  for (const r of results) for (const c of r.cost) lines.push([r.policy, c.turn, c.contextTokens, c.prefilled, of(from, r).model].map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

/** The figures as JSON: what they were computed from (a compared model's result: its own), then the results without the attention arrays (those go to the heatmap exports). */
export function figuresJson(results: PolicyResult[], from: ProvenanceOf): string {
  const first = results[0] ? of(from, results[0]) : null;
  // A compared model's result names its own model, backend and precision.
  const own = (r: PolicyResult) => (r.slot ? (({ head: _h, ...p }) => p)(of(from, r)) : {});
  return `${JSON.stringify({ ...first, results: results.map(({ attention: _a, ...figures }) => ({ ...figures, ...own(figures as PolicyResult), answer: answerOf(figures as PolicyResult) })) }, (_, v) => (v === Infinity ? null : v), 2)}\n`;
}

/** The answer's head-mean rows as nested arrays, one per answer token (the CLI's --dump-attention contract). */
export function answerRowsJson(mean: AttentionSlab): number[][] {
  return Array.from({ length: mean.rows }, (_, i) => Array.from(mean.data.subarray(i * mean.seqLen, (i + 1) * mean.seqLen)));
}

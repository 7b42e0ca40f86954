/** analyze's text output: each model's table of figures, then each later model against the first. */
import type { PolicyResult } from '../analysis/analyze';
import { sameTokens } from '../export/figures';
import { CATEGORIES } from '../metrics/categories';
import { precisionName } from '../model/precision/quantize';
import type { OpenModel } from '../runtime/open-model';
import type { SweepPoint } from '../analysis/sweep';
import { printAnswer, printLayers, type AnswerJson, type LayersJson } from './layer-commands';

const f = (v: number) => v.toFixed(4);

/** A policy's result as analyze prints and writes it: the figures, and what --sweep, --all-layers and --generate add. */
export type Analyzed = PolicyResult & { sweep?: SweepPoint[]; layers?: LayersJson; answer?: AnswerJson };

export function printTable(file: string, label: string, model: OpenModel, results: Analyzed[]): void {
  const r0 = results[0]!;
  for (const n of [...new Set(results.flatMap((r) => r.notes))]) process.stderr.write(`${file}: note: ${n}\n`);
  const name = precisionName(model.graph.quant, model.checkpoint.spec.awq);
  const precision = name === 'none' ? '' : `, weights ${name}`;
  console.log(
    `${label} (${model.checkpoint.spec.family}, ${model.session.report.backend}${precision}) · ${file} · turn ${r0.turn} · layer ${r0.layer} · r = ${r0.radius}`,
  );
  console.log(
    `${'policy'.padEnd(14)} ${'tokens'.padStart(6)} ${CATEGORIES.map((c) => c.padStart(8)).join('')} ${'diagonal'.padStart(9)} ${'context'.padStart(8)} ${'prefill'.padStart(8)}`,
  );
  for (const r of results) {
    const c = r.cost[r.cost.length - 1]!;
    console.log(
      `${r.label.padEnd(14)} ${String(r.tokens.length).padStart(6)} ${CATEGORIES.map((k) => f(r.ratios[k]).padStart(8)).join('')} ${f(r.diagonal).padStart(9)} ${String(c.contextTokens).padStart(8)} ${String(c.prefilled).padStart(8)}`,
    );
  }
  for (const r of results) {
    const top = [...r.diagonalPerAnswer].sort((x, y) => y.value - x.value)[0];
    const copy = [...r.copy].sort((x, y) => y.longestRun - x.longestRun)[0];
    const parts = [
      top ? `diagonal highest on turn ${top.turn} (${f(top.value)})` : 'no prior assistant answer in context',
      copy ? `longest copied run ${copy.longestRun} tokens (turn ${copy.turn})` : '',
    ].filter(Boolean);
    console.log(`  ${r.label}: ${parts.join('; ')}`);
    if (r.sweep) console.log(`    sweep prior: ${r.sweep.map((s) => `t${s.turn} ${f(s.ratios.prior)}`).join('  ')}`);
    if (r.layers) printLayers(r.layers);
    if (r.answer) printAnswer(r.label, r.answer);
  }
  console.log('');
}

/** Each later model against the first, per policy: the difference and the change in per cent. */
export function printModelDeltas(runs: { label: string; results: PolicyResult[] }[]): void {
  const [base, ...others] = runs;
  const pct = (b: number, a: number) => (a !== 0 ? `${(((b - a) / a) * 100).toFixed(1)} %` : '—');
  for (const o of others) {
    const pairs = o.results.map((r) => [base!.results.find((x) => x.policy === r.policy)!, r] as const);
    const same = pairs.every(([a, r]) => sameTokens(a, r));
    console.log(`${o.label} against ${base!.label}${same ? '' : ' (their tokenizers differ: shares and ratios compare, token positions do not)'}:`);
    for (const [a, r] of pairs) {
      console.log(
        `  ${r.label.padEnd(14)} prior ${f(r.ratios.prior)} vs ${f(a.ratios.prior)} (${pct(r.ratios.prior, a.ratios.prior)})   diagonal ${f(r.diagonal)} vs ${f(a.diagonal)} (${pct(r.diagonal, a.diagonal)})`,
      );
    }
  }
}

import { readFile, writeFile } from 'node:fs/promises';
import { analyzePolicy, SummaryCache, type AnalysisOptions, type PolicyResult } from '../analysis/analyze';
import { roundsSweep, sweepPoint, type SweepPoint } from '../analysis/sweep';
import { parseConversation, parseJsonl } from '../conversation/parse';
import { describeIssue, type Conversation } from '../conversation/types';
import { parsePolicy, type Policy } from '../context/policy';
import { CATEGORIES } from '../metrics/categories';
import type { AttentionSlab } from '../metrics/slab';
import type { OpenModel } from '../runtime/open-model';

export interface AnalyzeArgs extends AnalysisOptions {
  policies: Policy[];
  sweep: boolean;
  json: boolean;
  /** analyze --json: include the head-mean attention rows of the answer's tokens. */
  dumpAttention?: boolean;
}

const f = (v: number) => v.toFixed(4);

/** One conversation, every policy: the results as the README's JSON contract describes. */
async function analyzeAll(model: OpenModel, conv: Conversation, a: AnalyzeArgs): Promise<(PolicyResult & { sweep?: SweepPoint[] })[]> {
  const summaries = new SummaryCache(model, conv);
  const out = [];
  for (const p of a.policies) {
    const { dumpAttention, turn, ...metricOptions } = a;
    const r = await analyzePolicy(model, conv, p, { ...metricOptions, ...(turn !== undefined && { turn }), ...(dumpAttention && { keepAttention: 'answer' as const }) }, summaries);
    out.push(a.sweep ? { ...r, sweep: await roundsSweep(model, conv, p, { ...metricOptions, ...(turn !== undefined && { upToTurn: turn }), known: r, summaries }) } : r);
  }
  return out;
}

/** The answer's head-mean rows as nested arrays, one per answer token (the --dump-attention contract). */
function answerRowsJson(mean: AttentionSlab): number[][] {
  return Array.from({ length: mean.rows }, (_, i) => Array.from(mean.data.subarray(i * mean.seqLen, (i + 1) * mean.seqLen)));
}

export async function analyzeCommand(model: OpenModel, file: string, a: AnalyzeArgs, modelDir: string): Promise<void> {
  const parsed = parseConversation(await readFile(file, 'utf8'));
  for (const i of parsed.issues) process.stderr.write(`${file}: ${describeIssue(i)}\n`);
  if (!parsed.conversation) throw new InputError(`${file}: the conversation cannot be analysed (see above)`);
  const results = await analyzeAll(model, parsed.conversation, a);
  if (a.json) {
    const doc = {
      model: modelDir,
      backend: model.session.report.backend,
      computeDtype: model.graph.computeDtype,
      conversation: { file, format: parsed.format, messages: parsed.conversation.messages.length, warnings: parsed.issues.map(describeIssue) },
      results: results.map(({ attention, ...figures }) => (a.dumpAttention && attention ? { ...figures, attention: answerRowsJson(attention.mean) } : figures)),
    };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
    return;
  }
  const r0 = results[0]!;
  for (const n of [...new Set(results.flatMap((r) => r.notes))]) process.stderr.write(`${file}: note: ${n}\n`);
  console.log(`${modelDir} (${model.checkpoint.spec.family}, ${model.session.report.backend}) · ${file} · turn ${r0.turn} · layer ${r0.layer} · r = ${r0.radius}`);
  console.log(`${'policy'.padEnd(14)} ${'tokens'.padStart(6)} ${CATEGORIES.map((c) => c.padStart(8)).join('')} ${'diagonal'.padStart(9)} ${'context'.padStart(8)} ${'prefill'.padStart(8)}`);
  for (const r of results) {
    const c = r.cost[r.cost.length - 1]!;
    console.log(`${r.label.padEnd(14)} ${String(r.tokens.length).padStart(6)} ${CATEGORIES.map((k) => f(r.ratios[k]).padStart(8)).join('')} ${f(r.diagonal).padStart(9)} ${String(c.contextTokens).padStart(8)} ${String(c.prefilled).padStart(8)}`);
  }
  for (const r of results) {
    const top = [...r.diagonalPerAnswer].sort((x, y) => y.value - x.value)[0];
    const copy = [...r.copy].sort((x, y) => y.longestRun - x.longestRun)[0];
    const parts = [
      top ? `diagonal highest on round ${top.round} (${f(top.value)})` : 'no earlier answer in context',
      copy ? `longest copied run ${copy.longestRun} tokens (round ${copy.round})` : '',
    ].filter(Boolean);
    console.log(`  ${r.label}: ${parts.join('; ')}`);
    if (r.sweep) console.log(`    sweep prior: ${r.sweep.map((s) => `t${s.turn} ${f(s.ratios.prior)}`).join('  ')}`);
  }
}

/** Bad input from the person (not a bug): printed without a stack trace. */
export class InputError extends Error {
  override name = 'InputError';
}

const CSV_HEADER = ['line', 'policy', 'turn', 'tokens', ...CATEGORIES, 'diagonal', 'context_tokens', 'prefilled'];

export async function batchCommand(model: OpenModel, file: string, a: AnalyzeArgs, out: string | undefined): Promise<void> {
  const entries = parseJsonl(await readFile(file, 'utf8'));
  const rows: string[] = [CSV_HEADER.join(',')];
  const sums = new Map<string, { n: number; prior: number; diagonal: number }>();
  let ok = 0;
  let skipped = 0;
  const bar = (done: number) => {
    const w = 24;
    const filled = Math.round((done / Math.max(1, entries.length)) * w);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(w - filled)}] ${done}/${entries.length} conversations`);
  };
  bar(0);
  for (const [k, { line, result }] of entries.entries()) {
    const errors = result.issues.filter((i) => i.severity === 'error');
    try {
      if (!result.conversation) throw new InputError(errors.map(describeIssue).join('; '));
      for (const r of await analyzeAll(model, result.conversation, { ...a, dumpAttention: false })) {
        const points = r.sweep ?? [sweepPoint(r)];
        for (const s of points) {
          rows.push([line, r.policy, s.turn, s.tokens, ...CATEGORIES.map((c) => s.ratios[c].toFixed(6)), s.diagonal.toFixed(6), s.contextTokens, s.prefilled].join(','));
          const agg = sums.get(r.label) ?? { n: 0, prior: 0, diagonal: 0 };
          sums.set(r.label, { n: agg.n + 1, prior: agg.prior + s.ratios.prior, diagonal: agg.diagonal + s.diagonal });
        }
      }
      ok++;
    } catch (e) {
      skipped++;
      process.stderr.write(`\n${file}: line ${line}: skipped: ${(e as Error).message}\n`);
    }
    bar(k + 1);
  }
  process.stderr.write('\n');
  const csv = `${rows.join('\n')}\n`;
  if (out) await writeFile(out, csv);
  else process.stdout.write(csv);
  process.stderr.write(`${ok} of ${entries.length} conversations analysed, ${skipped} skipped${out ? `; ${rows.length - 1} rows written to ${out}` : ''}\n`);
  for (const [label, s] of sums) process.stderr.write(`  ${label.padEnd(14)} mean prior ${f(s.prior / s.n)}  mean diagonal ${f(s.diagonal / s.n)}  (${s.n} rows)\n`);
  if (ok === 0) throw new InputError(`${file}: no conversation could be analysed`);
}

export function parsePolicies(specs: string[] | undefined): Policy[] {
  return (specs?.length ? specs : ['full']).map(parsePolicy);
}

import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { analyzePolicy, SummaryCache, type AnalysisOptions } from '../analysis/analyze';
import { turnsSweep, sweepPoint } from '../analysis/sweep';
import { parseConversation, parseJsonl } from '../conversation/parse';
import { describeIssue, type Conversation, type ParseResult } from '../conversation/types';
import { parsePolicy, type Policy } from '../context/policy';
import { answerRowsJson, csvField } from '../export/figures';
import { CATEGORIES } from '../metrics/categories';
import { precisionName } from '../model/precision/quantize';
import { type Analyzed, printModelDeltas, printTable } from './print-results';
import type { OpenModel } from '../runtime/open-model';
import { ablate, ablateNamed, answerJson, type HeadArgs, LAYER_CSV_HEADER, layerRows, layersJson } from './layer-commands';
import { InputError } from './input-error';
import { analyzeHeads } from '../analysis/heads';

export interface AnalyzeArgs extends AnalysisOptions, HeadArgs {
  policies: Policy[];
  sweep: boolean;
  json: boolean;
  /** analyze --json: include the head-mean attention rows of the answer's tokens. */
  dumpAttention?: boolean;
  /**
   * analyze (layer-commands.ts): --all-layers, every layer's and head's figures from one pass; --ablate L.H
   * (0-based) and --ablate-top K, heads switched off in every pass; --generate, each policy's greedy answer.
   */
  allLayers?: boolean;
  generate?: boolean;
}

const f = (v: number) => v.toFixed(4);

/** One conversation, every policy: the results as docs/command-line.md's JSON contract describes. */
async function analyzeAll(model: OpenModel, conv: Conversation, a: AnalyzeArgs): Promise<Analyzed[]> {
  const summaries = new SummaryCache(model, conv);
  const out = [];
  for (const p of a.policies) {
    const { dumpAttention, turn, allLayers, generate: _g, ...metricOptions } = a;
    const r = await analyzePolicy(
      model,
      conv,
      p,
      { ...metricOptions, ...(turn !== undefined && { turn }), ...(dumpAttention && { keepAttention: 'answer' as const }) },
      summaries,
    );
    const layers = allLayers ? layersJson(await analyzeHeads(model, conv, p, { ...(turn !== undefined && { turn }), radius: r.radius }, summaries)) : undefined;
    const answer = a.generate ? await answerJson(model, conv, p, r.turn, summaries) : undefined;
    const sweep = a.sweep
      ? await turnsSweep(model, conv, p, { ...metricOptions, ...(turn !== undefined && { upToTurn: turn }), known: r, summaries })
      : undefined;
    out.push({ ...r, ...(sweep && { sweep }), ...(layers && { layers }), ...(answer && { answer }) });
  }
  return out;
}

/** A model the command runs on: opened when its turn comes and released after, so two never share memory. */
export interface ModelToRun {
  label: string;
  open(): Promise<OpenModel>;
}

/** Runs `work` on each model in turn, releasing each before the next opens. */
export async function eachModel<T>(models: ModelToRun[], work: (m: OpenModel, label: string) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (const { label, open } of models) {
    const m = await open();
    try {
      out.push(await work(m, label));
    } finally {
      await m.session.release();
    }
  }
  return out;
}

export async function analyzeCommand(models: ModelToRun[], file: string, a: AnalyzeArgs): Promise<void> {
  const parsed = parseConversation(await readFile(file, 'utf8'));
  for (const i of parsed.issues) process.stderr.write(`${file}: ${describeIssue(i)}\n`);
  if (!parsed.conversation) throw new InputError(`${file}: the conversation cannot be analysed (see above)`);
  const conversation = { file, format: parsed.format, messages: parsed.conversation.messages.length, warnings: parsed.issues.map(describeIssue) };
  const runs = await eachModel(models, async (model, label) => {
    const ablation = await ablate(model, parsed.conversation!, a);
    return { label, model, ablation, results: await analyzeAll(model, parsed.conversation!, a) };
  });
  if (a.json) {
    const docs = runs.map(({ label, model, ablation, results }) => ({
      model: label,
      ablation,
      backend: model.session.report.backend,
      computeDtype: model.graph.computeDtype,
      precision: precisionName(model.graph.quant, model.checkpoint.spec.awq),
      template: model.tokenizer.fallbackTemplate ?? 'own',
      results: results.map(({ attention, ...figures }) => (a.dumpAttention && attention ? { ...figures, attention: answerRowsJson(attention.mean) } : figures)),
    }));
    // One model: the documented single-model object; several: the conversation once, then one entry per model.
    const doc = docs.length === 1 ? { ...docs[0]!, conversation, results: docs[0]!.results } : { conversation, models: docs };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
    return;
  }
  for (const { label, model, ablation, results } of runs) {
    if (ablation) console.log(`heads switched off (${ablation.kind} ablation, ${ablation.chosen}): ${ablation.heads.join(', ')}`);
    printTable(file, label, model, results);
  }
  if (runs.length > 1) printModelDeltas(runs);
}

export { InputError } from './input-error';

const CSV_HEADER = ['line', 'policy', 'turn', 'tokens', ...CATEGORIES, 'diagonal', 'context_tokens', 'prefilled'];

/** Where batch writes, checked before the model loads: a folder, or a file in a folder that does not exist, fails after all the work otherwise. */
export function checkOut(out: string | undefined): void {
  if (out === undefined) return;
  if (existsSync(out) && statSync(out).isDirectory()) throw new InputError(`--out ${out} is a folder: give a file name (e.g. ${join(out, 'results.csv')})`);
  const folder = dirname(resolve(out));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new InputError(`--out ${out}: the folder ${folder} does not exist`);
}

export const MAX_SKIP_MESSAGES = 20;
/** A skipped line's reason, one line (an error's message, never its stack). */
export const cliError = (e: unknown) =>
  String((e as Error)?.message ?? e)
    .split('\n')[0]!
    .slice(0, 500);

/** Each policy's mean prior share and diagonal ratio over the rows written, for the closing summary. */
export type BatchSums = Map<string, { n: number; prior: number; diagonal: number }>;

/** One conversation's CSV rows, every policy (every turn with --sweep); throws when it cannot be analysed. */
export async function conversationRows(
  model: OpenModel,
  label: string,
  several: boolean,
  line: number,
  result: ParseResult,
  a: AnalyzeArgs,
  sums: BatchSums,
): Promise<string[]> {
  if (!result.conversation)
    throw new InputError(
      result.issues
        .filter((i) => i.severity === 'error')
        .map(describeIssue)
        .join('; '),
    );
  const lines: string[] = [];
  for (const r of await analyzeAll(model, result.conversation, { ...a, dumpAttention: false })) {
    for (const row of layerRows(line, r)) lines.push((several ? [csvField(label), ...row] : row).join(','));
    for (const s of r.sweep ?? [sweepPoint(r)]) {
      const row = [line, r.policy, s.turn, s.tokens, ...CATEGORIES.map((c) => s.ratios[c].toFixed(6)), s.diagonal.toFixed(6), s.contextTokens, s.prefilled];
      if (!a.allLayers) lines.push((several ? [csvField(label), ...row] : row).join(','));
      const key = several ? `${label} · ${r.label}` : r.label;
      const agg = sums.get(key) ?? { n: 0, prior: 0, diagonal: 0 };
      sums.set(key, { n: agg.n + 1, prior: agg.prior + s.ratios.prior, diagonal: agg.diagonal + s.diagonal });
    }
  }
  return lines;
}

/** The batch CSV's header (with a leading model column when several models run). */
export const batchHeader = (several: boolean, allLayers = false): string => {
  const header = allLayers ? LAYER_CSV_HEADER : CSV_HEADER;
  return (several ? ['model', ...header] : header).join(',');
};

/** The closing summary on stderr: counts, then each policy's means. */
export function printBatchSummary(ok: number, skipped: number, total: number, unit: string, where: string, sums: BatchSums): void {
  process.stderr.write(`${ok} of ${total} ${unit} analysed, ${skipped} skipped${where}\n`);
  for (const [label, s] of sums)
    process.stderr.write(`  ${label.padEnd(14)} mean prior ${f(s.prior / s.n)}  mean diagonal ${f(s.diagonal / s.n)}  (${s.n} rows)\n`);
}

/** Exit codes of batch: every line analysed, some lines skipped (the rest written), interrupted. */
export const BATCH_EXIT = { ok: 0, skipped: 2, interrupted: 130 } as const;

/**
 * One CSV row per conversation × policy (× turn with --sweep), each written as it finishes: to stdout,
 * or to `out`.partial, renamed to `out` at the end or when interrupted (Ctrl-C), so the file at `out` is
 * always a valid CSV of what was done, never an older run's. Returns the exit code.
 */
export async function batchCommand(models: ModelToRun[], file: string, a: AnalyzeArgs, out: string | undefined): Promise<number> {
  checkOut(out);
  const entries = parseJsonl(await readFile(file, 'utf8'));
  const partial = out && `${out}.partial`;
  const fd = partial ? openSync(partial, 'w') : 1;
  let rows = 0;
  const write = (line: string) => writeSync(fd, `${line}\n`);
  // Several models: a leading model column (one model keeps the documented columns).
  const several = models.length > 1;
  write(batchHeader(several, a.allLayers));
  const total = entries.length * models.length;
  const unit = several ? 'conversation × model runs' : 'conversations';
  const sums: BatchSums = new Map();
  let ok = 0;
  let skipped = 0;
  let done = 0;
  const finish = () => {
    if (partial) {
      closeSync(fd);
      renameSync(partial, out!);
    }
  };
  const onInterrupt = () => {
    finish();
    process.stderr.write(`\ninterrupted after ${done} of ${total} ${unit}: ${rows} rows${out ? ` in ${out}` : ''} (a partial result)\n`);
    process.exit(BATCH_EXIT.interrupted);
  };
  process.once('SIGINT', onInterrupt);
  const bar = () => {
    const w = 24;
    const filled = Math.round((done / Math.max(1, total)) * w);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(w - filled)}] ${done}/${total} ${unit}`);
  };
  try {
    bar();
    await eachModel(models, async (model, label) => {
      ablateNamed(model, a);
      for (const { line, result } of entries) {
        try {
          const lines = await conversationRows(model, label, several, line, result, a, sums);
          // A conversation's rows go out together: an interrupted run holds whole conversations only.
          for (const l of lines) write(l);
          rows += lines.length;
          ok++;
        } catch (e) {
          skipped++;
          // A binary or wholly broken file would print one line per line of it: the first few, then a count.
          if (skipped <= MAX_SKIP_MESSAGES) process.stderr.write(`\n${file}: line ${line}: skipped: ${cliError(e)}\n`);
          else if (skipped === MAX_SKIP_MESSAGES + 1) process.stderr.write(`\n${file}: more lines skipped; only their count is given below\n`);
        }
        done++;
        bar();
        // The passes resolve as microtasks: without a turn of the event loop, Ctrl-C would wait for the end.
        await new Promise((r) => setImmediate(r));
      }
    });
  } finally {
    process.off('SIGINT', onInterrupt);
    finish();
  }
  process.stderr.write('\n');
  printBatchSummary(ok, skipped, total, unit, out ? `; ${rows} rows written to ${out}` : '', sums);
  if (ok === 0) throw new InputError(`${file}: no conversation could be analysed`);
  return skipped ? BATCH_EXIT.skipped : BATCH_EXIT.ok;
}

export function parsePolicies(specs: string[] | undefined): Policy[] {
  return (specs?.length ? specs : ['full']).map(parsePolicy);
}

import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonl } from '../conversation/parse';
import { precisionName } from '../model/precision/quantize';
import type { OpenModel } from '../runtime/open-model';
import {
  BATCH_EXIT,
  batchHeader,
  cliError,
  conversationRows,
  InputError,
  MAX_SKIP_MESSAGES,
  printBatchSummary,
  type AnalyzeArgs,
  type BatchSums,
  type ModelToRun,
} from './analysis-commands';
import { readManifest, settingsDiff, sha256File, takeLock, writeAtomic, type Manifest } from './part-files';
import { inShard, partName, type Shard } from './shard';

/** A model as a manifest names it: its label and what identifies its files (a folder's sha256s, a Hub commit). */
export interface ShardModel extends ModelToRun {
  identity(): Record<string, unknown>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** This tool's name, version and commit (null outside a git checkout: an npm install, a container). */
export function toolIdentity(): Manifest['tool'] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    /* not a checkout */
  }
  return { name: pkg.name, version: pkg.version, commit };
}

export interface ShardRun {
  shard: Shard;
  /** The options the rows depend on (policies, turn, layer, radius, sweep, precision, backend, device, dtype, date, template). */
  options: Record<string, unknown>;
}

/**
 * One shard of a batch: the lines (n − 1) mod N = K of the input, written to DIR/part-K-of-N.csv with its
 * manifest. Rerun, it continues where it stopped (after checking it is the same run), and a kill at any
 * moment leaves files a rerun completes to the same bytes as an uninterrupted run.
 */
export async function shardBatchCommand(models: ShardModel[], file: string, a: AnalyzeArgs, outDir: string, run: ShardRun): Promise<number> {
  const parent = dirname(resolve(outDir));
  if (!existsSync(parent)) throw new InputError(`--out ${outDir}: the folder ${parent} does not exist`);
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    throw new InputError(`--out ${outDir} is a file: with --shard, --out names a folder that holds every shard's part`);
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, partName(run.shard));
  const [csvPath, partialPath, manifestPath] = [`${base}.csv`, `${base}.csv.partial`, `${base}.json`];
  const release = takeLock(`${base}.lock`);
  try {
    const text = await readFile(file, 'utf8');
    const entries = parseJsonl(text).filter((e) => inShard(e.line, run.shard));
    const settings = {
      input: { file: basename(file), sha256: sha256File(file) },
      models: models.map((m) => ({ label: m.label, ...m.identity() })),
      shards: run.shard.count,
      ...run.options,
    };
    const now = () => new Date().toISOString();
    const manifest = readManifest(manifestPath);
    if (manifest) {
      const diff = settingsDiff(manifest.settings, settings);
      if (diff.length)
        throw new InputError(
          `${manifestPath} was made by a different run; this one differs in ${diff.join('; ')}. Use another --out folder, or remove this shard's files to start it afresh`,
        );
    }
    if (manifest?.finished && existsSync(csvPath)) {
      process.stderr.write(
        `${partName(run.shard)}: already complete (${manifest.done.length} conversations, ${manifest.skipped.length} skipped; ${csvPath}); nothing to do\n`,
      );
      return manifest.skipped.length ? BATCH_EXIT.skipped : BATCH_EXIT.ok;
    }
    // A kill between the CSV's rename and the manifest's last write: the rows are whole, the rename is undone.
    if (existsSync(csvPath) && !existsSync(partialPath)) renameSync(csvPath, partialPath);
    const m: Manifest = manifest
      ? { ...manifest, host: hostname(), pid: process.pid, updated: now(), finished: null }
      : {
          tool: toolIdentity(),
          settings,
          shard: { ...run.shard },
          ran: [],
          host: hostname(),
          pid: process.pid,
          started: now(),
          updated: now(),
          finished: null,
          done: [],
          skipped: [],
          csvBytes: 0,
        };
    if (manifest) process.stderr.write(`${partName(run.shard)}: resuming: ${m.done.length} conversations done and ${m.skipped.length} skipped before, kept\n`);
    process.stderr.write(`${partName(run.shard)}: shard ${run.shard.index} of ${run.shard.count} (${run.shard.from}): ${entries.length} lines of ${file}\n`);
    // Whatever follows the last recorded conversation was written by a run killed before recording it.
    const fd = openSync(partialPath, existsSync(partialPath) ? 'r+' : 'w+');
    ftruncateSync(fd, m.csvBytes);
    let at = m.csvBytes;
    const append = (s: string) => {
      const bytes = Buffer.from(s);
      writeSync(fd, bytes, 0, bytes.length, at);
      at += bytes.length;
    };
    const several = models.length > 1;
    if (at === 0) append(`${batchHeader(several)}\n`);
    const record = () => {
      fsyncSync(fd);
      m.csvBytes = at;
      m.updated = now();
      writeAtomic(manifestPath, `${JSON.stringify(m, null, 1)}\n`);
    };
    record();
    const seen = new Set([...m.done, ...m.skipped].map((d) => `${d.model}:${d.line}`));
    const left = entries.length * models.length - seen.size;
    const sums: BatchSums = new Map();
    let ok = 0;
    let skipped = 0;
    for (const [mi, spec] of models.entries()) {
      const todo = entries.filter((e) => !seen.has(`${mi}:${e.line}`));
      if (!todo.length) continue;
      const model: OpenModel = await spec.open();
      m.ran[mi] = {
        label: spec.label,
        backend: model.session.report.backend,
        device: model.session.report.device,
        precision: precisionName(model.graph.quant, model.checkpoint.spec.awq),
        computeDtype: model.graph.computeDtype,
      };
      try {
        for (const { line, result } of todo) {
          try {
            const rows = await conversationRows(model, spec.label, several, line, result, a, sums);
            append(rows.map((r) => `${r}\n`).join(''));
            m.done.push({ model: mi, line, rows: rows.length });
            ok++;
          } catch (e) {
            skipped++;
            m.skipped.push({ model: mi, line, reason: cliError(e) });
            if (skipped <= MAX_SKIP_MESSAGES) process.stderr.write(`${file}: line ${line}: skipped: ${cliError(e)}\n`);
          }
          record();
          await new Promise((r) => setImmediate(r));
        }
      } finally {
        await model.session.release();
      }
    }
    m.finished = now();
    record();
    closeSync(fd);
    renameSync(partialPath, csvPath);
    printBatchSummary(
      ok,
      skipped,
      left,
      seen.size ? `remaining conversations (${seen.size} recorded before)` : 'conversations',
      `; ${csvPath} has ${m.done.length} done, ${m.skipped.length} skipped`,
      sums,
    );
    return m.skipped.length ? BATCH_EXIT.skipped : BATCH_EXIT.ok;
  } finally {
    release();
  }
}

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
import { ablateNamed } from './layer-commands';
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

/** --out must be a folder (made when missing) in a folder that exists. */
function checkOutDir(outDir: string): void {
  const parent = dirname(resolve(outDir));
  if (!existsSync(parent)) throw new InputError(`--out ${outDir}: the folder ${parent} does not exist`);
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) {
    throw new InputError(`--out ${outDir} is a file: with --shard, --out names a folder that holds every shard's part`);
  }
  mkdirSync(outDir, { recursive: true });
}

/** The shard's manifest to write to: the earlier run's (checked to be the same run) or a new one. */
function manifestFor(manifestPath: string, settings: Record<string, unknown>, shard: Shard): { m: Manifest; resumed: Manifest | null } {
  const now = new Date().toISOString();
  const manifest = readManifest(manifestPath);
  if (manifest) {
    const diff = settingsDiff(manifest.settings, settings);
    if (diff.length) {
      throw new InputError(
        `${manifestPath} was made by a different run; this one differs in ${diff.join('; ')}. Use another --out folder, or remove this shard's files to start it afresh`,
      );
    }
    return { m: { ...manifest, host: hostname(), pid: process.pid, updated: now, finished: null }, resumed: manifest };
  }
  const fresh: Manifest = {
    tool: toolIdentity(),
    settings,
    shard: { ...shard },
    ran: [],
    host: hostname(),
    pid: process.pid,
    started: now,
    updated: now,
    finished: null,
    done: [],
    skipped: [],
    csvBytes: 0,
  };
  return { m: fresh, resumed: null };
}

/** The part's CSV, open for appending after the last recorded conversation; `record` makes what was written durable. */
function partWriter(partialPath: string, manifestPath: string, m: Manifest) {
  // Whatever follows the last recorded conversation was written by a run killed before recording it.
  const fd = openSync(partialPath, existsSync(partialPath) ? 'r+' : 'w+');
  ftruncateSync(fd, m.csvBytes);
  let at = m.csvBytes;
  return {
    empty: () => at === 0,
    append(s: string) {
      const bytes = Buffer.from(s);
      writeSync(fd, bytes, 0, bytes.length, at);
      at += bytes.length;
    },
    record() {
      fsyncSync(fd);
      m.csvBytes = at;
      m.updated = new Date().toISOString();
      writeAtomic(manifestPath, `${JSON.stringify(m, null, 1)}\n`);
    },
    close: () => closeSync(fd),
  };
}

/**
 * One shard of a batch: the lines (n − 1) mod N = K of the input, written to DIR/part-K-of-N.csv with its
 * manifest. Rerun, it continues where it stopped (after checking it is the same run), and a kill at any
 * moment leaves files a rerun completes to the same bytes as an uninterrupted run.
 */
export async function shardBatchCommand(models: ShardModel[], file: string, a: AnalyzeArgs, outDir: string, run: ShardRun): Promise<number> {
  checkOutDir(outDir);
  const name = partName(run.shard);
  const base = join(outDir, name);
  const [csvPath, partialPath, manifestPath] = [`${base}.csv`, `${base}.csv.partial`, `${base}.json`];
  const release = takeLock(`${base}.lock`);
  try {
    const entries = parseJsonl(await readFile(file, 'utf8')).filter((e) => inShard(e.line, run.shard));
    const settings = {
      input: { file: basename(file), sha256: sha256File(file) },
      models: models.map((m) => ({ label: m.label, ...m.identity() })),
      shards: run.shard.count,
      ...run.options,
    };
    const { m, resumed } = manifestFor(manifestPath, settings, run.shard);
    if (resumed?.finished && existsSync(csvPath)) {
      process.stderr.write(`${name}: already complete (${resumed.done.length} conversations, ${resumed.skipped.length} skipped; ${csvPath}); nothing to do\n`);
      return resumed.skipped.length ? BATCH_EXIT.skipped : BATCH_EXIT.ok;
    }
    // A kill between the CSV's rename and the manifest's last write: the rows are whole, the rename is undone.
    if (existsSync(csvPath) && !existsSync(partialPath)) renameSync(csvPath, partialPath);
    if (resumed) process.stderr.write(`${name}: resuming: ${m.done.length} conversations done and ${m.skipped.length} skipped before, kept\n`);
    process.stderr.write(`${name}: shard ${run.shard.index} of ${run.shard.count} (${run.shard.from}): ${entries.length} lines of ${file}\n`);
    const part = partWriter(partialPath, manifestPath, m);
    if (part.empty()) part.append(`${batchHeader(models.length > 1, a.allLayers)}\n`);
    part.record();
    const seen = new Set([...m.done, ...m.skipped].map((d) => `${d.model}:${d.line}`));
    const left = entries.length * models.length - seen.size;
    const sums: BatchSums = new Map();
    const { ok, skipped } = await runShard(models, entries, seen, m, part, file, a, sums);
    m.finished = new Date().toISOString();
    part.record();
    part.close();
    renameSync(partialPath, csvPath);
    const what = seen.size ? `remaining conversations (${seen.size} recorded before)` : 'conversations';
    printBatchSummary(ok, skipped, left, what, `; ${csvPath} has ${m.done.length} done, ${m.skipped.length} skipped`, sums);
    return m.skipped.length ? BATCH_EXIT.skipped : BATCH_EXIT.ok;
  } finally {
    release();
  }
}

/** Each model in turn over the shard's conversations not yet recorded, each recorded as it is written. */
async function runShard(
  models: ShardModel[],
  entries: ReturnType<typeof parseJsonl>,
  seen: Set<string>,
  m: Manifest,
  part: ReturnType<typeof partWriter>,
  file: string,
  a: AnalyzeArgs,
  sums: BatchSums,
): Promise<{ ok: number; skipped: number }> {
  let ok = 0;
  let skipped = 0;
  const several = models.length > 1;
  for (const [mi, spec] of models.entries()) {
    const todo = entries.filter((e) => !seen.has(`${mi}:${e.line}`));
    if (!todo.length) continue;
    const model: OpenModel = await spec.open();
    ablateNamed(model, a);
    const { report } = model.session;
    m.ran[mi] = {
      label: spec.label,
      backend: report.backend,
      device: report.device,
      precision: precisionName(model.graph.quant, model.checkpoint.spec.awq),
      computeDtype: model.graph.computeDtype,
    };
    try {
      for (const { line, result } of todo) {
        try {
          const rows = await conversationRows(model, spec.label, several, line, result, a, sums);
          part.append(rows.map((r) => `${r}\n`).join(''));
          m.done.push({ model: mi, line, rows: rows.length });
          ok++;
        } catch (e) {
          skipped++;
          m.skipped.push({ model: mi, line, reason: cliError(e) });
          if (skipped <= MAX_SKIP_MESSAGES) process.stderr.write(`${file}: line ${line}: skipped: ${cliError(e)}\n`);
        }
        part.record();
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      await model.session.release();
    }
  }
  return { ok, skipped };
}

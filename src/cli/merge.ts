import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkOut, InputError } from './analysis-commands';
import { readManifest, settingsDiff, writeAtomic, type Manifest } from './part-files';

/** Exit codes of merge: written; parts missing or unfinished (named on stderr). */
export const MERGE_EXIT = { ok: 0, missing: 2 } as const;

/**
 * The shards' parts in DIR, as one CSV: every part present, finished and made by one run, the rows in line
 * order (model by model), byte for byte what one unsharded `batch` over the same file writes.
 */
export function mergeCommand(dir: string, out: string | undefined): number {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError(`merge: ${dir} is not a folder (give the --out folder the shards wrote to)`);
  checkOut(out);
  const names = readdirSync(dir)
    .map((f) => /^part-(\d+)-of-(\d+)\.json$/.exec(f))
    .filter((m) => m !== null);
  if (!names.length) throw new InputError(`merge: ${dir} holds no part-K-of-N.json: no shard has run with --out ${dir}`);
  const counts = [...new Set(names.map((m) => Number(m[2])))];
  if (counts.length > 1)
    throw new InputError(
      `merge: ${dir} holds parts of ${counts.join(' and ')} shards: runs with different --shard counts wrote here; keep one run's parts per folder`,
    );
  const N = counts[0]!;
  const parts: { k: number; m: Manifest; csv: string }[] = [];
  const missing: string[] = [];
  for (let k = 0; k < N; k++) {
    const base = join(dir, `part-${k}-of-${N}`);
    const m = readManifest(`${base}.json`);
    const lines = `lines n with (n − 1) mod ${N} = ${k}`;
    if (!m) missing.push(`shard ${k}: never ran (${lines})`);
    else if (!m.finished || !existsSync(`${base}.csv`)) {
      const last = m.done.length ? Math.max(...m.done.map((d) => d.line)) : null;
      missing.push(
        `shard ${k}: unfinished, ${m.done.length + m.skipped.length} conversations recorded${last ? ` (up to line ${last})` : ''}; the rest of its ${lines} missing. Rerun it: it resumes`,
      );
    } else parts.push({ k, m, csv: `${base}.csv` });
  }
  if (missing.length) {
    for (const s of missing) process.stderr.write(`merge: ${s}\n`);
    process.stderr.write(`merge: ${missing.length} of ${N} shards missing or unfinished; nothing written\n`);
    return MERGE_EXIT.missing;
  }
  const first = parts[0]!;
  for (const p of parts.slice(1)) {
    const diff = settingsDiff(first.m.settings, p.m.settings);
    if (diff.length) throw new InputError(`merge: shard ${p.k} was made by a different run than shard 0: ${diff.join('; ')}`);
  }
  // Each part's rows, cut into conversations by the manifest's row counts.
  let header: string | null = null;
  const rowsOf = new Map<string, string[]>();
  const skipped: Manifest['skipped'] = [];
  for (const p of parts) {
    const lines = readFileSync(p.csv, 'utf8').split('\n');
    if (lines.pop() !== '') throw new InputError(`merge: ${p.csv} does not end with a line break: it was changed after the shard wrote it`);
    const [head, ...rows] = lines;
    if (header !== null && head !== header) throw new InputError(`merge: ${p.csv} has another header than shard 0's`);
    header = head!;
    let at = 0;
    for (const d of p.m.done) {
      rowsOf.set(`${d.model}:${d.line}`, rows.slice(at, at + d.rows));
      at += d.rows;
    }
    if (at !== rows.length)
      throw new InputError(`merge: ${p.csv} holds ${rows.length} rows, its manifest ${at}: the part was changed after the shard wrote it`);
    skipped.push(...p.m.skipped);
  }
  const keys = [...rowsOf.keys()].map((k) => k.split(':').map(Number) as [number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const body = keys.flatMap(([mi, line]) => rowsOf.get(`${mi}:${line}`)!);
  const text = `${[header!, ...body].join('\n')}\n`;
  if (out) writeAtomic(out, text);
  else process.stdout.write(text);
  for (const s of skipped.sort((x, y) => x.model - y.model || x.line - y.line).slice(0, 20))
    process.stderr.write(`merge: line ${s.line} was skipped: ${s.reason}\n`);
  process.stderr.write(
    `merge: ${N} shards, ${keys.length} conversations, ${body.length} rows${skipped.length ? `, ${skipped.length} lines skipped by the shards` : ''}${out ? ` → ${out}` : ''}\n`,
  );
  return MERGE_EXIT.ok;
}

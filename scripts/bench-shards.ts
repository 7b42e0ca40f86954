/**
 * `npm run bench:shards`: a batch as one process with every core against N shards run side by side with
 * cores ÷ N threads each (conversations per minute, and each process's peak memory), whether the merged
 * shards are the single run's bytes, and what resuming costs (lines per second skipped). Writes
 * docs/bench/shards.md and .json.
 *   BENCH_SHARDS_MODELS=demo,135m   which models (the embedded demo model; SmolLM2-135M's shape, random weights)
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeTinyModel } from '../tests/helpers/tiny-model';
import { BENCH_MODELS } from '../tests/helpers/bench-shapes';

const OUT = '.tmp/bench-shards';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const CORES = cpus().length;
const examples = ['maze', 'arithmetic', 'mixed-chat', 'maze-shifted'].map((n) => JSON.stringify(JSON.parse(readFileSync(`examples/${n}.json`, 'utf8'))));
const LINES = 12;
const input = join(OUT, 'in.jsonl');
writeFileSync(input, `${Array.from({ length: LINES }, (_, i) => examples[i % 4]).join('\n')}\n`);
const POLICIES = ['--policy', 'full', '--policy', 'clip:2:1'];

/** Runs the CLI; resolves with its wall time and peak resident memory (VmHWM, sampled until it exits). */
function cli(args: string[]): Promise<{ ms: number; peakMiB: number; code: number | null; stderr: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/inertia-lens.mjs', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let peak = 0;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024);
    } catch {
      /* exited */
    }
  }, 50);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearInterval(timer);
      resolve({ ms: performance.now() - t0, peakMiB: Math.round(peak), code, stderr });
    }),
  );
}

const models: Record<string, string> = { demo: 'models/inertia-demo' };
const wanted = (process.env.BENCH_SHARDS_MODELS ?? 'demo,135m').split(',');
if (wanted.includes('135m')) models['135m'] = writeTinyModel(join(OUT, '135m'), { ...BENCH_MODELS['135m']!, dtype: 'BF16' });

const rows = [];
for (const [name, dir] of Object.entries(models).filter(([n]) => wanted.includes(n))) {
  for (const backend of ['wasm', 'native']) {
    const common = ['--model', dir, ...POLICIES, '--backend', backend];
    process.stderr.write(`${name} ${backend}: one process, ${CORES} threads … `);
    const single = join(OUT, `${name}-${backend}.csv`);
    const one = await cli(['batch', input, ...common, '--threads', String(CORES), '--out', single]);
    process.stderr.write(`${(one.ms / 1000).toFixed(1)} s\n`);
    const shardRuns = [];
    for (const n of [2, 4].filter((n) => n <= 2 * CORES)) {
      const parts = join(OUT, `${name}-${backend}-${n}`);
      const threads = Math.max(1, Math.floor(CORES / n));
      process.stderr.write(`${name} ${backend}: ${n} shards side by side, ${threads} thread(s) each … `);
      const t0 = performance.now();
      const runs = await Promise.all(
        Array.from({ length: n }, (_, k) => cli(['batch', input, ...common, '--threads', String(threads), '--shard', `${k}/${n}`, '--out', parts])),
      );
      const ms = performance.now() - t0;
      const merged = `${parts}.csv`;
      await cli(['merge', parts, '--out', merged]);
      const identical = readFileSync(merged, 'utf8') === readFileSync(single, 'utf8');
      process.stderr.write(`${(ms / 1000).toFixed(1)} s; merged ${identical ? 'identical to' : 'DIFFERENT from'} the single run\n`);
      shardRuns.push({
        shards: n,
        threads,
        ms,
        perMinute: (LINES / ms) * 60_000,
        peakMiB: Math.max(...runs.map((r) => r.peakMiB)),
        identical,
        failed: runs.filter((r) => r.code !== 0).map((r) => r.stderr.slice(-300)),
      });
    }
    rows.push({
      model: name,
      backend,
      lines: LINES,
      single: { threads: CORES, ms: one.ms, perMinute: (LINES / one.ms) * 60_000, peakMiB: one.peakMiB },
      sharded: shardRuns,
    });
  }
}

// Resume: a shard whose every line is recorded but not marked finished (a kill after its last row) rerun on
// 20,000 lines: it reads the input and the manifest, skips every line and never opens the model.
const big = join(OUT, 'big.jsonl');
const RESUME_LINES = 20_000;
writeFileSync(big, `${Array.from({ length: RESUME_LINES }, (_, i) => examples[i % 4]).join('\n')}\n`);
const rparts = join(OUT, 'resume');
mkdirSync(rparts);
const base = join(rparts, 'part-0-of-1');
// The manifest a finished run of this input would leave (its rows made up: resume never reads them).
const probe = await cli(['batch', input, '--model', 'models/inertia-demo', '--policy', 'full', '--shard', '0/1', '--out', join(OUT, 'probe')]);
if (probe.code !== 0) throw new Error(probe.stderr);
const m = JSON.parse(readFileSync(join(OUT, 'probe', 'part-0-of-1.json'), 'utf8'));
const { createHash } = await import('node:crypto');
m.settings.input = { file: 'big.jsonl', sha256: createHash('sha256').update(readFileSync(big)).digest('hex') };
const row = '1,full,2,100,0.1,0.1,0.1,0.1,0.6,0.1,100,100\n';
m.done = Array.from({ length: RESUME_LINES }, (_, i) => ({ model: 0, line: i + 1, rows: 1 }));
const csv = `line,policy,turn,tokens,sink,system,user,prior,current,diagonal,context_tokens,prefilled\n${row.repeat(RESUME_LINES)}`;
m.csvBytes = Buffer.byteLength(csv);
m.finished = null;
writeFileSync(`${base}.csv.partial`, csv);
writeFileSync(`${base}.json`, JSON.stringify(m));
const resume = await cli(['batch', big, '--model', 'models/inertia-demo', '--policy', 'full', '--shard', '0/1', '--out', rparts]);
if (resume.code !== 0) throw new Error(resume.stderr);
renameSync(`${base}.csv`, `${base}.done.csv`);
const doc = {
  when: new Date().toISOString().slice(0, 10),
  cores: CORES,
  rows,
  resume: { lines: RESUME_LINES, ms: resume.ms, linesPerSecond: (RESUME_LINES / resume.ms) * 1000, peakMiB: resume.peakMiB },
};
writeFileSync('docs/bench/shards.json', `${JSON.stringify(doc, null, 1)}\n`);
const md = [
  `# Sharded batch: throughput and resume\n\nLatest \`npm run bench:shards\` (${doc.when}), this ${CORES}-core machine. ${LINES} conversations (the four examples, repeated), policies Full and Clip-2→1, each batch run as the CLI runs it (its own process: start-up and model load included). "one process": \`--threads ${CORES}\`; "N shards": N processes side by side, \`--shard K/N --threads cores÷N\`. Peak: the largest process's VmHWM.\n`,
  '| model | runtime | one process (conv/min) | peak MiB | shards × threads | conv/min | ÷ one process | peak MiB per shard | merged = one process |',
  '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
  ...rows.flatMap((r) =>
    r.sharded.map(
      (s) =>
        `| ${r.model} | ${r.backend} | ${r.single.perMinute.toFixed(1)} | ${r.single.peakMiB} | ${s.shards} × ${s.threads} | ${s.perMinute.toFixed(1)} | ${(s.perMinute / r.single.perMinute).toFixed(2)} | ${s.peakMiB} | ${s.identical ? 'byte for byte' : '**differs**'}${s.failed.length ? ` (${s.failed.length} failed)` : ''} |`,
    ),
  ),
  `\nResume: a shard with all ${RESUME_LINES.toLocaleString('en-US')} lines recorded, rerun: ${(resume.ms / 1000).toFixed(1)} s in all (${Math.round(doc.resume.linesPerSecond).toLocaleString('en-US')} lines skipped per second, process start-up included; the model is never opened), peak ${resume.peakMiB} MiB.\n`,
];
writeFileSync('docs/bench/shards.md', md.join('\n'));
process.stdout.write(md.join('\n'));

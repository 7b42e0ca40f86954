import { execFile, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { inShard, parseShard } from '../../src/cli/shard';
import { writeTinyModel } from '../helpers/tiny-model';

const run = promisify(execFile);
const cli = (args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 26, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
const manifest = (dir: string, k: number, n: number) => JSON.parse(readFileSync(join(dir, `part-${k}-of-${n}.json`), 'utf8'));

describe('which lines a shard takes', () => {
  it('deals lines round-robin: every line in exactly one shard, shard sizes within one', () => {
    for (const n of [1, 3, 4, 7]) {
      const counts = Array(n).fill(0);
      for (let line = 1; line <= 50; line++) {
        const owners = Array.from({ length: n }, (_, k) => k).filter((k) => inShard(line, { index: k, count: n, from: '' }));
        expect(owners).toEqual([(line - 1) % n]);
        counts[owners[0]!]++;
      }
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    }
  });

  it('reads K and N from each scheduler, and says which it used', () => {
    expect(parseShard('2/4', {})).toEqual({ index: 2, count: 4, from: '--shard 2/4' });
    expect(parseShard('auto', { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3' })).toMatchObject({
      index: 3,
      count: 4,
      from: 'Slurm: SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_COUNT=4',
    });
    expect(parseShard('auto', { AWS_BATCH_JOB_ARRAY_INDEX: '1', AWS_BATCH_JOB_ARRAY_SIZE: '5' })).toMatchObject({ index: 1, count: 5 });
    expect(parseShard('auto', { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '2' })).toMatchObject({ index: 0, count: 2 });
    expect(parseShard('auto', { JOB_COMPLETION_INDEX: '6' }, 8)).toMatchObject({ index: 6, count: 8, from: 'Kubernetes: JOB_COMPLETION_INDEX=6, --shards 8' });
    // A task resubmitted alone is an array of one: --shards gives the whole array's size.
    const alone = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '1', SLURM_ARRAY_TASK_MIN: '2', SLURM_ARRAY_TASK_MAX: '2' };
    expect(() => parseShard('auto', alone)).toThrow(/this Slurm array runs 2–2, not 0–0: .*add --shards N/);
    expect(parseShard('auto', alone, 4)).toMatchObject({ index: 2, count: 4 });
  });

  it('refuses what cannot be a shard, saying why', () => {
    expect(() => parseShard('auto', {})).toThrow(/no scheduler's task index is set \(SLURM_ARRAY_TASK_ID, .*JOB_COMPLETION_INDEX\); give --shard K\/N/);
    expect(() => parseShard('auto', { JOB_COMPLETION_INDEX: '1' })).toThrow(
      /Kubernetes gives the task's index \(JOB_COMPLETION_INDEX\) but not how many there are: add --shards N/,
    );
    expect(() => parseShard('4/4', {})).toThrow(/K must be below N/);
    expect(() => parseShard('1of4', {})).toThrow(/--shard takes K\/N/);
    expect(() => parseShard('auto', { CLOUD_RUN_TASK_INDEX: 'x', CLOUD_RUN_TASK_COUNT: '2' })).toThrow(/CLOUD_RUN_TASK_INDEX="x" is not a whole number/);
  });
});

describe('inertia-lens batch --shard, and merge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'il-shards-'));
  const a = writeTinyModel(join(dir, 'a'), { family: 'qwen2', heads: 4, kvHeads: 2, seed: 71 });
  const b = writeTinyModel(join(dir, 'b'), { family: 'llama', heads: 4, kvHeads: 4, seed: 72 });
  const conv = (n: number) =>
    JSON.stringify(
      Array.from({ length: 2 * (1 + (n % 3)) }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: i % 2 ? `Action: ${['east', 'north', 'west'][(n + i) % 3]}` : `Position (${n},${i}).`,
      })),
    );
  const jsonl = join(dir, 'in.jsonl');
  // 13 lines, one of them broken: shards of unequal size, and a skipped line in one of them.
  writeFileSync(jsonl, `${Array.from({ length: 13 }, (_, i) => (i === 5 ? '{"messages": [' : conv(i))).join('\n')}\n`);
  const opts = ['--policy', 'full', '--policy', 'ao'];

  it('three shards of two models merge into the bytes one unsharded batch writes', async () => {
    const whole = join(dir, 'whole.csv');
    expect((await cli(['batch', jsonl, '--model', a, '--model', b, ...opts, '--out', whole])).code).toBe(2); // 2: a line skipped
    const parts = join(dir, 'parts');
    for (const k of [2, 0, 1]) {
      const r = await cli(['batch', jsonl, '--model', a, '--model', b, ...opts, '--shard', `${k}/3`, '--out', parts]);
      expect(r.stderr).toContain(`part-${k}-of-3: shard ${k} of 3 (--shard ${k}/3)`);
      expect(r.code).toBe(k === 2 ? 2 : 0); // line 6 is (6 − 1) mod 3 = 2's
    }
    const m = manifest(parts, 2, 3);
    expect(m.tool).toMatchObject({ name: 'inertia-lens', version: expect.any(String) });
    expect(m.settings.input.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.settings.models.map((x: { label: string }) => x.label)).toEqual([a, b]);
    expect(Object.keys(m.settings.models[0].files)).toEqual(['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    expect(m.settings).toMatchObject({ policies: ['full', 'ao'], shards: 3, quant: 'none', backend: 'wasm' });
    expect(m.skipped).toEqual([
      { model: 0, line: 6, reason: expect.stringContaining('invalid JSON') },
      { model: 1, line: 6, reason: expect.stringContaining('invalid JSON') },
    ]);
    expect(m.done.map((d: { line: number }) => d.line)).toEqual([3, 9, 12, 3, 9, 12]);
    expect(m.finished).not.toBeNull();
    const merged = join(dir, 'merged.csv');
    const r = await cli(['merge', parts, '--out', merged]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('merge: 3 shards, 24 conversations, 48 rows, 2 lines skipped by the shards');
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    // Rerun when complete: nothing is recomputed.
    const again = await cli(['batch', jsonl, '--model', a, '--model', b, ...opts, '--shard', '0/3', '--out', parts]);
    expect(again.stderr).toMatch(/part-0-of-3: already complete \(10 conversations, 0 skipped/);
  });

  it('merge names the shards missing or unfinished, exits 2 and writes nothing', async () => {
    const parts = join(dir, 'gaps');
    for (const k of [0, 2]) await cli(['batch', jsonl, '--model', a, ...opts, '--shard', `${k}/4`, '--out', parts]);
    const m = manifest(parts, 2, 4);
    writeFileSync(join(parts, 'part-2-of-4.json'), JSON.stringify({ ...m, finished: null }));
    const out = join(dir, 'gaps.csv');
    const r = await cli(['merge', parts, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('merge: shard 1: never ran (lines n with (n − 1) mod 4 = 1)');
    expect(r.stderr).toMatch(
      /merge: shard 2: unfinished, 3 conversations recorded \(up to line 11\); the rest of its lines n with \(n − 1\) mod 4 = 2 missing/,
    );
    expect(r.stderr).toContain('merge: shard 3: never ran');
    expect(existsSync(out)).toBe(false);
  });

  it('a shard killed with SIGKILL and rerun recomputes nothing it recorded and ends with the same bytes', async () => {
    const whole = join(dir, 'whole-a.csv');
    await cli(['batch', jsonl, '--model', a, ...opts, '--out', whole]);
    const parts = join(dir, 'killed');
    const child = spawn(process.execPath, ['bin/inertia-lens.mjs', 'batch', jsonl, '--model', a, ...opts, '--shard', '0/1', '--out', parts], {
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_c, sig) => resolve(sig)));
    const done = () => (existsSync(join(parts, 'part-0-of-1.json')) ? manifest(parts, 0, 1).done.length : 0);
    while (done() < 4) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = manifest(parts, 0, 1);
    expect(before.finished).toBeNull();
    // A row cut off mid-write, as a kill during the write leaves it.
    appendFileSync(join(parts, 'part-0-of-1.csv.partial'), '9,full,2,41,0.1');
    expect(existsSync(join(parts, 'part-0-of-1.lock'))).toBe(true); // left by the dead process: taken over
    const r = await cli(['batch', jsonl, '--model', a, ...opts, '--shard', '0/1', '--out', parts]);
    const recorded = before.done.length + before.skipped.length;
    expect(r.stderr).toContain(`resuming: ${before.done.length} conversations done and ${before.skipped.length} skipped before, kept`);
    // Only the lines not recorded were analysed (or skipped) in the rerun.
    const m = new RegExp(`^(\\d+) of ${13 - recorded} remaining conversations \\(${recorded} recorded before\\) analysed, (\\d+) skipped`, 'm').exec(r.stderr);
    expect(m).not.toBeNull();
    expect(Number(m![1]) + Number(m![2])).toBe(13 - recorded);
    expect(readFileSync(join(parts, 'part-0-of-1.csv'), 'utf8')).toBe(readFileSync(whole, 'utf8'));
    expect(existsSync(join(parts, 'part-0-of-1.lock'))).toBe(false);
  });

  it('refuses a rerun with other settings, naming them, and a second process on a live shard', async () => {
    const parts = join(dir, 'refusals');
    await cli(['batch', jsonl, '--model', a, ...opts, '--shard', '1/2', '--out', parts]);
    const other = await cli(['batch', jsonl, '--model', a, '--policy', 'full', '--radius', '3', '--shard', '1/2', '--out', parts]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(
      'part-1-of-2.json was made by a different run; this one differs in policies: was ["full","ao"], now ["full"]; radius: was null, now "3"',
    );
    writeFileSync(jsonl.replace('in.jsonl', 'in2.jsonl'), readFileSync(jsonl, 'utf8').replace('Position (0,0)', 'Position (9,9)'));
    const input = await cli(['batch', join(dir, 'in2.jsonl'), '--model', a, ...opts, '--shard', '1/2', '--out', parts]);
    expect(input.stderr).toMatch(/differs in input: was \{"file":"in.jsonl","sha256":"[0-9a-f]+"\}, now \{"file":"in2.jsonl"/);
    // A lock held by a live process (this test's own), then by a process that has exited.
    const lock = join(dir, 'locked');
    const take = (pid: number) => {
      rmSync(lock, { recursive: true, force: true });
      spawnSync('mkdir', ['-p', lock]);
      writeFileSync(join(lock, 'part-0-of-2.lock'), JSON.stringify({ host: hostname(), pid, since: '2026-01-01T00:00:00.000Z' }));
    };
    take(process.pid);
    const held = await cli(['batch', jsonl, '--model', a, ...opts, '--shard', '0/2', '--out', lock]);
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`this shard is being run by process ${process.pid} on ${hostname()} (since 2026-01-01T00:00:00.000Z;`);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    take(gone);
    expect((await cli(['batch', jsonl, '--model', a, ...opts, '--shard', '0/2', '--out', lock])).code).toBe(0);
  });

  it("--shard auto takes the task from the scheduler's variables; the flags are checked", async () => {
    const parts = join(dir, 'auto');
    const r = await cli(['batch', jsonl, '--model', a, ...opts, '--shard', 'auto', '--shards', '5', '--out', parts], { JOB_COMPLETION_INDEX: '4' });
    expect(r.stderr).toContain('part-4-of-5: shard 4 of 5 (Kubernetes: JOB_COMPLETION_INDEX=4, --shards 5): 2 lines of');
    expect((await cli(['batch', jsonl, '--shard', '0/2'])).stderr).toContain('batch --shard needs --out DIR');
    expect((await cli(['batch', jsonl, '--shards', '2', '--out', parts])).stderr).toContain('--shards goes with --shard auto');
    expect((await cli(['merge', join(dir, 'nothing-here')])).stderr).toContain('is not a folder');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `batch --shard auto` as a real Slurm job array: a one-node cluster on this machine (scripts/slurm-cluster.sh,
 * which installs Debian's Slurm when it is missing), four tasks, one killed with SIGKILL midway and
 * resubmitted alone, the parts merged and compared byte for byte with one unsharded run.
 */
const ROOT = resolve('.');
const SLURM_ROOT = process.env.SLURM_TEST_ROOT ?? '/tmp/inertia-lens-slurm';
let conf = '';
let startedHere = false;
const sh = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, SLURM_CONF: conf, PATH: `${process.env.PATH}:/usr/sbin` } });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('batch on a Slurm job array', () => {
  beforeAll(() => {
    // Stop only daemons this test started: a cluster already up (someone's session) is used and left running.
    const running = existsSync(join(SLURM_ROOT, 'slurmctld.pid'));
    conf = execFileSync('bash', ['scripts/slurm-cluster.sh', 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
      .trim()
      .split('\n')
      .pop()!;
    startedHere = !running;
  }, 300_000);
  afterAll(() => {
    if (startedHere) execFileSync('bash', ['scripts/slurm-cluster.sh', 'stop']);
  });

  it('four tasks, one killed and resubmitted, merge to the unsharded bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-slurm-'));
    const examples = ['maze', 'arithmetic', 'mixed-chat', 'maze-shifted'].map((n) => JSON.stringify(JSON.parse(readFileSync(`examples/${n}.json`, 'utf8'))));
    const jsonl = join(dir, 'in.jsonl');
    writeFileSync(jsonl, `${Array.from({ length: 24 }, (_, i) => examples[i % 4]).join('\n')}\n`);
    const out = join(dir, 'parts');
    // The job script a person would write (docs/cluster.md; docs/cluster/slurm-job.sh), on the embedded demo model.
    const job = join(dir, 'job.sh');
    writeFileSync(
      job,
      `#!/bin/bash\nexec ${process.execPath} ${ROOT}/bin/inertia-lens.mjs batch ${jsonl} --policy full --policy clip:2:1 --shard auto --shards 4 --out ${out}\n`,
    );
    const submit = (array: string) =>
      sh('sbatch', ['--parsable', `--array=${array}`, '--cpus-per-task=1', `--chdir=${ROOT}`, `--output=${dir}/task-%a.log`, job]).trim();
    const jobId = submit('0-3');
    const running = () => sh('squeue', ['-h', '-j', jobId, '-o', '%i']).trim();
    // Kill task 2's process with SIGKILL once it has recorded a conversation (its lock names the pid).
    const part = (k: number, ext: string) => join(out, `part-${k}-of-4.${ext}`);
    let killedAfter = -1;
    for (let waited = 0; waited < 240_000 && killedAfter < 0; waited += 50) {
      if (existsSync(part(2, 'json')) && existsSync(part(2, 'lock'))) {
        const m = JSON.parse(readFileSync(part(2, 'json'), 'utf8'));
        if (m.done.length >= 1 && !m.finished) {
          const { pid } = JSON.parse(readFileSync(part(2, 'lock'), 'utf8'));
          process.kill(pid, 'SIGKILL');
          killedAfter = m.done.length;
        }
      }
      await sleep(50);
    }
    expect(killedAfter).toBeGreaterThan(0);
    while (running()) await sleep(250);
    expect(JSON.parse(readFileSync(part(2, 'json'), 'utf8')).finished).toBeNull();
    // merge sees the gap and names it.
    const gap = (() => {
      try {
        sh(process.execPath, ['bin/inertia-lens.mjs', 'merge', out]);
        return null;
      } catch (e) {
        return e as { status: number; stderr: string };
      }
    })();
    expect(gap?.status).toBe(2);
    expect(gap?.stderr).toMatch(/merge: shard 2: unfinished/);
    // Resubmitted alone (an array of one: --shards 4 in the job script keeps it shard 2 of 4), it resumes.
    const again = submit('2');
    while (sh('squeue', ['-h', '-j', again, '-o', '%i']).trim()) await sleep(250);
    expect(readFileSync(join(dir, 'task-2.log'), 'utf8')).toMatch(new RegExp(`resuming: ${killedAfter} conversations done`));
    const merged = join(dir, 'merged.csv');
    sh(process.execPath, ['bin/inertia-lens.mjs', 'merge', out, '--out', merged]);
    const whole = join(dir, 'whole.csv');
    sh(process.execPath, ['bin/inertia-lens.mjs', 'batch', jsonl, '--policy', 'full', '--policy', 'clip:2:1', '--out', whole]);
    expect(readFileSync(merged, 'utf8')).toBe(readFileSync(whole, 'utf8'));
    for (const k of [0, 1, 3])
      expect(readFileSync(join(dir, `task-${k}.log`), 'utf8')).toContain(`shard ${k} of 4 (Slurm: SLURM_ARRAY_TASK_ID=${k}, --shards 4)`);
  }, 600_000);
});

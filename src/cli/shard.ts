/**
 * Which lines of a JSONL file one task of a job array analyses. Lines are dealt round-robin: line n (1-based)
 * goes to shard (n − 1) mod N. Datasets are often sorted (by environment, by length, by date), and a
 * contiguous range would give one shard all the long conversations; dealing them out keeps the shards'
 * run times close, so the array ends when its tasks do.
 */
export interface Shard {
  index: number;
  count: number;
  /** Where K and N came from: the flag, or the scheduler's variables by name. */
  from: string;
}

export const inShard = (line: number, s: Shard): boolean => (line - 1) % s.count === s.index;

/** The part files' common name: part-K-of-N. */
export const partName = (s: Shard): string => `part-${s.index}-of-${s.count}`;

type Env = Record<string, string | undefined>;

/**
 * The schedulers `--shard auto` reads: each names a task's index and, except Kubernetes, the array's size.
 * Slurm's SLURM_ARRAY_TASK_COUNT is the size of the array as submitted: a task resubmitted alone
 * (`sbatch --array=2`) is an array of one, so its count must then come from `--shards N`.
 */
const SCHEDULERS: { name: string; index: string; count: string | null; first?: string; last?: string }[] = [
  { name: 'Slurm', index: 'SLURM_ARRAY_TASK_ID', count: 'SLURM_ARRAY_TASK_COUNT', first: 'SLURM_ARRAY_TASK_MIN', last: 'SLURM_ARRAY_TASK_MAX' },
  { name: 'AWS Batch', index: 'AWS_BATCH_JOB_ARRAY_INDEX', count: 'AWS_BATCH_JOB_ARRAY_SIZE' },
  { name: 'Cloud Run', index: 'CLOUD_RUN_TASK_INDEX', count: 'CLOUD_RUN_TASK_COUNT' },
  { name: 'Kubernetes', index: 'JOB_COMPLETION_INDEX', count: null },
];

const whole = (v: string | undefined): number | null => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : null);

/** `--shard K/N` or `--shard auto` (with `--shards N` where the scheduler gives no count, or to override it). */
export function parseShard(arg: string, env: Env, shards?: number): Shard {
  if (arg !== 'auto') {
    const m = /^(\d+)\/(\d+)$/.exec(arg.trim());
    if (!m) throw new RangeError(`--shard takes K/N (K from 0, e.g. 0/4) or auto, got "${arg}"`);
    const [index, count] = [Number(m[1]), Number(m[2])];
    if (count < 1 || index >= count) throw new RangeError(`--shard ${arg}: K must be below N (shards are numbered 0 to N−1)`);
    if (shards !== undefined && shards !== count) throw new RangeError(`--shard ${arg} and --shards ${shards} disagree`);
    return { index, count, from: `--shard ${arg}` };
  }
  const found = SCHEDULERS.find((s) => env[s.index] !== undefined);
  if (!found) throw new RangeError(`--shard auto: no scheduler's task index is set (${SCHEDULERS.map((s) => s.index).join(', ')}); give --shard K/N`);
  const index = whole(env[found.index]);
  if (index === null) throw new RangeError(`--shard auto: ${found.index}="${env[found.index]}" is not a whole number`);
  let count: number | null = shards ?? null;
  let from = `${found.name}: ${found.index}=${index}`;
  if (count !== null) from += `, --shards ${count}`;
  else if (found.count === null)
    throw new RangeError(`--shard auto: ${found.name} gives the task's index (${found.index}) but not how many there are: add --shards N`);
  else {
    count = whole(env[found.count]);
    if (count === null) throw new RangeError(`--shard auto: ${found.count}="${env[found.count]}" is not a whole number; add --shards N`);
    // An array numbered otherwise than 0…N−1 (a resubmitted task, --array=1-4): its index is not a shard number.
    if (found.first && found.last && (whole(env[found.first]) !== 0 || whole(env[found.last]) !== count - 1)) {
      throw new RangeError(
        `--shard auto: this ${found.name} array runs ${env[found.first]}–${env[found.last]}, not 0–${count - 1}: number the array from 0 and, to rerun some of its tasks alone, add --shards N (the whole array's size)`,
      );
    }
    from += `, ${found.count}=${count}`;
  }
  if (count < 1 || index >= count) throw new RangeError(`--shard auto: task ${index} of ${count}: the index must be below the count`);
  return { index, count, from };
}

/** Copy measures that need no attention: how much of the current answer repeats an earlier one. */

/** Length of the longest run of tokens that appears in both sequences (longest common substring). */
export function longestCommonRun(a: readonly number[], b: readonly number[]): number {
  return longestCommonRunAt(a, b).length;
}

/** The longest run of `a` found in `b`, and where it starts in each (the first such run of `a`). */
export function longestCommonRunAt(a: readonly number[], b: readonly number[]): { length: number; a: number; b: number } {
  let best = { length: 0, a: 0, b: 0 };
  let prev = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Uint32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        cur[j] = prev[j - 1]! + 1;
        if (cur[j]! > best.length) best = { length: cur[j]!, a: i - cur[j]!, b: j - cur[j]! };
      }
    }
    prev = cur;
  }
  return best;
}

/**
 * Share of the current answer's n-grams (counted by position) that occur anywhere in the earlier
 * answer: 1 = every n-gram repeated, 0 = none. 0 when the current answer is shorter than n.
 */
export function ngramOverlap(current: readonly number[], earlier: readonly number[], n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const total = current.length - n + 1;
  if (total <= 0) return 0;
  const seen = new Set<string>();
  for (let i = 0; i + n <= earlier.length; i++) seen.add(earlier.slice(i, i + n).join(','));
  let hits = 0;
  for (let i = 0; i < total; i++) if (seen.has(current.slice(i, i + n).join(','))) hits++;
  return hits / total;
}

/** A copied run this long or longer sets the copy-aligned diagonal's alignment; shorter ones are chance. */
export const COPY_ALIGN_MIN_RUN = 4;

/**
 * How far the answer's copy of an earlier answer is displaced: the earlier answer's offset minus the
 * answer's, at their longest shared run (0, paper 2's alignment, when that run is shorter than the minimum).
 */
export function copyShift(current: readonly number[], earlier: readonly number[]): number {
  const run = longestCommonRunAt(current, earlier);
  return run.length >= COPY_ALIGN_MIN_RUN ? run.b - run.a : 0;
}

/** Copy measures that need no attention: how much of the current answer repeats an earlier one. */

/** Length of the longest run of tokens that appears in both sequences (longest common substring). */
export function longestCommonRun(a: readonly number[], b: readonly number[]): number {
  let best = 0;
  let prev = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const cur = new Uint32Array(b.length + 1);
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        cur[j] = prev[j - 1]! + 1;
        if (cur[j]! > best) best = cur[j]!;
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

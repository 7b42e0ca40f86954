/** How many leading items two token sequences share: what a KV cache, kept rows or a prefix check can reuse. */
export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

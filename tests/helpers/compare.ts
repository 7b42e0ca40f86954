/** Largest |a[i] - b[i]|; fails loudly on a length mismatch or a NaN. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    if (Number.isNaN(d)) return Infinity;
    m = Math.max(m, d);
  }
  return m;
}

/** Rows [r0, r1) of a row-major [rows × cols] matrix, optionally of head h of [heads × rows × cols]. */
export function sliceRows(m: Float64Array, cols: number, r0: number, r1: number, rowsPerHead = 0, head = 0): Float64Array {
  const base = head * rowsPerHead * cols;
  return m.slice(base + r0 * cols, base + r1 * cols);
}

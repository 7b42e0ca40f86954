/**
 * Attention as it travels from the runtime through the metrics to the views and exports: query rows
 * [rowStart, rowStart + rows) of one layer's [seqLen × seqLen] matrix, for `heads` heads one after
 * another: `data` is [heads × rows × seqLen] row-major, and the head mean is a slab with heads = 1.
 */
export interface AttentionSlab<T extends ArrayLike<number> = Float32Array> {
  data: T;
  heads: number;
  rowStart: number;
  rows: number;
  seqLen: number;
}

/** One layer's attention: the head mean, and every head where they were asked for. */
export interface LayerAttention {
  layer: number;
  mean: AttentionSlab;
  perHead: AttentionSlab | null;
}

type Floats = Float32Array | Float64Array;

/** A slab over `data`, checked: a length that does not match its dimensions is a bug upstream. */
export function slab<T extends ArrayLike<number>>(data: T, rows: number, seqLen: number, rowStart = 0, heads = 1): AttentionSlab<T> {
  if (data.length !== heads * rows * seqLen) throw new RangeError(`attention of ${data.length} values for ${heads} × ${rows} × ${seqLen}`);
  return { data, heads, rowStart, rows, seqLen };
}

/** Head h of a slab (a view, no copy). */
export function headOf<T extends Floats>(s: AttentionSlab<T>, h: number): AttentionSlab<T> {
  const n = s.rows * s.seqLen;
  return { ...s, heads: 1, data: s.data.subarray(h * n, (h + 1) * n) as T };
}

/** Every head of a slab, one slab each. */
export function headsOf<T extends Floats>(s: AttentionSlab<T>): AttentionSlab<T>[] {
  return Array.from({ length: s.heads }, (_, h) => headOf(s, h));
}

/**
 * Query positions [start, end) of a slab, every head kept; null where the slab does not hold them
 * all. One head: a view; several: a copy (each head's rows are apart).
 */
export function rowsOf(s: AttentionSlab, start: number, end: number): AttentionSlab | null {
  const from = start - s.rowStart;
  const n = end - start;
  if (from < 0 || n < 0 || from + n > s.rows) return null;
  if (from === 0 && n === s.rows) return s;
  const S = s.seqLen;
  const data = s.heads === 1 ? s.data.subarray(from * S, (from + n) * S) : new Float32Array(s.heads * n * S);
  if (s.heads > 1) for (let h = 0; h < s.heads; h++) data.set(s.data.subarray((h * s.rows + from) * S, (h * s.rows + from + n) * S), h * n * S);
  return { data, heads: s.heads, rowStart: start, rows: n, seqLen: S };
}

/** A layer's attention restricted to query positions [start, end), or null where it lacks some. */
export function layerRows(a: LayerAttention, start: number, end: number): LayerAttention | null {
  const mean = rowsOf(a.mean, start, end);
  const perHead = a.perHead && rowsOf(a.perHead, start, end);
  return mean && (perHead || !a.perHead) ? { layer: a.layer, mean, perHead } : null;
}

import { CATEGORIES, type Category, type CategoryRatios, type Span } from './categories';
import type { AttentionSlab } from './slab';

/** The metrics read the answer's rows of one head (or of the head mean). */
type Rows = AttentionSlab<ArrayLike<number>>;

function oneHead(a: Rows): void {
  if (a.heads !== 1) throw new RangeError(`a metric reads one head at a time, got ${a.heads}`);
}

/**
 * Category ratios: for each query row, the attention mass per category; then the mean over rows.
 * With rows that sum to 1 the five ratios sum to 1.
 */
export function categoryRatios(a: Rows, categories: readonly Category[]): CategoryRatios {
  oneHead(a);
  if (categories.length !== a.seqLen) throw new RangeError(`${categories.length} categories for ${a.seqLen} keys`);
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as CategoryRatios;
  if (a.rows === 0) return out;
  // Sums by category index, not by property name: this loop visits every answer row × key of every head.
  const idx = Int32Array.from(categories, (c) => CATEGORY_INDEX.get(c)!);
  const sums = new Float64Array(CATEGORIES.length);
  for (let i = 0; i < a.rows; i++) {
    const row = i * a.seqLen;
    for (let j = 0; j < a.seqLen; j++) sums[idx[j]!]! += a.data[row + j]!;
  }
  CATEGORIES.forEach((c, k) => (out[c] = sums[k]! / a.rows));
  return out;
}

const CATEGORY_INDEX = new Map<Category, number>(CATEGORIES.map((c, k) => [c, k]));

/**
 * The category ratios attention spread evenly would give (chance): each answer row, `start` to `end` (token indices),
 * shares its weight equally over the keys it can see (itself and every token before it), so a category gets its part
 * of those keys; then the mean over rows. The yardstick a share is read against: long text gets more by itself.
 */
export function chanceRatios(categories: readonly Category[], start: number, end: number): CategoryRatios {
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as CategoryRatios;
  if (end <= start) return out;
  const seen = new Float64Array(CATEGORIES.length);
  for (let k = 0; k < start; k++) seen[CATEGORY_INDEX.get(categories[k]!)!]!++;
  const sums = new Float64Array(CATEGORIES.length);
  for (let i = start; i < end; i++) {
    seen[CATEGORY_INDEX.get(categories[i]!)!]!++;
    for (let c = 0; c < CATEGORIES.length; c++) sums[c]! += seen[c]! / (i + 1);
  }
  CATEGORIES.forEach((c, k) => (out[c] = sums[k]! / (end - start)));
  return out;
}

export interface DiagonalResult {
  /** Mean over query rows of the attention inside the diagonal bands of every earlier answer. */
  total: number;
  /** The same, per earlier answer (in the order of `priorSpans`); they add up to `total`. */
  perAnswer: number[];
}

/**
 * Diagonal inertia ratio (paper 2 §3.4, design.md): query row i is the current answer's token at
 * offset i; for each earlier answer p with content span [s_p, s_p + n_p), add the attention to
 * s_p + j for j in [i − r, i + r] ∩ [0, n_p). Sum over p, mean over rows. r = Infinity covers whole spans.
 * With `shifts`, answer p's band is centred on i + shifts[p] instead (copyShift in copy.ts).
 */
export function diagonalRatio(a: Rows, priorSpans: readonly Span[], radius: number, shifts: readonly number[] = []): DiagonalResult {
  oneHead(a);
  if (!(radius >= 0)) throw new RangeError(`radius must be ≥ 0, got ${radius}`);
  const perAnswer = priorSpans.map(() => 0);
  if (a.rows === 0) return { total: 0, perAnswer };
  for (let i = 0; i < a.rows; i++) {
    // Paper 2 aligns offset i with offset i; a shift aligns it with i + shift (the copy-aligned diagonal).
    priorSpans.forEach((p, k) => (perAnswer[k]! += bandSum(a, i, p, i + (shifts[k] ?? 0), radius)));
  }
  for (let k = 0; k < perAnswer.length; k++) perAnswer[k]! /= a.rows;
  return { total: perAnswer.reduce((s, v) => s + v, 0), perAnswer };
}

/** Row i's attention inside answer p's band: offsets c − r … c + r of p, clipped to p. */
function bandSum(a: Rows, i: number, p: Span, c: number, radius: number): number {
  const row = i * a.seqLen;
  let sum = 0;
  for (let j = Math.max(0, c - radius); j <= Math.min(p.length - 1, c + radius); j++) sum += a.data[row + p.start + j]!;
  return sum;
}

/**
 * The diagonal ratio row by row: each query row's attention inside every earlier answer's band (row i of the
 * slab is the answer's token at offset i). Their mean is diagonalRatio's total; a part of the rows, summed and
 * divided by all the rows, is that part's share of it (the lesson splits the answer by its lines).
 */
export function diagonalRows(a: Rows, priorSpans: readonly Span[], radius: number): Float64Array {
  oneHead(a);
  if (!(radius >= 0)) throw new RangeError(`radius must be ≥ 0, got ${radius}`);
  const out = new Float64Array(a.rows);
  for (let i = 0; i < a.rows; i++) for (const p of priorSpans) out[i]! += bandSum(a, i, p, i, radius);
  return out;
}

/**
 * Where inside the band the attention sits: entry r + d is the mean over the rows of the attention row i gives
 * token i + d of every earlier answer (d from −r to r, clipped to the answer), so the entries add up to the diagonal
 * ratio. A head that copies looks one token ahead (d = 1): at the token that came next in the earlier answer.
 */
export function bandOffsets(a: Rows, priorSpans: readonly Span[], radius: number): Float64Array {
  oneHead(a);
  if (!(radius >= 0)) throw new RangeError(`radius must be ≥ 0, got ${radius}`);
  const out = new Float64Array(2 * radius + 1);
  if (a.rows === 0) return out;
  for (let i = 0; i < a.rows; i++)
    for (const p of priorSpans)
      for (let d = -radius; d <= radius; d++) {
        const j = i + d;
        if (j >= 0 && j < p.length) out[radius + d]! += a.data[i * a.seqLen + p.start + j]! / a.rows;
      }
  return out;
}

/**
 * Which tokens the band's attention falls on: for each key inside some earlier answer's band, the mean over the
 * rows of the attention it gets from rows whose band holds it (so the masses add up to the diagonal ratio), and how
 * many of those rows give it at least `min` of theirs. A head that looks at one token from row after row shows as
 * one key with a large mass from many rows: an upright stripe in the band.
 */
export function bandColumns(a: Rows, priorSpans: readonly Span[], radius: number, min = 0.05): Map<number, { mass: number; rows: number }> {
  oneHead(a);
  if (!(radius >= 0)) throw new RangeError(`radius must be ≥ 0, got ${radius}`);
  const out = new Map<number, { mass: number; rows: number }>();
  for (let i = 0; i < a.rows; i++)
    for (const p of priorSpans)
      for (let j = Math.max(0, i - radius); j <= Math.min(p.length - 1, i + radius); j++) {
        const k = p.start + j;
        const v = a.data[i * a.seqLen + k]!;
        const c = out.get(k) ?? out.set(k, { mass: 0, rows: 0 }).get(k)!;
        c.mass += v / a.rows;
        if (v >= min) c.rows++;
      }
  return out;
}

/**
 * Both diagonals of one head (or the head mean): paper 2's, with its breakdown per earlier answer, and
 * the copy-aligned one (each band moved by its answer's copy shift). What the analysis and a re-read at
 * another radius both report.
 */
export function diagonals(a: Rows, priorSpans: readonly Span[], radius: number, shifts: readonly number[]): DiagonalResult & { copyAligned: number } {
  return { ...diagonalRatio(a, priorSpans, radius), copyAligned: diagonalRatio(a, priorSpans, radius, shifts).total };
}

/** Mean attention mass per message (keys grouped by the message they belong to; -1 for none). */
export function massPerMessage(a: Rows, messageOf: readonly number[]): Map<number, number> {
  oneHead(a);
  const out = new Map<number, number>();
  if (a.rows === 0) return out;
  // Sums in an array indexed by message + 1 (-1, no message, at 0), then the map of those present.
  let top = -1;
  for (let j = 0; j < a.seqLen; j++) top = Math.max(top, messageOf[j]!);
  const sums = new Float64Array(top + 2);
  const seen = new Uint8Array(top + 2);
  for (let j = 0; j < a.seqLen; j++) seen[messageOf[j]! + 1] = 1;
  for (let i = 0; i < a.rows; i++) {
    const row = i * a.seqLen;
    for (let j = 0; j < a.seqLen; j++) sums[messageOf[j]! + 1]! += a.data[row + j]!;
  }
  for (let m = -1; m <= top; m++) if (seen[m + 1]) out.set(m, sums[m + 1]! / a.rows);
  return out;
}

/** The sum of each row of every head: 1 for attention probabilities. */
export function rowSums(a: Rows): number[] {
  return Array.from({ length: a.heads * a.rows }, (_, i) => {
    let s = 0;
    for (let j = 0; j < a.seqLen; j++) s += a.data[i * a.seqLen + j]!;
    return s;
  });
}

/** Ranks with ties averaged (1-based). */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

function pearson(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const ma = a.reduce((s, v) => s + v, 0) / n;
  const mb = b.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i]! - ma) * (b[i]! - mb);
    da += (a[i]! - ma) ** 2;
    db += (b[i]! - mb) ** 2;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

/** Spearman's rank correlation (Pearson correlation of the ranks). */
export function spearman(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length < 2) throw new RangeError('spearman needs two series of the same length ≥ 2');
  return pearson(ranks(a), ranks(b));
}

/** Least-squares slope of ys against xs. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((s, v) => s + v, 0) / n;
  const my = ys.reduce((s, v) => s + v, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** The median (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (!xs.length) throw new RangeError('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * The two-sided exact sign test: how often a fair coin, tossed `a + b` times, splits at least as unevenly as a
 * against b. Read on paired outcomes (the same turns under two conditions), a and b are the turns where only one of
 * the two gives the outcome. Written out rather than taken from a statistics package: it is one binomial sum.
 */
export function signTest(a: number, b: number): number {
  const n = a + b;
  if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0) throw new RangeError('signTest needs two counts');
  // The terms C(n, i) / 2^n by recurrence; 2^-n underflows past n ≈ 1,070.
  if (n > 1000) throw new RangeError('signTest: more than 1,000 split pairs');
  let term = 0.5 ** n;
  let tail = 0;
  for (let i = 0; i <= Math.min(a, b); i++) {
    if (i > 0) term = (term * (n - i + 1)) / i;
    tail += term;
  }
  return Math.min(1, 2 * tail);
}

/**
 * The two-sided exact sign-flip (randomisation) test on paired differences, one per cluster: how often giving each
 * difference a random sign makes a sum at least as far from 0 as the one seen. For clusters whose own turns are not
 * independent (the turns of one maze share its history), each cluster counts once, its size kept. Exact over every
 * sign pattern, counted by sums (integer differences only), so many clusters cost no more than a few.
 */
export function signFlipTest(diffs: readonly number[]): number {
  if (diffs.some((d) => !Number.isInteger(d))) throw new RangeError('signFlipTest needs whole differences');
  const sizes = diffs.map(Math.abs).filter((d) => d > 0);
  const seen = Math.abs(diffs.reduce((s, d) => s + d, 0));
  // ways[s]: the sign patterns whose sum is s − total (the sum runs from −total to total).
  const total = sizes.reduce((s, d) => s + d, 0);
  let ways = new Array<number>(2 * total + 1).fill(0);
  ways[total] = 1;
  for (const d of sizes) {
    const next = new Array<number>(ways.length).fill(0);
    ways.forEach((w, s) => {
      if (!w) return;
      next[s + d] = next[s + d]! + w;
      next[s - d] = next[s - d]! + w;
    });
    ways = next;
  }
  const far = ways.reduce((n, w, s) => (Math.abs(s - total) >= seen ? n + w : n), 0);
  return far / 2 ** sizes.length;
}

/** A small seeded random source (mulberry32): the same draws on every run, so a printed interval never moves. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A percentile bootstrap interval for the sum of per-cluster differences, the clusters (mazes) drawn with replacement:
 * how far the total could move had other mazes of the same kind come up. Seeded, so it is the same on every run; a
 * plain resampling loop, too small for a statistics package.
 */
export function clusterInterval(diffs: readonly number[], level = 0.95, draws = 10_000, seed = 1): [lo: number, hi: number] {
  if (!diffs.length) return [0, 0];
  const next = seeded(seed);
  const sums = new Float64Array(draws);
  for (let b = 0; b < draws; b++) {
    let s = 0;
    for (let i = 0; i < diffs.length; i++) s += diffs[Math.floor(next() * diffs.length)]!;
    sums[b] = s;
  }
  sums.sort();
  const tail = (1 - level) / 2;
  return [sums[Math.floor(tail * (draws - 1))]!, sums[Math.ceil((1 - tail) * (draws - 1))]!];
}

/**
 * Holm's step-down correction for many comparisons: the smallest p times their number, the next times one fewer, and
 * so on, each at least the one before it and at most 1. A finding that passes after it passes with every comparison
 * made counted, not just its own (a few lines; no statistics package needed).
 */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(ps.length);
  let floor = 0;
  order.forEach(([p, i], rank) => {
    floor = Math.max(floor, Math.min(1, (ps.length - rank) * p));
    out[i] = floor;
  });
  return out;
}

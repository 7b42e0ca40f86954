import { CATEGORIES } from '../metrics/categories';
import { mulberry32 } from '../util/random';

/**
 * The papers' summary tables from batch rows, as plain functions: group means with seeded bootstrap 95 %
 * intervals (paper 2's Table 13: diagonal and assistant attention per model), the shares by turn (its
 * Fig. 2, from `batch --sweep`), and each policy's change against Full (its Fig. 6).
 */
export const METRICS = [...CATEGORIES, 'diagonal'] as const;
export type Metric = (typeof METRICS)[number];

/** One batch CSV row, with the grouping fields it carries (model, policy, and any joined from the input). */
export interface ReportRow {
  line: number;
  turn: number;
  fields: Record<string, string>;
  values: Record<Metric, number>;
}

export interface Interval {
  mean: number;
  lo: number;
  hi: number;
}

export interface GroupStats {
  key: Record<string, string>;
  n: number;
  stats: Record<Metric, Interval>;
}

/** Resamples of the bootstrap; the seed makes every report reproducible. */
export const BOOTSTRAP = { resamples: 2000, seed: 20260203 } as const;

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The percentile bootstrap 95 % interval of the mean (one resampling shared by all metrics of a group, seeded). */
export function bootstrapMeans(columns: readonly (readonly number[])[], resamples: number = BOOTSTRAP.resamples, seed: number = BOOTSTRAP.seed): Interval[] {
  const n = columns[0]?.length ?? 0;
  if (n === 0) return columns.map(() => ({ mean: NaN, lo: NaN, hi: NaN }));
  const rand = mulberry32(seed);
  const sums = columns.map(() => new Float64Array(resamples));
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(rand() * n);
      for (let c = 0; c < columns.length; c++) sums[c]![b]! += columns[c]![j]!;
    }
  }
  return columns.map((col, c) => {
    const means = Array.from(sums[c]!, (s) => s / n).sort((x, y) => x - y);
    const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]!;
    return { mean: mean(col), lo: at(0.025), hi: at(0.975) };
  });
}

const keyOf = (r: ReportRow, by: readonly string[]) => by.map((k) => r.fields[k] ?? '').join('\u0000');

function groupBy<T>(rows: readonly ReportRow[], by: readonly string[], make: (key: Record<string, string>, rows: ReportRow[]) => T): T[] {
  const groups = new Map<string, ReportRow[]>();
  for (const r of rows) {
    const k = keyOf(r, by);
    (groups.get(k) ?? groups.set(k, []).get(k)!).push(r);
  }
  return [...groups.values()].map((g) => make(Object.fromEntries(by.map((k) => [k, g[0]!.fields[k] ?? ''])), g));
}

/** Means and intervals of every metric per group: the scored answer of each conversation (the last turn with --sweep input). */
export function groupTable(rows: readonly ReportRow[], by: readonly string[]): GroupStats[] {
  return groupBy(lastTurns(rows), by, (key, g) => {
    const iv = bootstrapMeans(METRICS.map((m) => g.map((r) => r.values[m])));
    return { key, n: g.length, stats: Object.fromEntries(METRICS.map((m, i) => [m, iv[i]!])) as Record<Metric, Interval> };
  });
}

/** With --sweep, a conversation has a row per turn: the table scores its last one (the answer batch scores without --sweep). */
export function lastTurns(rows: readonly ReportRow[]): ReportRow[] {
  const last = new Map<string, number>();
  const id = (r: ReportRow) => `${r.line}\u0000${r.fields.model ?? ''}\u0000${r.fields.policy ?? ''}`;
  for (const r of rows) last.set(id(r), Math.max(last.get(id(r)) ?? -Infinity, r.turn));
  return rows.filter((r) => r.turn === last.get(id(r)));
}

/** Paper 2's Fig. 2: each metric's mean over the conversations that reach each turn, per group. */
export function turnsCurve(
  rows: readonly ReportRow[],
  by: readonly string[],
): { key: Record<string, string>; turns: { turn: number; n: number; means: Record<Metric, number> }[] }[] {
  return groupBy(rows, by, (key, g) => {
    const byTurn = new Map<number, ReportRow[]>();
    for (const r of g) (byTurn.get(r.turn) ?? byTurn.set(r.turn, []).get(r.turn)!).push(r);
    const turns = [...byTurn.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([turn, rs]) => ({
        turn,
        n: rs.length,
        means: Object.fromEntries(METRICS.map((m) => [m, mean(rs.map((r) => r.values[m]))])) as Record<Metric, number>,
      }));
    return { key, turns };
  });
}

/**
 * Paper 2's Fig. 6: each policy's change against Full, paired by conversation (same line, same model and
 * group): the mean of (policy − Full) with its bootstrap interval. Conversations without a Full row are left out.
 */
export function policyChange(
  rows: readonly ReportRow[],
  by: readonly string[],
): { key: Record<string, string>; policy: string; n: number; change: Record<Metric, Interval> }[] {
  const groupKeys = by.filter((k) => k !== 'policy');
  const scored = lastTurns(rows);
  const full = new Map(scored.filter((r) => r.fields.policy === 'full').map((r) => [`${keyOf(r, groupKeys)}\u0000${r.line}`, r]));
  const out: { key: Record<string, string>; policy: string; n: number; change: Record<Metric, Interval> }[] = [];
  for (const g of groupBy(
    scored.filter((r) => r.fields.policy !== 'full'),
    [...groupKeys, 'policy'],
    (key, rs) => ({ key, rs }),
  )) {
    const pairs = g.rs
      .map((r) => [r, full.get(`${keyOf(r, groupKeys)}\u0000${r.line}`)] as const)
      .filter((p): p is readonly [ReportRow, ReportRow] => p[1] !== undefined);
    if (!pairs.length) continue;
    const iv = bootstrapMeans(METRICS.map((m) => pairs.map(([r, f]) => r.values[m] - f.values[m])));
    const { policy, ...rest } = g.key;
    out.push({ key: rest, policy: policy!, n: pairs.length, change: Object.fromEntries(METRICS.map((m, i) => [m, iv[i]!])) as Record<Metric, Interval> });
  }
  return out;
}

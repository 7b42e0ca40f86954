/**
 * Every answer's head-mean rows from the analysis's own pass under Full, kept for the sweep over turns.
 * The graph gives the head mean its own row range, so one pass can fetch the scored answer's heads and,
 * beside them, the mean rows from turn 2's answer on; with causal attention turn t's answer rows are
 * rows of that pass (sweep.ts checks each turn's tokens are a prefix), so the sweep needs no pass.
 * Kept per session, for the last such pass only, below a size.
 */
import type { ContextMessage } from '../context/apply';
import { CATEGORY_OF } from '../context/apply';
import type { Span } from '../metrics/categories';
import { rowsOf, slab, type AttentionSlab } from '../metrics/slab';
import { commonPrefix } from '../util/common-prefix';

/** One sweep point's answer rows (head mean) and prior assistant answers, kept so a new radius needs no pass (rescore.ts). */
export interface SweepRows {
  mean: AttentionSlab;
  priorSpans: Span[];
}

/** At most this many bytes of kept mean rows (the demo model at 2,048 tokens takes 32 MiB). */
export const SWEEP_ROWS_MAX_BYTES = 96 * 2 ** 20;

const kept = new WeakMap<object, { ids: number[]; byLayer: Map<number, AttentionSlab> }>();

/**
 * Where the sweep's rows start in a context under Full: turn 2's answer, the first turn a sweep scores.
 * Null when there is no such earlier answer (nothing to keep) or the rows would be too large.
 */
export function sweepRowsStart(messages: ContextMessage[], contentSpans: Span[], queryStart: number, seqLen: number, layers: number): number | null {
  const k = messages.findIndex((m) => CATEGORY_OF[m.kind] === 'prior' && m.turn === 2);
  const start = k >= 0 && contentSpans[k]!.length > 0 ? contentSpans[k]!.start : -1;
  if (start < 0 || start >= queryStart) return null;
  return layers * (seqLen - start) * seqLen * 4 <= SWEEP_ROWS_MAX_BYTES ? start : null;
}

export function keepSweepRows(session: object, ids: number[], byLayer: Map<number, AttentionSlab>): void {
  kept.set(session, { ids, byLayer });
}

/**
 * The kept rows a new pass over `ids` need not compute: rows [from, upTo ≤ end) of the tokens it shares with
 * the kept pass (a row depends only on the tokens up to it), for every layer; null when none. So a
 * conversation that grows by a turn runs its pass from the shared prefix's KV cache, as other policies do.
 */
export function reusableSweepRows(
  session: object,
  ids: number[],
  from: number,
  end: number,
  layers: number[],
): { upTo: number; byLayer: Map<number, AttentionSlab> } | null {
  const k = kept.get(session);
  if (!k) return null;
  const shared = commonPrefix(k.ids, ids);
  const slabs = layers.map((l) => k.byLayer.get(l));
  if (slabs.some((x) => !x || x.rowStart > from)) return null;
  const upTo = Math.min(shared, end, ...slabs.map((x) => x!.rowStart + x!.rows));
  if (upTo <= from) return null;
  return { upTo, byLayer: new Map(layers.map((l, i) => [l, rowsOf(slabs[i]!, from, upTo)!])) };
}

/** Rows [from, end) over `seqLen` keys: reused rows first (their keys cut or padded: past a row's own position all are 0), then the pass's. */
export function joinRows(from: number, end: number, seqLen: number, reused: AttentionSlab, fresh: AttentionSlab): AttentionSlab {
  const out = new Float32Array((end - from) * seqLen);
  const n = Math.min(reused.seqLen, seqLen);
  for (let q = reused.rowStart; q < reused.rowStart + reused.rows; q++) {
    const at = (q - reused.rowStart) * reused.seqLen;
    out.set(reused.data.subarray(at, at + n), (q - from) * seqLen);
  }
  for (let q = Math.max(from, fresh.rowStart); q < Math.min(end, fresh.rowStart + fresh.rows); q++) {
    const at = (q - fresh.rowStart) * fresh.seqLen;
    out.set(fresh.data.subarray(at, at + fresh.seqLen), (q - from) * seqLen);
  }
  return slab(out, end - from, seqLen, from);
}

/**
 * The kept mean rows [from, to) of each layer, or null where any is missing. `ids` may be a prefix of
 * the pass's (the sweep's last unscored turn, when the page already has the last one): the rows then
 * span the pass's keys, and causal attention puts nothing beyond a row's own position.
 */
export function keptSweepRows(session: object, ids: number[], from: number, to: number, layers: number[]): Map<number, AttentionSlab> | null {
  const k = kept.get(session);
  if (!k || commonPrefix(k.ids, ids) < ids.length) return null;
  const out = new Map<number, AttentionSlab>();
  for (const l of layers) {
    const s = k.byLayer.get(l);
    const rows = s && rowsOf(s, from, to);
    if (!rows) return null;
    out.set(l, rows);
  }
  return out;
}

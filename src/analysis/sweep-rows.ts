/**
 * Every answer's head-mean rows from the analysis's own pass under Full, kept for the rounds sweep.
 * The graph gives the head mean its own row range, so one pass can fetch the scored answer's heads and,
 * beside them, the mean rows from round 2's answer on; with causal attention turn t's answer rows are
 * rows of that pass (sweep.ts checks each turn's tokens are a prefix), so the sweep needs no pass.
 * Kept per session, for the last such pass only, below a size.
 */
import type { ContextMessage } from '../context/apply';
import { CATEGORY_OF } from '../context/apply';
import type { Span } from '../metrics/categories';
import { rowsOf, type AttentionSlab } from '../metrics/slab';

/** At most this many bytes of kept mean rows (the demo model at 2,048 tokens takes 32 MiB). */
export const SWEEP_ROWS_MAX_BYTES = 96 * 2 ** 20;

const kept = new WeakMap<object, { ids: number[]; byLayer: Map<number, AttentionSlab> }>();

/**
 * Where the sweep's rows start in a context under Full: round 2's answer, the first turn a sweep scores.
 * Null when there is no such earlier answer (nothing to keep) or the rows would be too large.
 */
export function sweepRowsStart(messages: ContextMessage[], contentSpans: Span[], queryStart: number, seqLen: number, layers: number): number | null {
  const k = messages.findIndex((m) => CATEGORY_OF[m.kind] === 'prior' && m.round === 2);
  const start = k >= 0 && contentSpans[k]!.length > 0 ? contentSpans[k]!.start : -1;
  if (start < 0 || start >= queryStart) return null;
  return layers * (seqLen - start) * seqLen * 4 <= SWEEP_ROWS_MAX_BYTES ? start : null;
}

export function keepSweepRows(session: object, ids: number[], byLayer: Map<number, AttentionSlab>): void {
  kept.set(session, { ids, byLayer });
}

/**
 * The kept mean rows [from, to) of each layer, or null where any is missing. `ids` may be a prefix of
 * the pass's (the sweep's last unscored turn, when the page already has the last one): the rows then
 * span the pass's keys, and causal attention puts nothing beyond a row's own position.
 */
export function keptSweepRows(session: object, ids: number[], from: number, to: number, layers: number[]): Map<number, AttentionSlab> | null {
  const k = kept.get(session);
  if (!k || k.ids.length < ids.length || ids.some((id, i) => id !== k.ids[i])) return null;
  const out = new Map<number, AttentionSlab>();
  for (const l of layers) {
    const s = k.byLayer.get(l);
    const rows = s && rowsOf(s, from, to);
    if (!rows) return null;
    out.set(l, rows);
  }
  return out;
}

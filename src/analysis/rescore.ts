import { diagonalRatio } from '../metrics/inertia';
import type { Span } from '../metrics/categories';
import type { PolicyResult } from './analyze';
import type { SweepPoint } from './sweep';

/**
 * The same analysis at another diagonal radius, re-read from the attention it kept: no model pass.
 * Null when it kept too little (a cached start result has the head mean only): score it again then.
 */
export function atRadius(r: PolicyResult, radius: number): PolicyResult | null {
  if (r.radius === radius) return r;
  const kept = r.kept;
  if (!kept?.perHead) return null;
  const S = kept.seqLen;
  const Q = r.query.end - r.query.start;
  // The answer's rows among those kept (all of them, or every row of the full matrix).
  const from = r.query.start - kept.rowStart;
  if (from < 0 || from + Q > kept.nRows) return null;
  const mean = kept.mean.subarray(from * S, (from + Q) * S);
  const all = kept.perHead;
  const heads = Array.from({ length: kept.heads }, (_, h) => ({ rows: all.subarray((h * kept.nRows + from) * S, (h * kept.nRows + from + Q) * S), nRows: Q, seqLen: S }));
  const spans = r.diagonalPerAnswer.map((d) => r.messages[d.message]!.content);
  const diag = diagonalRatio({ rows: mean, nRows: Q, seqLen: S }, spans, radius);
  return {
    ...r,
    radius,
    diagonal: diag.total,
    diagonalPerAnswer: r.diagonalPerAnswer.map((d, i) => ({ ...d, value: diag.perAnswer[i]! })),
    perHead: r.perHead.map((h, i) => ({ ...h, diagonal: diagonalRatio(heads[i]!, spans, radius).total })),
  };
}

/** One sweep point's answer rows (head mean) and earlier answers, kept so a new radius needs no pass. */
export interface SweepRows {
  rows: Float32Array;
  nRows: number;
  seqLen: number;
  priorSpans: Span[];
}

export function sweepAtRadius(points: SweepPoint[], kept: Map<number, SweepRows>, radius: number): SweepPoint[] | null {
  if (!points.every((p) => kept.has(p.turn))) return null;
  return points.map((p) => {
    const k = kept.get(p.turn)!;
    return { ...p, diagonal: diagonalRatio({ rows: k.rows, nRows: k.nRows, seqLen: k.seqLen }, k.priorSpans, radius).total };
  });
}

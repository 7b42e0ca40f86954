import { diagonalRatio, diagonals } from '../metrics/inertia';
import { headsOf, layerRows } from '../metrics/slab';
import type { PolicyResult } from './analyze';
import type { SweepPoint } from './sweep';
import type { SweepRows } from './sweep-rows';

/**
 * The same analysis at another diagonal radius, re-read from the attention it kept: no model pass.
 * Null when it kept too little (a cached start result has the head mean only): score it again then.
 */
export function atRadius(r: PolicyResult, radius: number): PolicyResult | null {
  if (r.radius === radius) return r;
  // The answer's rows among those kept (all of them, or every row of the full matrix).
  const answer = r.attention?.perHead ? layerRows(r.attention, r.query.start, r.query.end) : null;
  if (!answer) return null;
  const spans = r.diagonalPerAnswer.map((d) => r.messages[d.message]!.content);
  const shifts = r.copy.map((c) => c.shift);
  const diag = diagonals(answer.mean, spans, radius, shifts);
  const heads = headsOf(answer.perHead!);
  return {
    ...r,
    radius,
    diagonal: diag.total,
    diagonalCopyAligned: diag.copyAligned,
    diagonalPerAnswer: r.diagonalPerAnswer.map((d, i) => ({ ...d, value: diag.perAnswer[i]! })),
    perHead: r.perHead.map((h, i) => {
      const d = diagonals(heads[i]!, spans, radius, shifts);
      return { ...h, diagonal: d.total, diagonalCopyAligned: d.copyAligned };
    }),
  };
}

export function sweepAtRadius(points: SweepPoint[], kept: Map<number, SweepRows>, radius: number): SweepPoint[] | null {
  if (!points.every((p) => kept.has(p.turn))) return null;
  return points.map((p) => {
    const k = kept.get(p.turn)!;
    return { ...p, diagonal: diagonalRatio(k.mean, k.priorSpans, radius).total };
  });
}

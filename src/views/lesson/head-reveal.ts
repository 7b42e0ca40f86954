/** The head step's reveal: one head's diagonal ratio against its layer's mean, and where its line runs in the band. */
import { bandOffsets } from '../../metrics/inertia';
import type { PolicyResult } from '../../analysis/analyze';
import { answerRows, priorSpans } from './attention-reveals';
import { figuresOf, type LessonWorld, onPanel, percent, type Reveal, SILENT } from './world';

/**
 * Where one head's line runs in the band: the offset from the dotted centre that gets the most of its diagonal
 * (1: one token to the right, the token that came next in the earlier answer); null without that head's rows.
 */
export function headLine(r: PolicyResult, head: number): number | null {
  const answer = answerRows(r, head);
  if (!answer) return null;
  const by = bandOffsets(answer, priorSpans(r), r.radius);
  let best = 0;
  for (let k = 1; k < by.length; k++) if (by[k]! > by[best]!) best = k;
  return by[best]! > 0 ? best - r.radius : null;
}

/** The head step: one head's diagonal against its layer's mean, and where its line runs on the heatmap now showing it. */
export function headReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  const h = w.head === null ? undefined : r?.perHead[w.head];
  if (!r || !h || w.head === null) return SILENT;
  const name = `${r.layer}.${w.head}`;
  const n = r.perHead.length;
  const d = headLine(r, w.head);
  // At the band's edge the line may run further out than the band reaches: said as "at least".
  const edge = d !== null && Math.abs(d) === r.radius;
  const cells =
    d === null
      ? null
      : d === 1
        ? 'one token right of the dotted centre: at each token it looks at the token that came next in the prior assistant answer, the one it is about to copy'
        : d === 0
          ? 'on the dotted centre'
          : `${edge ? 'at least ' : ''}${Math.abs(d)} tokens ${d > 0 ? 'right' : 'left'} of the dotted centre: at each token it looks ${d > 0 ? 'further along' : 'further back in'} the prior assistant answer, not at the same place, so its diagonal ratio catches only part of that look`;
  const where = cells === null ? '' : ` The heatmap now shows this head alone: its bright cells sit ${cells}.`;
  // The brightest head may sit in another layer than the one every figure so far read: said in the fold.
  const moved = w.finalLayer !== null && r.layer !== w.finalLayer ? ` The figures now read layer ${r.layer}, where this head sits.` : '';
  return {
    said: `Head ${name}, one of layer ${r.layer}'s ${n} heads, puts ${percent(h.diagonal)} of the answer's attention on the diagonal; the ${n} on average, ${percent(r.diagonal)}: the copying is not spread evenly over the heads.${where}`,
    more: `${onPanel([`diagonal ratio of head ${name}`, h.diagonal], [`layer ${r.layer}'s heads on average`, r.diagonal])}${moved} The next step switches off the heads that copy most.`,
  };
}

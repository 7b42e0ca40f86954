/** The head step's reveal: one head's diagonal ratio against its layer's mean, and where its line runs in the band. */
import { headLine } from './attention-reveals';
import { linePhrase, stripesPhrase } from './band-reveals';
import type { PolicyResult } from '../../analysis/analyze';
import { figuresOf, type LessonWorld, onPanel, percent, type Reveal, SILENT } from './world';

/** The head step: one head's diagonal against its layer's mean, and where its line runs on the heatmap now showing it. */
export function headReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  const h = w.head === null ? undefined : r?.perHead[w.head];
  if (!r || !h || w.head === null) return SILENT;
  const name = `${r.layer}.${w.head}`;
  const n = r.perHead.length;
  const d = headLine(r, w.head);
  // At the band's edge the line may run further out than the band reaches: said as "at least".
  const stripes = stripesPhrase(r, w.head);
  // The stripes' tokens by name in the fold: the card keeps few figures.
  const where = stripes
    ? ' The heatmap now shows it alone. Many of its bright cells stand in upright stripes: row after row looks at one token of a prior assistant answer.'
    : d === null
      ? ''
      : ` The heatmap now shows it alone. Its bright cells sit ${linePhrase(d, Math.abs(d) === r.radius)}.`;
  // The brightest head may sit in another layer than the one every figure so far read: said in the fold.
  // Against the layer's mean, as said (rounded), and said only when well above it.
  const times = r.diagonal > 0 ? (h.diagonal / r.diagonal).toFixed(1) : '0';
  const moved = w.finalLayer !== null && r.layer !== w.finalLayer ? ` The figures now read layer ${r.layer}, where this head sits.` : '';
  return {
    // Not called copying where the head's band is largely upright stripes: the band counts those too.
    ...(Number(times) >= 1.5
      ? {
          takeaway: `The heads differ: this one has ${times} times the average diagonal ratio${
            stripes ? ', much of it from upright stripes (one token read row after row), not a line-by-line copy' : ''
          }.`,
        }
      : {}),
    said: `Head ${name} puts ${percent(h.diagonal)} of the answer's attention on the diagonal; the layer's ${n} heads on average, ${percent(r.diagonal)}.${where}`,
    more: `${stripes ? `The stripes stand ${stripes.said}. ${stripes.more} ` : ''}${onPanel([`diagonal ratio of head ${name}`, h.diagonal], [`layer ${r.layer}'s heads on average`, r.diagonal])}${moved} The next step switches off the top-diagonal heads.`,
  };
}

/**
 * The heads step's fold: how the three heads switched off compare (one may stand out, the others barely above the
 * rest), from the step's own start with every head on, and why the first layer's heads are left on.
 */
export function copiersSaid(r: PolicyResult | null, off: readonly string[]): string {
  const first =
    'The first layer copies too (the chart "By layer"), but without its top heads this small model writes no move at all: only the last layer\'s are switched off.';
  if (!r?.perHead?.length) return first;
  const named = off.map((name) => ({ name, d: r.perHead[Number(name.split('.')[1])]?.diagonal })).filter((h) => h.d !== undefined) as {
    name: string;
    d: number;
  }[];
  if (named.length < 2) return first;
  const [top, ...rest] = [...named].sort((a, b) => b.d - a.d);
  const others = rest.map((h) => `${h.name} ${percent(h.d)}`).join(', ');
  // Standing out: half as much again as the next of the three.
  const lead =
    top!.d >= rest[0]!.d * 1.5
      ? `head ${top!.name} stands out (${percent(top!.d)}); ${others} are only a little above the layer's ${percent(r.diagonal)} on average`
      : `${top!.name} ${percent(top!.d)}, ${others}, against the layer's ${percent(r.diagonal)} on average`;
  return `Of the three switched off, ${lead}. ${first}`;
}

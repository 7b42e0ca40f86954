/** The heads step's fold: how the heads switched off compare on the diagonal ratio. */
import { ordinal } from '../../util/ordinal';
import type { PolicyResult } from '../../analysis/analyze';
import { percent } from './world';

/**
 * The head of the figures' layer with the highest diagonal ratio: its name, how many times the layer's average it has,
 * and how many of the layer's heads have half as much again as the average.
 */
export function topHead(r: PolicyResult): { layer: number; head: number; diagonal: number; times: number; standOut: number } | null {
  if (!r.perHead?.length || r.diagonal <= 0) return null;
  const i = r.perHead.reduce((best, h, k) => (h.diagonal > r.perHead[best]!.diagonal ? k : best), 0);
  return {
    layer: r.layer,
    head: i,
    diagonal: r.perHead[i]!.diagonal,
    times: r.perHead[i]!.diagonal / r.diagonal,
    standOut: r.perHead.filter((h) => h.diagonal >= 1.5 * r.diagonal).length,
  };
}

/**
 * A head of the figures' layer in words, where "1.0" would read as a figure and "layer 1" as the first: "the last
 * layer's 1st head" (the lesson's figures read the last layer). Counted from 1, beside the page's label counted from 0
 * ("1st head (L1·H0)"): readers took L1 for the first layer.
 */
export const spokenHead = (h: { layer: number; head: number }): string => `the last layer's ${ordinal(h.head + 1)} head`;

/** What a head is, with this model's count of them, for the heads step's text (a newcomer meets heads here first). */
export function headsSaid(r: PolicyResult | null): string {
  const n = r?.perHead?.length;
  const shape = r && n ? `${r.layer + 1} layers of ${n} heads` : 'layers of heads';
  return `The model has ${shape} (drawn below), each looking its own way.`;
}

/** The grid's highest head against its layer's average, for the heads step's text ("In the grid, ★ marks the highest diagonal ratio, …"). */
export function topHeadSaid(r: PolicyResult | null): string {
  const h = r && topHead(r);
  return h
    ? // Said in words, not by its label: the label counts from 0, as the code and the papers do, and tripped readers.
      `In the grid, ★ marks the head with the highest diagonal ratio, ${spokenHead(h).replace(/ head$/, '')}.`
    : "The grid gives each head's diagonal ratio (★ the highest; heads named layer.head, counted from 0).";
}

/**
 * The heads step's fold: how the three heads switched off compare (one may stand out, the others barely above the
 * rest), from the step's own start with every head on, and why the first layer's heads are left on.
 */
export function copiersSaid(r: PolicyResult | null, off: readonly string[]): string {
  const first =
    'The first layer copies too (the chart "By layer"), but without its top heads this small model writes no move at all: only the last layer\'s are switched off.';
  if (!r?.perHead?.length) return first;
  // Named as the page names them ("L1·H0"): the head's index after the H.
  const named = off.map((name) => ({ name, d: r.perHead[Number(/H(\d+)$/.exec(name)?.[1] ?? Number.NaN)]?.diagonal })).filter((h) => h.d !== undefined) as {
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

/**
 * The heatmap step: how to read the picture before any figure is summed from it. A row is one token's attention
 * (the attention step's bar, laid out in colour); a copy is one bright cell where a token reads its word in an
 * earlier answer; a stripe is one token every row reads. Readers met all three and the band in one step and asked
 * for the picture first, the band after: the diagonal step now sums what this one taught to see.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { ordinal } from '../../util/ordinal';
import { answerRows, brighterMarker, brightestColumn, inLastPrior, priorSpans, tailRow } from './attention-reveals';
import { brightestCopy, copies, longestRun, pickCopy } from './copy-run';
import { stepNo } from './order';
import { quoted, whereToken } from './token-where';
import { figuresOf, LOADING, type LessonWorld, percent, type Reveal } from './world';

/** The heatmap step's text: what a row and a column are, then what a copy looks like and the real one the arrow marks. */
export function heatmapText(w: LessonWorld): string {
  const r = figuresOf(w);
  const turn = r?.messages.filter((m) => m.category === 'prior').at(-1)?.turn;
  return `Each row is one token of turn ${w.turns}'s answer, laid out as step ${stepNo('attention')}'s bar: brighter is more attention. Columns: the tokens it reads, zoomed on ${turn ? `turn ${turn}'s` : 'the last'} answer. ${copyBoxSaid(w)}`;
}

/**
 * What a copy looks like, then the real one the heatmap outlines (as HeatmapPanel finds it), its tokens and where
 * it stands against the dotted line: readers missed the box, one cell.
 */
export function copyBoxSaid(w: LessonWorld): string {
  const r = figuresOf(w);
  // The band's copies found once: the boxed one, and the brightest, whose offset names the second place.
  const found = r && copies(r, tailRow(r));
  const copy = found && pickCopy(found);
  const last = r && priorSpans(r).at(-1);
  // The brightest copy's offset names the second place ("10th or 11th"): where copies stand against the line (the
  // boxed example may sit on it, a ":" read at its own place, while the list's brightest copies run one ahead).
  const top = found?.any;
  const off = top && last ? top.k - last.start - (top.q - r.query.start) : null;
  // One ahead, said why: a row computes the next word, so a copier reads the word it copies next.
  const second = !off ? '' : off > 0 ? `, or its ${ordinal(10 + off)}, the word it copies next` : ` or ${ordinal(10 + off)}`;
  // Pointed at the drawing above the heatmaps: readers learned the idea from it, not from the real picture.
  const line = `A copy: a token reading the same word in a prior assistant answer. Copies in order make a slanted line (drawn above): its 10th token reads that answer's 10th${second}.`;
  if (!r || !copy || off === null) return line;
  // How long the real line runs, so a reader does not hunt for the drawing's long one (readers found none). A short
  // one said plainly: counting runs "2 in a row, 4 just past the band" sent readers hunting cell by cell.
  const run = longestRun(r)?.length ?? 0;
  const runs = run >= 3 ? `a bright line runs ${run} cells` : 'copies are single cells';
  // The boxed cell's two tokens, so the reader knows what to find under the arrow.
  const pair =
    copy.reads === 'next' ? `${quoted(r, copy.q)} reading ${quoted(r, copy.k)}, the word it writes next` : `${quoted(r, copy.q)} reading ${quoted(r, copy.k)}`;
  return `${line} Here ${runs}; the arrow marks one, ${pair}.`;
}

/**
 * The heatmap step's reveal, read off the page's result: the arrow's copy, with its weight against an even spread,
 * and the brightest stripe. Both are what the diagonal step's band will count, so the step ends on telling them apart.
 */
export function heatmapReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  if (!r) return LOADING;
  // The arrow's copy, found as the heatmap finds it.
  const copy = brightestCopy(r, tailRow(r));
  // The arrow's cell as read out under the heatmap (its weight to the same decimal): its two tokens and its weight, against an even spread over its row.
  const cell = copy
    ? `The arrow's cell: ${quoted(r, copy.q)} (${whereToken(r, copy.q)}) gives ${(copy.weight * 100).toFixed(1)} % of its attention to ${quoted(r, copy.k)} (${whereToken(r, copy.k)}), ${Math.round(copy.weight * (copy.q + 1))} times an even share.`
    : '';
  const stripe = stripeSaid(r);
  return {
    takeaway: 'Bright cells are copies of the same word, or stripes that every row reads.',
    said: `${cell} ${stripe}`.trim(),
    caveat: 'a stripe is not a copy: row after row reads that token, whatever word the row itself is.',
    more: `${copy ? `An even share here: each of the ${copy.q + 1} tokens the arrow's row sees given the same. ` : ''}Each row adds up to 100 %, as the bar of step ${stepNo('attention')} did, over the tokens before its own; the heatmap shows the part of each row that falls on the zoomed columns. Point at a cell to read its two tokens and its weight under the heatmap; "fit" shows the whole conversation.`,
  };
}

/**
 * The heatmap's brightest upright stripe, said where the learner sees it: the token before the answer its rows read
 * most, where it sits, and its share of the answer's attention. The zoom opens on the last prior assistant answer,
 * so a stripe there is on screen; another is found with "fit". Empty without the answer's rows.
 */
export function stripeSaid(r: PolicyResult): string {
  const c = brightestColumn(r);
  if (!c) return '';
  // The chat format's marker, where it is read more: the tallest column, said so it is not taken for the stripe named.
  const marker = brighterMarker(r, c);
  const named = `${quoted(r, c.k)} (${whereToken(r, c.k)}${inLastPrior(r, c.k) ? '' : ', "fit" shows it'}): every row reads it, ${percent(c.share)} of the answer's attention in all.`;
  return marker
    ? `Of the conversation's words, the brightest stripe is ${named} The tallest column is ${quoted(r, marker.k)}, the marker the chat format puts before the answer (${percent(marker.share)}): a stripe too, though nobody wrote it.`
    : `The brightest stripe is ${named}`;
}

/**
 * Where the heatmap points at the brightest stripe (`brightestColumn`): its column and the answer row that reads it
 * most, as token indices; null when the stripe lies outside the zoom on the last prior assistant answer.
 */
export function stripeCell(r: PolicyResult): { q: number; k: number } | null {
  const c = brightestColumn(r);
  const answer = answerRows(r);
  if (!c || !answer || !inLastPrior(r, c.k)) return null;
  let best = 0;
  for (let i = 1; i < answer.rows; i++) if (answer.data[i * answer.seqLen + c.k]! > answer.data[best * answer.seqLen + c.k]!) best = i;
  return { q: r.query.start + best, k: c.k };
}

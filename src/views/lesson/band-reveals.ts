/**
 * The diagonal step's reveal, and how the bright cells in the band are said: along a line off the dotted centre, or
 * in upright stripes where row after row looks at one token.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { bandColumns } from '../../metrics/inertia';
import { answerRows, diagonalByLines, bandLine, inLastPrior, overTurns, priorSpans } from './attention-reveals';
import { quoted, whereToken } from './token-where';
import {
  AGAINST_CHANCE,
  bandCells,
  capitalised,
  evenDiagonal,
  figuresOf,
  LOADING,
  LOOKS_BACK,
  type LessonWorld,
  onPanel,
  percent,
  type Reveal,
  SILENT,
  VERSUS_CHANCE,
  versusChance,
} from './world';

/** The diagonal step's ask, with the chance level so the guess has a scale (the ask alone until the figures are in). */
export function diagonalAsk(w: LessonWorld): string {
  const r = figuresOf(w);
  const even = r ? evenDiagonal(r) : 0;
  if (!r || !(even > 0)) return 'Does the band get more than an even share, about as much, or less?';
  // The share alone before the guess: readers stopped at the cells' arithmetic (`bandWorked`, in the fold after).
  return `An even share, looking at every token equally, would put ${percent(even)} there. Does the band get more?`;
}

/**
 * Chance worked out in round numbers, for the reveal's fold: the band's cells in a row, averaged over the rows,
 * against the tokens a row sees (to two figures, 597 → 600: the rows see a few more each, so no one count is exact).
 */
export function bandWorked(r: PolicyResult): string {
  const rows = bandCells(r);
  if (!rows.length) return '';
  const cells = Math.round(rows.reduce((t, x) => t + x.cells, 0) / rows.length);
  const seen = rows.reduce((t, x) => t + x.seen, 0) / rows.length;
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(seen)) - 1);
  return `The even share worked out: a row's band holds up to ${2 * r.radius + 1} tokens of each prior assistant answer, fewer where an answer is short or the row is near its start, ${cells} in all on average, of the ${Math.round(seen / unit) * unit} tokens a row sees (those before the answer, and the answer's own so far: a later row sees more).`;
}

/** The tokens the band's attention falls on most: up to two, each with its part of the band's attention; null without the rows. */
export function bandStripes(r: PolicyResult): { k: number; share: number; rows: number }[] | null {
  const answer = answerRows(r);
  if (!answer) return null;
  const cols = bandColumns(answer, priorSpans(r), r.radius);
  const total = [...cols.values()].reduce((x, v) => x + v.mass, 0);
  if (!(total > 0)) return null;
  return [...cols]
    .sort((x, y) => y[1].mass - x[1].mass)
    .slice(0, 2)
    .map(([k, v]) => ({ k, share: v.mass / total, rows: v.rows }));
}

/** The band's stripes worth saying: a tenth of the band or more each, a third together, 3 rows or more each; null when none. */
function strongStripes(r: PolicyResult) {
  const top = (bandStripes(r) ?? []).filter((s) => s.share >= 0.1 && s.rows >= 3);
  return top.length && top.reduce((x, s) => x + s.share, 0) >= 1 / 3 ? top : null;
}

/**
 * Stripes named as the card says them: each token quoted, with where it sits, and "upright stripes" or "an upright
 * stripe" by their number (`note`: what to add after where a token sits).
 */
function namedStripes(r: PolicyResult, top: { k: number }[], note: (k: number) => string = () => ''): string {
  const named = top.map((s) => `${quoted(r, s.k)} (${whereToken(r, s.k)}${note(s.k)})`).join(' and ');
  return `${top.length > 1 ? 'upright stripes' : 'an upright stripe'} on ${named}`;
}

/**
 * Bright cells in the band that stand in upright stripes, said: the tokens (a tenth of the band or more each, a
 * third together) that row after row looks at (3 rows or more, each giving it a twentieth of its attention); null
 * when the band's attention is spread, not gathered so.
 */
export function stripesPhrase(r: PolicyResult): { said: string; more: string } | null {
  const top = strongStripes(r);
  if (!top) return null;
  // The lesson's heatmap opens on the last prior assistant answer: a stripe elsewhere is found with "fit".
  return {
    said: `in ${namedStripes(r, top, (k) => (inLastPrior(r, k) ? '' : ', outside the zoom'))}`,
    more: `${top.length > 1 ? 'Those tokens get' : 'That token gets'} ${top.map((s) => percent(s.share)).join(' and ')} of the attention in the band; the band counts only the part of a stripe within ${r.radius} tokens of the dotted line.`,
  };
}

/** The diagonal step: the guess, the diagonal ratio, and what attention spread evenly would put in its band. */
export function diagonalReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  if (!r) return LOADING;
  const even = evenDiagonal(r);
  const k = even > 0 ? r.diagonal / even : 0;
  // The guess was one of more, about or less than chance: the figure is read the same way, so the two meet.
  const got = versusChance(k);
  const guessed = w.guesses.diagonal;
  const verdict = k >= 2 ? 'well above an even share' : VERSUS_CHANCE[got];
  // At a wall, with the ratio above chance: the split by lines, said and drawn (computed once); the split is the verdict.
  const atWall = w.walls !== null && k >= AGAINST_CHANCE.inOrder;
  const lines = atWall ? diagonalByLines(r) : null;
  const split = atWall ? wantedOrNot(r, lines) : SILENT;
  // Where its brightest cells stand, as the picture shows them (stripes, or a line off the dotted centre); off a
  // wall the card also gives the verdict on the ratio.
  const d = bandLine(r);
  const stripe = stripeOnCard(r, d);
  const right = guessed === got;
  const times = even > 0 ? `, ${k.toFixed(1)} times the ${percent(even)} even share${right && lines ? '' : `, ${verdict}`}` : '';
  const yours = guessed === undefined ? '' : `You guessed ${VERSUS_CHANCE[guessed]}${right ? ', rightly; ' : '; '}`;
  // Each bar an average over its own tokens, against its own chance: readers took parts of one sum for one figure.
  const rows = [{ label: 'whole answer', value: r.diagonal, even }];
  if (lines) {
    const own = perToken(lines, answerRows(r)?.rows ?? 0);
    rows.push(
      { label: 'list of cells (above the white line)', value: own.before, even: own.evenBefore },
      { label: 'thought and move (below it)', value: own.last, even: own.evenLast },
    );
  }
  return {
    bars: {
      caption:
        'Attention on the diagonal: each part averaged over its own tokens, against its own even share (a later row sees more tokens, so its even share is smaller)',
      rows,
    },
    // The brightest things on the heatmap are not what the band measures: said unfolded, readers judged by them.
    caveat: "a stripe's cells inside the band count too, though not copies, so a band can pass its even share with little copying.",
    ...(split.takeaway ? { takeaway: split.takeaway } : {}),
    // Where the lines split it, that split is the card's reading; where the bright cells stand, in the fold.
    said: `${yours}the band gets ${percent(r.diagonal)}${times}.${lines ? '' : stripe}${split.said}`,
    more: `${split.more ? `${split.more} ` : ''}${lines && stripe ? `${stripe.trim()} ` : ''}${offLine(r, d)}${lineSaid(r)}${onPanel(['diagonal ratio', r.diagonal])} ${even > 0 ? `${bandWorked(r)} ` : ''}It is part of the ${percent(r.ratios.prior)} the answer gives its prior assistant answers in all.${w.walls !== null ? overTurns('diagonal', k) : ''}`.trim(),
  };
}

/**
 * A maze answer's diagonal is mostly its list of cells, which the task asks it to copy: said in words, with the
 * split by lines in the fold when the answer's rows are there, so the copying is not taken for inertia.
 */
function wantedOrNot(r: PolicyResult, s: ReturnType<typeof diagonalByLines>): Reveal {
  if (!s) return { said: ' Here much of it is the list of cells, which the task asks it to copy, not the move.' };
  // The thought and move lines against their own chance: copying there is the trace of the repeated move.
  const k = s.evenLast > 0 ? s.last / s.evenLast : 0;
  const own = perToken(s, answerRows(r)?.rows ?? 0);
  const traced = k >= LOOKS_BACK;
  const verdict = traced
    ? `at ${k.toFixed(1)} times an even share, the trace in attention of the repeated thought and move`
    : `${k < 0.67 ? 'below' : 'at about'} an even share, so they do not copy a prior assistant answer in step`;
  // How much of the diagonal the list gives, in words (none: the answer has no line before its thought): the takeaway.
  const list = s.before >= s.last ? 'Most' : s.before > 0 ? 'Part' : null;
  const takeaway = list
    ? `It copies in order ${list === 'Most' ? 'mostly' : 'partly'} the list of cells the task asks for, ${traced ? 'and the move too' : 'not the move'}.`
    : undefined;
  return {
    ...(takeaway ? { takeaway } : {}),
    said: ` Each list of cells (above the white line) should be the one before plus the new cell (the model sometimes gets it wrong), so copying it is the task. The thought and move (below it) sit ${verdict}.`,
    // Each part as the bars give it, an average over its own tokens: readers met the parts of the sum beside the bars and took them for other figures.
    more: `An answer that copied a whole prior assistant answer line for line would show here. As the bars give them, averaged over their own tokens: the list of cells, which the task asks it to copy, ${percent(own.before)} (even share ${percent(own.evenBefore)}); the thought and move lines ${percent(own.last)} (even share ${percent(own.evenLast)}).`,
  };
}

/**
 * The split by lines as each part's own average: its rows' diagonal over its own count of rows, not over the whole
 * answer's (`rows`), and its chance the same way. A part with no rows gets 0.
 */
export function perToken(s: NonNullable<ReturnType<typeof diagonalByLines>>, rows: number) {
  const own = (part: number, n: number) => (n > 0 ? (part * rows) / n : 0);
  return {
    before: own(s.before, s.rowsBefore),
    evenBefore: own(s.evenBefore, s.rowsBefore),
    last: own(s.last, s.rowsLast),
    evenLast: own(s.evenLast, s.rowsLast),
  };
}

/**
 * Where the head mean's brightest cells stand in the band, said on the diagonal step's card: in upright stripes
 * (which the band counts too, copying or not), else along a line `d` tokens off the dotted centre (`d`: as
 * `bandLine` found it); nothing when they run on it.
 */
function stripeOnCard(r: PolicyResult, d: number | null): string {
  const top = strongStripes(r);
  // No stripes: where the bright cells run against the dotted line, as the picture shows them (off it, the reader
  // would look for a line that is not there).
  if (!top)
    return d === null || d === 0
      ? ''
      : Math.abs(d) >= 2
        ? ` Its brightest cells sit a few tokens ${d > 0 ? 'right' : 'left'} of the dotted line${Math.abs(d) === r.radius ? ", up to the band's edge" : ''}: the band counts them, as it counts anything within ${r.radius} tokens of the line.`
        : ` Its brightest cells run ${linePhrase(d > 0 ? 1 : -1)}.`;
  return ` Its brightest cells stand in ${namedStripes(r, top)}, looked at row after row: the band counts ${top.length > 1 ? 'them' : 'it'} too, copying or not.`;
}

/**
 * Where bright cells sit one token off the dotted centre (`d`: +1 or −1; further off, the card says "a few tokens"): a
 * copier's row computes the next word, so it often reads the token after the in-step one.
 */
export function linePhrase(d: 1 | -1): string {
  return d > 0
    ? 'one token right of the dotted centre: each row computes the next word, so a copier looks at the token after the in-step one, the word it is about to write'
    : 'one token left of the dotted centre, not on it, so the band catches only part of that look';
}

/**
 * Why the brightest cells run off the dotted line, in the fold (the card says only where): the model writes one token
 * at a time, so a copier reads on to what it copies next. Nothing where the card names stripes or a line near the centre.
 */
function offLine(r: PolicyResult, d: number | null): string {
  if (strongStripes(r) || d === null || Math.abs(d) < 2) return '';
  return d > 0
    ? 'Each row is a token just written; a copier reads the word that comes next in the prior assistant answer, a little past its own place. '
    : 'Each row looks a little further back in that prior assistant answer than the word it copies. ';
}

/** The diagonal step's fold: how much of the band the head mean's upright stripes hold, when the card names them. */
const lineSaid = (r: PolicyResult): string => {
  const stripes = stripesPhrase(r);
  return stripes ? `${stripes.more} ` : '';
};

/** What the band does under Filler, in the order a guess offers it. */
export const UNDER_FILLER = ['falls', 'stays about the same', 'rises'] as const;
/** Which of `UNDER_FILLER` Filler's band against Full's reads as: within a factor of 1.2 either way is "about the same". */
export const fillerMoves = (full: number, filler: number): 0 | 1 | 2 =>
  filler <= full / AGAINST_CHANCE.inOrder ? 0 : filler >= full * AGAINST_CHANCE.inOrder ? 2 : 1;

/**
 * The Filler step: Filler keeps where the prior assistant answers' tokens sit and swaps their words, so a band that
 * falls with it rests on what the answers say, one that stays on where the tokens sit. Its own step, after the band:
 * readers found the band and its control in one card two lessons in one.
 */
export function fillerReveal(w: LessonWorld): Reveal {
  const [full, r] = [figuresOf(w, 'full'), figuresOf(w, 'filler')];
  if (!full || !r) return LOADING;
  const [even, evenFull] = [evenDiagonal(r), evenDiagonal(full)];
  const got = fillerMoves(full.diagonal, r.diagonal);
  const guessed = w.guesses.filler;
  const yours = guessed === undefined ? '' : `You guessed it ${UNDER_FILLER[guessed]}${guessed === got ? ', rightly' : ''}; `;
  const follows = r.diagonal < full.diagonal / 2;
  const belowChance = even > 0 && r.diagonal < even;
  return {
    takeaway: follows
      ? 'Most of the band goes with the words, so it rests on what the answers say.'
      : 'Much of the band stays without the words, so part of it follows where tokens sit.',
    bars: {
      caption: 'Attention on the diagonal of the same answer, with the prior assistant answers as written and with filler in their place',
      rows: [
        { label: 'as written (left heatmap)', value: full.diagonal, even: evenFull },
        { label: 'with filler (right heatmap)', value: r.diagonal, even },
      ],
    },
    said: `${capitalised(`${yours}the band gets ${percent(r.diagonal)} with filler in the answers' place, against ${percent(full.diagonal)} as written.`)}${
      belowChance ? ` That is below its ${percent(even)} even share: between the pink lines Filler's heatmap is mostly dark.` : ''
    }`,
    caveat: 'filler is odd text to the model, so part of the drop may be how it reads filler, not lost copies.',
    more: `Filler keeps every token where it was, so the band covers the same cells; only what they say changed. ${onPanel(['diagonal ratio', full.diagonal], ['diagonal ratio under Filler', r.diagonal])}`,
  };
}

/**
 * The reveals of the steps that read the attention figures against a yardstick: the five shares (the sink among them), the
 * diagonal ratio, the diagonal under Filler beside it, and where one token looks. Plain functions of the page's snapshot.
 */
import type { PolicyResult } from '../../analysis/analyze';
import type { Category } from '../../metrics/categories';
import { bandOffsets, diagonalRows } from '../../metrics/inertia';
import { type AttentionSlab, rowsOf } from '../../metrics/slab';
import { AGAINST_CHANCE, evenBandRows, evenShare, figuresOf, type LessonWorld, LOADING, onPanel, percent, type Reveal } from './world';
import { WALL_COUNTS, type WallCounts } from './wall-records';

/** The kinds of token the shares step draws, by the names the figures panel gives them. */
const CATEGORY_LABELS = {
  sink: 'sink (first 3 tokens)',
  system: 'system prompt',
  user: "user's turns",
  prior: 'prior assistant answers',
  current: 'current answer',
} as const;

/** The shares step: the guess, the share on prior assistant answers and its yardstick; the other shares folded. */
export function sharesReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  if (!r) return LOADING;
  const yardstick = priorYardstick(r);
  // All five kinds, so the bars add up to 100 %, each against its share of the tokens the answer's rows can see.
  const kinds = (['sink', 'system', 'user', 'prior', 'current'] as const).map((c) => ({
    // The sink named as where large models park attention: a small one that parks next to none there is said so.
    label: c === 'sink' && r.ratios.sink < 0.05 ? 'sink (first 3 tokens; this small model parks little there)' : CATEGORY_LABELS[c],
    value: r.ratios[c],
    even: evenShare(r, c),
  }));
  return {
    // Adding up to 100 %: why, where two kinds get more than chance, the user's turns get less (a reader asks).
    bars: {
      caption: "Where the answer's attention goes, averaged over its tokens",
      rows: kinds,
    },
    ...priorTakeaway(r),
    // The bars a reader asks about next (the user's turns below chance, the current answer far above); the sink, in the fold.
    said: `You guessed ${percent(w.guesses.prior ?? 0)}; they get ${percent(r.ratios.prior)} of its attention${yardstick.lead}.${yardstick.rest}${othersSaid(r)}`,
    // Over every turn at a wall, not one answer; and what step 6 said of a glance, carried here: a share by kind is a rough map.
    more: `${onPanel(['prior assistant', r.ratios.prior])}${w.walls !== null ? overTurns('prior', r.ratios.prior / (evenShare(r, 'prior') || 1)) : ''} The five add up to 100 %: what one kind gets above its even share, the others give up. The rest: ${percent(r.ratios.user)} to the user's turns, ${percent(r.ratios.system)} to the system prompt, ${percent(r.ratios.current)} to the current answer itself${selfSaid(r)}. ${sinkSaid(r.ratios.sink)}`,
    // The limit of any share, unfolded: the 5.2 times chance of the answer's own words waits in the fold (a teacher found it pulled the eye off the point).
    caveat: 'a share says where the answer looks, not what it takes in: each token carries the words before it, like a running summary.',
  };
}

/**
 * The same figure over every stored turn right after a wall, against its chance there, beside this one answer's
 * (`k`: its figure in times chance): readers asked whether one answer stands for the rest. Empty without the record.
 */
export function overTurns(kind: 'prior' | 'diagonal', k: number, c: WallCounts = WALL_COUNTS): string {
  const mean = overTurnsMean(kind, c);
  if (!mean) return '';
  const { v, e, times } = mean;
  const what = kind === 'prior' ? 'the answers give their prior assistant answers' : 'the band gets';
  // "Of their attention": the share of the tokens is a per cent too, and readers took one for the other.
  const of = kind === 'prior' ? ' of their attention' : '';
  const like =
    Math.abs(times - k) <= 0.15 ? ': this answer is typical' : times < k ? ': this answer leans more than most' : ': this answer leans less than most';
  // Whole per cents where their ratio reads as the one given; else one decimal (a reader met "16 % (chance 12 %), 1.4
  // times" and worked out 1.3).
  const whole = (Math.round(v * 100) / Math.round(e * 100)).toFixed(1) === times.toFixed(1);
  const [pv, pe] = whole ? [percent(v), percent(e)] : [`${(v * 100).toFixed(1)} %`, `${(e * 100).toFixed(1)} %`];
  return ` Over the ${c.turns} turns right after a wall, ${what} ${pv}${of} on average (even share ${pe}), ${times.toFixed(1)} times an even share${like}.`;
}

/** A figure's mean over every stored turn at a wall, its chance there and the two's ratio; null without the record. */
export function overTurnsMean(kind: 'prior' | 'diagonal', c: WallCounts = WALL_COUNTS): { v: number; e: number; times: number } | null {
  const reads = c.reads;
  if (!reads) return null;
  const [v, e] = kind === 'prior' ? [reads.prior, reads.priorEven] : [reads.diagonal, reads.diagonalEven];
  return e > 0 ? { v, e, times: v / e } : null;
}

/** Is a share a lot? Against what the prior assistant answers would get if attention were spread evenly over the tokens. */
export function priorYardstick(r: PolicyResult): { lead: string; rest: string } {
  const even = evenShare(r, 'prior');
  if (even <= 0) return { lead: '', rest: '' };
  const k = r.ratios.prior / even;
  // The times-chance in the sentence the card shows: readers found it only in the fold.
  return {
    lead: `, ${k.toFixed(1)} times an even share (they are ${percent(even)} of the tokens it can see)`,
    rest:
      k < 1.5
        ? ` An even share, looking at every token equally, would give them just their part of the tokens; ${k < 1.05 ? 'they get about that' : 'they get a little more'}. The diagonal, next, tells copying apart from mere length.`
        : ' An even share is what looking at every token equally would give them.',
  };
}

/** The other bars that stand off chance, in words (no figures: the bars give them); the answer's own words, in the caveat. */
function othersSaid(r: PolicyResult): string {
  const low = r.ratios.user < 0.8 * evenShare(r, 'user');
  return low ? " The user's turns get less than their share of the tokens, since what one kind gets above its even share, the others give up." : '';
}

/** How many times chance the answer's look at itself is, where twice chance or more (said on the card and in the fold); else null. */
function selfTimes(r: PolicyResult): number | null {
  const even = evenShare(r, 'current');
  return even > 0 && r.ratios.current >= 2 * even ? r.ratios.current / even : null;
}

/** The answer's look at itself against chance, where well above it: the bar a reader asks about (a token reads the words just before it most). */
function selfSaid(r: PolicyResult): string {
  const k = selfTimes(r);
  return k === null
    ? ''
    : ` (${k.toFixed(1)} times an even share: each token reads the few words just before it most, the bright cells at the heatmap's right end)`;
}

/** The sink's share, read against what large models do: a strong sink shows as bright columns at the heatmap's left edge. */
function sinkSaid(sink: number): string {
  return sink >= 0.2
    ? `The sink takes ${percent(sink)}, as in most large models: bright columns at the heatmap's left edge, tokens every row of the answer looks at.`
    : `The sink takes ${percent(sink)}: this tiny model has almost no sink, unlike most large models, where it shows as bright columns at the heatmap's left edge.`;
}

/** The shares step's point: the prior assistant answers' share against their part of the text. */
function priorTakeaway(r: PolicyResult): Pick<Reveal, 'takeaway'> {
  const even = evenShare(r, 'prior');
  if (even <= 0) return {};
  const k = r.ratios.prior / even;
  return {
    takeaway:
      k < AGAINST_CHANCE.aLittle
        ? 'Its prior assistant answers get about what their length alone would give them.'
        : k < AGAINST_CHANCE.leans
          ? 'Its prior assistant answers get a little more attention than their length alone gives them.'
          : `Its prior assistant answers get ${k.toFixed(1)} times what their length alone would give them.`,
  };
}

/** The prior assistant answers' content spans, in the order of the diagonal's breakdown: where its bands lie. */
export const priorSpans = (r: PolicyResult) => r.diagonalPerAnswer.map((d) => r.messages[d.message]!.content);

/** Whether token `k` lies in the last prior assistant answer's words: the lesson's heatmap zoom, where a stripe is on screen. */
export function inLastPrior(r: PolicyResult, k: number): boolean {
  const last = priorSpans(r).at(-1);
  return !!last && k >= last.start && k < last.start + last.length;
}

/** The answer's rows of the head-mean attention (a full matrix starts at row 0); null where the page kept fewer, or none. */
export function answerRows(r: PolicyResult): AttentionSlab | null {
  const whole = r.attention?.mean;
  const answer = whole ? rowsOf(whole, r.query.start, r.query.end) : null;
  return answer && answer.rows > 0 ? answer : null;
}

/**
 * Where the answer's line (head mean) runs in the band: the offset from the dotted centre that gets the most of its
 * diagonal (1: one token to the right, the token that came next in the earlier answer); null without those rows.
 */
export function bandLine(r: PolicyResult): number | null {
  const answer = answerRows(r);
  if (!answer) return null;
  const by = bandOffsets(answer, priorSpans(r), r.radius);
  let best = 0;
  for (let k = 1; k < by.length; k++) if (by[k]! > by[best]!) best = k;
  return by[best]! > 0 ? best - r.radius : null;
}

/**
 * The answer's first row (counted from its first token) on its last `tail` lines: where a maze answer's thought and
 * move start, its list of cells above. A token that holds a line break ends its line.
 */
export function tailRow(r: PolicyResult, tail = 2): number {
  const texts = r.tokens.slice(r.query.start, r.query.end).map((t) => t.text);
  const lineOf: number[] = [];
  let line = 0;
  for (const t of texts) {
    lineOf.push(line);
    line += t.match(/\n/g)?.length ?? 0;
  }
  const first = lineOf.findIndex((l) => l >= line + 1 - tail);
  return first < 0 ? texts.length : first;
}

/**
 * The diagonal ratio split by the answer's lines: the part its last `tail` lines put on the diagonal (a maze
 * answer's thought and move) and the part of the lines before them (its list of cells). Each is that part's rows
 * summed over all the answer's rows, so the two add up to the ratio, with each part's count of rows (its own
 * average is the part times the answer's rows over its own); null without the answer's rows of attention.
 */
export function diagonalByLines(
  r: PolicyResult,
  tail = 2,
): { before: number; last: number; evenBefore: number; evenLast: number; rowsBefore: number; rowsLast: number } | null {
  const answer = answerRows(r);
  if (!answer) return null;
  const rows = answer.rows;
  const byRow = diagonalRows(answer, priorSpans(r), r.radius);
  const from = tailRow(r, tail);
  // Each part beside what attention spread evenly would give the same rows: its own yardstick.
  const even = evenBandRows(r);
  const part = { before: 0, last: 0, evenBefore: 0, evenLast: 0, rowsBefore: Math.min(from, rows), rowsLast: Math.max(0, rows - from) };
  for (let i = 0; i < rows; i++) {
    const tailPart = i >= from;
    part[tailPart ? 'last' : 'before'] += byRow[i]! / rows;
    part[tailPart ? 'evenLast' : 'evenBefore'] += even[i]! / rows;
  }
  return part;
}

/** The attention the slab's rows give token k, as a mean over those rows: how bright its column is. */
export function columnMean(slab: AttentionSlab, k: number): number {
  let sum = 0;
  for (let i = 0; i < slab.rows; i++) sum += slab.data[i * slab.seqLen + k]!;
  return slab.rows > 0 ? sum / slab.rows : 0;
}

/**
 * The column before the answer (the sink aside) that the answer's rows read most, as a mean over those rows: among
 * the tokens of a message's text (`inText`), or among the chat template's markers around them (not `inText`).
 */
function brightestBefore(r: PolicyResult, answer: AttentionSlab, inText: boolean): { k: number; share: number } | null {
  let best: { k: number; share: number } | null = null;
  for (let k = 0; k < r.query.start; k++) {
    const t = r.tokens[k]!;
    const text = r.messages[t.message]?.content;
    const isText = text !== undefined && k >= text.start && k < text.start + text.length;
    if (t.category === 'sink' || isText !== inText) continue;
    const share = columnMean(answer, k);
    if (!best || share > best.share) best = { k, share };
  }
  return best;
}

/**
 * The heatmap's brightest upright stripe among the conversation's words: the one token of a message's text before
 * the answer (the sink and the template's markers aside) that the answer's rows give the most attention, as a mean
 * over those rows; null without the answer's rows of attention.
 */
export function brightestColumn(r: PolicyResult): { k: number; text: string; category: Category; turn: number | null; message: number; share: number } | null {
  const answer = answerRows(r);
  const best = answer && brightestBefore(r, answer, true);
  if (!best) return null;
  const t = r.tokens[best.k]!;
  return { k: best.k, text: t.text, category: t.category, turn: r.messages[t.message]?.turn ?? null, message: t.message, share: best.share };
}

/**
 * The chat format's brightest marker before the answer ("<|im_start|>" and the like: tokens outside every message's
 * text, the sink aside), when the answer's rows read it more than any word of the conversation (`named`, the
 * `brightestColumn` a caller has already found): the tallest column on the heatmap, which readers took for the stripe
 * the card names. Null otherwise.
 */
export function brighterMarker(r: PolicyResult, named = brightestColumn(r)): { k: number; share: number } | null {
  const answer = answerRows(r);
  const best = answer && named && brightestBefore(r, answer, false);
  return best && best.share > named!.share ? best : null;
}

/** The tokens of the prior assistant answers with the same text as a token, and the attention they get from it. */
export interface SameWord {
  /** How many such tokens it can see. */
  count: number;
  /** The attention they get from the token, summed. */
  share: number;
  /** What they would get from attention spread evenly over every token it can see. */
  even: number;
  /** Where they are (token indices), and the one of them the token looks at most. */
  keys: number[];
  top: number;
}

/** How many times what an even spread would give them the same word's tokens get: a repeat's "look back" (the stored counts, training/wall-turns.ts). */
export const timesEven = (s: SameWord): number => s.share / s.even;

/** A word to match across answers: the token's text trimmed and lower-cased, or null when it holds no letter. */
const wordOf = (text: string): string | null => (/\p{L}/u.test(text) ? text.trim().toLowerCase() : null);

/** Where one token of the answer looks: its attention by kind of token, the prior assistant answer it looks at most, and the same word in those answers. */
export function tokenReading(
  r: PolicyResult,
  row: number,
): {
  text: string;
  shares: Record<Category, number>;
  topAnswer: { turn: number | null; share: number } | null;
  sameWord: SameWord | null;
  /** The one token it looks at most (its index), and its kind. */
  top: { k: number; text: string; category: Category };
} | null {
  const a = r.attention?.mean;
  if (!a || row < 0 || row >= a.rows) return null;
  const q = a.rowStart + row;
  const at = (k: number) => a.data[row * a.seqLen + k]!;
  const shares: Record<Category, number> = { sink: 0, system: 0, user: 0, prior: 0, current: 0 };
  for (let k = 0; k <= q; k++) shares[r.tokens[k]!.category] += at(k);
  // Each prior assistant answer's part of the row (its tokens, sink tokens aside as the shares count them).
  let topAnswer: { turn: number | null; share: number } | null = null;
  for (const m of r.messages) {
    if (m.category !== 'prior') continue;
    let share = 0;
    for (let k = m.span.start; k < Math.min(q + 1, m.span.start + m.span.length); k++) if (r.tokens[k]!.category === 'prior') share += at(k);
    if (!topAnswer || share > topAnswer.share) topAnswer = { turn: m.turn, share };
  }
  // The same word written in earlier answers: where a repeated move looks back at the earlier ones.
  const word = wordOf(r.tokens[q]!.text);
  let sameWord: SameWord | null = null;
  if (word !== null) {
    const same = r.tokens.slice(0, q).flatMap((t, k) => (t.category === 'prior' && wordOf(t.text) === word ? [k] : []));
    if (same.length)
      sameWord = {
        count: same.length,
        share: same.reduce((s, k) => s + at(k), 0),
        even: same.length / (q + 1),
        keys: same,
        top: same.reduce((b, k) => (at(k) > at(b) ? k : b)),
      };
  }
  let best = 0;
  for (let k = 1; k <= q; k++) if (at(k) > at(best)) best = k;
  return { text: r.tokens[q]!.text, shares, topAnswer, sameWord, top: { k: best, text: r.tokens[best]!.text, category: r.tokens[best]!.category } };
}

/**
 * The reads step's reveal: where the pointed token looks, in words, and drawn as a worked example of attention:
 * the few tokens it looks at most and everything else, sharing its 100 %.
 */
import type { PolicyResult } from '../../analysis/analyze';
import type { Category } from '../../metrics/categories';
import { answerRows, columnMean, timesEven, tokenReading } from './attention-reveals';
import { isMove } from './moves';
import { looksBackShare, looksRare, lookTally } from './wall-counts';
import { type Bars, figuresOf, LOOKS_BACK, type LessonWorld, percent, type Reveal, SILENT } from './world';

/** Where token k sits, as the Conversation panel shows it: the turn and kind of its message, and its line's name ("Thought"). */
export function whereToken(r: PolicyResult, k: number): string {
  const t = r.tokens[k]!;
  const m = r.messages[t.message];
  if (t.category === 'sink' || !m) return 'the sink';
  const owner =
    t.category === 'current'
      ? 'its own answer'
      : t.category === 'prior'
        ? `turn ${m.turn}'s answer`
        : t.category === 'user'
          ? `turn ${m.turn}'s user message`
          : 'the system prompt';
  // The line's first words where they label it ("Thought: ...", "Action -> ..."; the token itself may be the mark):
  // a maze answer's lines are named so.
  let text = '';
  for (let j = m.span.start; j <= k; j++) text += r.tokens[j]!.text;
  const line = text.split('\n').pop()!;
  const label = /^\s*(\p{L}[\p{L} ]{0,12}?)\s*(:|->)/u.exec(line)?.[1];
  return label && t.category !== 'system' ? `${owner}, ${label} line` : owner;
}

/** Where a token sits, without its turn (the card's way; whereToken names the turn and line, in the fold). */
const KIND: Record<Category, string> = {
  sink: 'the sink',
  system: 'the system prompt',
  user: "a user's turn",
  prior: 'a prior assistant answer',
  current: 'its own answer so far',
};

/** A token's text for the card: trimmed and quoted. */
export const quoted = (r: PolicyResult, k: number) => JSON.stringify(r.tokens[k]!.text.trim() || r.tokens[k]!.text);

/**
 * A worked example of attention: where row `row` of the answer puts its 100 %, in parts that add up to it: a group
 * of tokens (`group`: the same word in prior assistant answers) first, then the `n` single tokens outside it it
 * looks at most, then every other token together; each beside chance (its tokens' share of an even spread).
 */
export function topLooks(r: PolicyResult, row: number, n = 3, group?: { keys: number[]; label: string }): Bars | null {
  const a = r.attention?.mean;
  if (!a || row < 0 || row >= a.rows) return null;
  const q = a.rowStart + row;
  const at = (k: number) => a.data[row * a.seqLen + k]!;
  const inGroup = new Set(group?.keys ?? []);
  const ks = Array.from({ length: q + 1 }, (_, k) => k)
    .filter((k) => !inGroup.has(k))
    .sort((x, y) => at(y) - at(x))
    .slice(0, n);
  const one = 1 / (q + 1);
  const rows = [
    ...(group ? [{ label: group.label, value: group.keys.reduce((s, k) => s + at(k), 0), even: group.keys.length * one }] : []),
    ...ks.map((k) => ({ label: `${quoted(r, k)} (${whereToken(r, k)})`, value: at(k), even: one, at: k })),
  ];
  const others = q + 1 - inGroup.size - ks.length;
  rows.push({ label: `the other ${others} tokens together`, value: 1 - rows.reduce((s, x) => s + x.value, 0), even: others * one });
  return {
    caption: `Where its 100 % goes: ${group ? `${group.label}, then ` : ''}the ${ks.length} tokens it looks at most${group ? ' besides' : ''}, and the rest`,
    rows,
  };
}

/** The attention row `row` of the answer puts on token k. */
const at = (r: PolicyResult, row: number, k: number): number => {
  const a = r.attention!.mean;
  return a.data[row * a.seqLen + k]!;
};

/** The reads step: where the pointed token looks, in words; for a word the earlier answers also wrote, how much it looks at them. */
export function readsReveal(w: LessonWorld): Reveal {
  // Nothing pointed at any more (a tap's hover ends): silent, so the card keeps what it said of the token.
  if (!w.pointed) return SILENT;
  const r = figuresOf(w);
  const t = r && tokenReading(r, w.pointed.row);
  const shading = 'The shading now shows where that token looks: the stronger, the more of its attention.';
  if (!t) return { said: shading };
  const name = JSON.stringify(t.text.trim() || t.text);
  const most =
    t.topAnswer && t.topAnswer.turn !== null ? `; summed answer by answer, the most goes to turn ${t.topAnswer.turn}'s (${percent(t.topAnswer.share)})` : '';
  const kinds = `${percent(t.shares.prior)} of its attention to prior assistant answers and ${percent(t.shares.user)} to the user's turns${most}`;
  const s = t.sameWord;
  if (!s) return { said: `This one, ${name}, gives ${kinds}.`, bars: topLooks(r!, w.pointed.row) ?? undefined };
  const k = timesEven(s);
  const move = isMove(t.text);
  const rr = r!;
  const bars = topLooks(rr, w.pointed.row, 3, { keys: s.keys, label: `the ${s.count} ${name} tokens in prior assistant answers` }) ?? undefined;
  // The largest single look, when it is not on the same word: named (the takeaway, or the fold), so the chart's biggest
  // bar is not left a puzzle; how much the rest of the answer looks there, in the fold.
  const elsewhere = t.top.k !== s.top;
  const largest = !elsewhere
    ? ''
    : t.top.category === 'current'
      ? ` Its largest single look is at ${quoted(rr, t.top.k)} in its own answer so far.`
      : ` Its largest single look is at ${quoted(rr, t.top.k)} in ${KIND[t.top.category]}, ${isMove(t.top.text) ? 'another move' : 'naming no move'}: attention does not say why.`;
  // Its size and turn in the fold: the card keeps few figures.
  const largestWhere =
    largest && t.top.category !== 'current' ? ` Its largest single look (${percent(at(rr, w.pointed.row, t.top.k))}) is in ${whereToken(rr, t.top.k)}.` : '';
  // Over the answer's rows only, also when the page keeps the full matrix.
  const answer = answerRows(rr);
  const column =
    answer && elsewhere && t.top.category !== 'current'
      ? ` The answer's tokens give ${quoted(rr, t.top.k)} ${percent(columnMean(answer, t.top.k))} on average.`
      : '';
  // The single earlier token it looks at most, in the fold: the bars draw it, and the card keeps few figures.
  const onOne = ` The single ${name} it looks at most is in ${whereToken(rr, s.top)} (${percent(at(rr, w.pointed.row, s.top))} of its attention).`;
  // A move's takeaway: whether it looks back, and whether the stored repeats mostly do (the group, not this one
  // token, is the finding); else its largest single look where that is no earlier same move (the bars show it first).
  const odd = elsewhere && t.top.category !== 'current' && !isMove(t.top.text);
  const rare = move && k >= LOOKS_BACK && looksRare();
  const takeaway = !move
    ? undefined
    : rare
      ? `Only ${looksBackShare()} of the repeats into a wall look back at the earlier moves even ${LOOKS_BACK} times chance: a repeat needs no such look. This one does, ${k.toFixed(1)} times.`
      : odd
        ? `This move looks most at ${quoted(rr, t.top.k)} in ${KIND[t.top.category]}, not at an earlier move: where a token looks is not why it is written.`
        : k < LOOKS_BACK
          ? 'This move does not look back at the earlier ones more than at anything else.'
          : `This repeated move looks back at the earlier ${name} tokens, as most repeats into a wall do.`;
  // Chance worked once, on the card: looking at every token equally gives a set of tokens its share of them.
  const against = rare
    ? ` (chance: ${percent(s.even)}, their share of the tokens)`
    : k >= LOOKS_BACK
      ? `, ${k.toFixed(1)} times chance (chance: ${percent(s.even)}, their share of the tokens)`
      : ', about chance';
  // A large look at a mark with no letters puzzles a newcomer: heads often rest attention on punctuation when
  // nothing in particular is needed, so a big look there says little.
  const resting = odd && !/\p{L}|\p{N}/u.test(t.top.text) ? 'models often rest attention on punctuation when they need nothing in particular' : '';
  // Where the takeaway does not name the largest look, the card does first: the bars draw it biggest.
  const first = !odd
    ? ''
    : rare
      ? `Its largest single look is at ${quoted(rr, t.top.k)} in ${KIND[t.top.category]}${resting ? `: ${resting}` : ', naming no move'}. `
      : resting
        ? `${resting[0]!.toUpperCase()}${resting.slice(1)}. `
        : '';
  return {
    ...(takeaway ? { takeaway } : {}),
    // The largest single look in the fold, unless the takeaway or the card's first sentence names it.
    // Where the takeaway gives the group's figure, this one token's look leads the card and its largest single look
    // (a comma, often) follows in the fold.
    said: rare
      ? `This move gives ${percent(s.share)} of its attention to the earlier ${name} tokens in prior assistant answers${against}. ${first}`.trim()
      : `${first}${odd ? 'Still, it' : name} gives ${percent(s.share)} of its attention to the earlier ${name} tokens in prior assistant answers${against}.${move ? ` ${lookTally(undefined, k >= LOOKS_BACK).said}` : ''}`,
    bars,
    more: `There are ${s.count} of those tokens.${move && k >= LOOKS_BACK ? onOne : ''}${odd ? '' : largest}${largestWhere}${column} ${move ? `${lookTally().more} ` : ''}In all it gives ${kinds}, and ${percent(t.shares.current)} to its own answer so far. Tokens such as <|im_start|> and <|im_end|> are the chat template's marks where each message starts and ends.`,
  };
}

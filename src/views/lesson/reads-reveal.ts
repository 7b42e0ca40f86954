/**
 * The reads step's reveal: where the pointed token looks, in words, and drawn as a worked example of attention:
 * the few tokens it looks at most and everything else, sharing its 100 %.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { timesEven, tokenReading } from './attention-reveals';
import { isMove } from './moves';
import { looksRare, lookTally } from './wall-counts';
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
  // The line's first words where they label it ("Thought: ...", "Action -> ..."): a maze answer's lines are named so.
  let text = '';
  for (let j = m.span.start; j < k; j++) text += r.tokens[j]!.text;
  const line = text.split('\n').pop()!;
  const label = /^\s*(\p{L}[\p{L} ]{0,12}?)\s*(:|->)/u.exec(line)?.[1];
  return label && t.category !== 'system' ? `${owner}, ${label} line` : owner;
}

/**
 * A worked example of attention: the `n` tokens row `row` of the answer looks at most, each with chance (one
 * token's share of an even spread), and every other token together: the bars add up to 100 %.
 */
export function topLooks(r: PolicyResult, row: number, n = 3): Bars | null {
  const a = r.attention?.mean;
  if (!a || row < 0 || row >= a.rows) return null;
  const q = a.rowStart + row;
  const at = (k: number) => a.data[row * a.seqLen + k]!;
  const ks = Array.from({ length: q + 1 }, (_, k) => k)
    .sort((x, y) => at(y) - at(x))
    .slice(0, n);
  const one = 1 / (q + 1);
  const rows = ks.map((k) => ({ label: `${JSON.stringify(r.tokens[k]!.text.trim() || r.tokens[k]!.text)} (${whereToken(r, k)})`, value: at(k), even: one }));
  const rest = 1 - rows.reduce((s, x) => s + x.value, 0);
  rows.push({ label: `the other ${q + 1 - ks.length} tokens together`, value: rest, even: (q + 1 - ks.length) * one });
  return { caption: `Where its 100 % goes: the ${ks.length} tokens it looks at most, and the rest`, rows };
}

/** The reads step: where the pointed token looks, in words; for a word the earlier answers also wrote, how much it looks at them. */
export function readsReveal(w: LessonWorld): Reveal {
  // Nothing pointed at any more (a tap's hover ends): silent, so the card keeps what it said of the token.
  if (!w.pointed) return SILENT;
  const r = figuresOf(w);
  const t = r && tokenReading(r, w.pointed.row);
  const shading = 'The shading now shows where that token looks: the stronger, the more of its attention.';
  if (!t) return { said: shading };
  const bars = topLooks(r!, w.pointed.row) ?? undefined;
  const name = JSON.stringify(t.text.trim() || t.text);
  const most =
    t.topAnswer && t.topAnswer.turn !== null ? `; summed answer by answer, the most goes to turn ${t.topAnswer.turn}'s (${percent(t.topAnswer.share)})` : '';
  const kinds = `${percent(t.shares.prior)} of its attention to prior assistant answers and ${percent(t.shares.user)} to the user's turns${most}`;
  const s = t.sameWord;
  if (!s) return { said: `This one, ${name}, gives ${kinds}.`, bars };
  const k = timesEven(s);
  const move = isMove(t.text);
  // The darkest shading is often the answer's own thought, which names the move just before: say so, not leave it a puzzle.
  const own =
    move && t.top.category === 'current'
      ? ` The one token it looks at most is ${JSON.stringify(t.top.text.trim() || t.top.text)} in its own answer so far, not in a prior assistant answer.`
      : '';
  const verdict =
    k >= LOOKS_BACK
      ? `${k.toFixed(1)} times chance (what looking at every token it can see equally would give)${move ? ': writing this move, the model looks back at where it named the same move before' : ''}`
      : `about chance (what looking at every token it can see equally would give)${move ? ': this move does not look back at the earlier ones more than at anything else' : ''}`;
  return {
    // A plain look back on a move, when most stored repeats show none: said first, not after.
    said: `${move && k >= LOOKS_BACK && looksRare() ? 'An unusually clear case: this one' : 'This one'}, ${name}, gives ${percent(s.share)} of its attention to the earlier ${name} tokens in prior assistant answers, ${verdict}.${own}${move ? ` ${lookTally().said}` : ''}`,
    bars,
    more: `Chance would give those ${s.count} tokens ${percent(s.even)}. ${move ? `${lookTally().more} ` : ''}In all it gives ${kinds}, and ${percent(t.shares.current)} to its own answer so far. Tokens such as <|im_start|> and <|im_end|> are the chat template's marks where each message starts and ends.`,
  };
}

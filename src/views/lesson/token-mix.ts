/**
 * One token's share-out, worked from the model on the page, before the five kinds' guess: the token just before the
 * answer's last word (its row picks that word: in a maze answer, the move) and the few tokens it gives most of its
 * attention to. Readers asked for attention in numbers before it is summed, on the token that chooses.
 */
import { stepNo } from './order';
import type { PolicyResult } from '../../analysis/analyze';
import { answerRows } from './attention-reveals';
import { quoted, whereToken } from './token-where';
import { figuresOf, finePercent, LOADING, type LessonWorld, percent, type Reveal } from './world';

/**
 * The token before the answer's last word (`q`; `next`: that word, which its row picks) and its `top` most-read tokens,
 * each with its share; null without rows or with an answer of one token.
 */
export function tokenMix(r: PolicyResult, top = 3): { q: number; next: number; parts: { k: number; share: number }[]; rest: number; others: number } | null {
  const answer = answerRows(r);
  const own = r.messages.find((m) => m.category === 'current')?.content;
  if (!answer || !own || own.length < 2) return null;
  const next = own.start + own.length - 1;
  const q = next - 1;
  const row = q - r.query.start;
  if (row < 0 || row >= answer.rows) return null;
  // The tokens the row can see: itself and those before it.
  const seen = Array.from({ length: q + 1 }, (_, k) => ({ k, share: answer.data[row * answer.seqLen + k]! }));
  const parts = [...seen].sort((a, b) => b.share - a.share).slice(0, top);
  const rest = Math.max(0, 1 - parts.reduce((s, p) => s + p.share, 0));
  return { q, next, parts, rest, others: seen.length - parts.length };
}

/** The share-out in words, for the card (empty without rows); `mix`: as `tokenMix` found it, where the caller has it. */
export function tokenMixSaid(r: PolicyResult | null, mix = r && tokenMix(r)): string {
  if (!r || !mix) return '';
  const named = mix.parts.map((p) => `${percent(p.share)} to ${quoted(r, p.k)} (${whereToken(r, p.k)})`);
  const mark = punctuationNote(r, mix);
  return `For example, ${quoted(r, mix.q)}, the token whose row picks the answer's last word, ${quoted(r, mix.next)}, gives ${named.slice(0, -1).join(', ')} and ${named.at(-1)}; the other ${mix.others} tokens share the last ${percent(mix.rest)}.${mark ? ` ${mark}` : ''}`;
}

/** Punctuation read most: said to be ordinary, so a reader does not take it for a fault of the page ('' otherwise). */
export function punctuationNote(r: PolicyResult, mix: NonNullable<ReturnType<typeof tokenMix>>): string {
  const first = mix.parts[0];
  return first && !/\p{L}|\p{N}/u.test(r.tokens[first.k]!.text) ? 'Attention need not fall where a person would look: punctuation often gets much of it.' : '';
}

/**
 * The attention step's reveal, read on entry: what attention is, said of the one token the bar draws, and how
 * unevenly it shares out (a few tokens take most where its three most-read take half or more).
 */
/** Whether none of the most-read tokens is the word about to be written (its text, spaces aside). */
export const notTheWord = (r: PolicyResult, mix: NonNullable<ReturnType<typeof tokenMix>>): boolean => {
  const word = r.tokens[mix.next]!.text.trim();
  return mix.parts.every((p) => r.tokens[p.k]!.text.trim() !== word);
};

/** A small count in words ("three"), as the card says the most-read tokens: it shows few figures before its fold. */
const inWords = (n: number): string => ['no', 'one', 'two', 'three', 'four', 'five'][n] ?? String(n);

/**
 * How spread one token's attention is, in words: `top`, the share of its `n` most-read tokens among the `seen` it
 * reads. Far above an even share and still under half is said as both: "spread wide" alone contradicted a bar where
 * 3 of 609 tokens took 32 %.
 */
export function spreadSaid(top: number, n: number, seen: number): string {
  const most = inWords(n);
  if (top >= 0.5) return 'A few of the tokens it sees get most of it.';
  return top * seen >= 3 * n
    ? `Its ${most} most-read tokens get far more than an even share, yet under half of all its attention.`
    : `It is spread wide, its ${most} most-read tokens getting under half.`;
}

export function attentionReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  const mix = r && tokenMix(r);
  if (!r || !mix) return LOADING;
  const top = mix.parts.reduce((s, p) => s + p.share, 0);
  // In words: the card shows at most five figures before its fold.
  const most = inWords(mix.parts.length);
  // What an even spread over the tokens it sees gives the same tokens: the yardstick every later step calls chance.
  const seen = mix.others + mix.parts.length;
  const even = mix.parts.length / seen;
  return {
    // One direction throughout, as the step text says it: each earlier token's share of what one token reads.
    // What attention is, the step text says: the bold line is what this one token's shows.
    takeaway: spreadSaid(top, mix.parts.length, mix.others + mix.parts.length),
    // "Times chance" worked once, where it is first met: the even share and the ratio, on the card (a teacher asked).
    said: `The token ${quoted(r, mix.q)}, picking ${quoted(r, mix.next)}, gives ${percent(top)} to its ${most} most-read tokens; spread evenly over all ${seen} tokens it sees, they would get ${finePercent(even)}. The next steps add up every token of the answer this way, by the kind of token read.`,
    more: `${tokenMixSaid(r, mix)}${seenSaid(r, mix.q)}`,
    ...(notTheWord(r, mix) && {
      // Readers asked why the token picking "south" reads none of the "south"s: said where they ask it.
      // An analogy for what a token carries (a teacher asked for one): a running summary of the words up to it.
      caveat: `none of them is ${quoted(r, mix.next)} itself: each token carries the words before it, like a running summary, so it brings those in too.`,
    }),
  };
}

/**
 * The tokens one row sees, reconciled with the count the drop-turns step gives under Full (the tokens read before
 * answering): readers met 583 there and 609 here and could not tell why. Empty without that count.
 */
export function seenSaid(r: PolicyResult, q: number): string {
  const before = r.cost?.find((c) => c.turn === r.turn)?.contextTokens;
  const seen = q + 1;
  if (before === undefined || before > seen) return '';
  return ` It sees ${seen} tokens: the ${before} the model reads before answering (step ${stepNo('contexts')} counts them under Full) and the ${seen - before} after them, the answer's own up to it.`;
}

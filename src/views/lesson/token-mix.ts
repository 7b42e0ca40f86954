/**
 * One token's share-out, worked from the model on the page: before the five kinds' guess, the answer's last word and
 * the few tokens it gives most of its attention to. A reader asked for attention shown in numbers before it is summed.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { answerRows } from './attention-reveals';
import { quoted, whereToken } from './token-where';
import { figuresOf, LOADING, type LessonWorld, percent, type Reveal } from './world';

/** The answer's last word (its message's last token) and its `top` most-read tokens, each with its share; null without rows. */
export function tokenMix(r: PolicyResult, top = 3): { q: number; parts: { k: number; share: number }[]; rest: number; others: number } | null {
  const answer = answerRows(r);
  const own = r.messages.find((m) => m.category === 'current')?.content;
  if (!answer || !own || own.length === 0) return null;
  const q = own.start + own.length - 1;
  const row = q - r.query.start;
  if (row < 0 || row >= answer.rows) return null;
  // The tokens the row can see: itself and those before it.
  const seen = Array.from({ length: q + 1 }, (_, k) => ({ k, share: answer.data[row * answer.seqLen + k]! }));
  const parts = [...seen].sort((a, b) => b.share - a.share).slice(0, top);
  const rest = Math.max(0, 1 - parts.reduce((s, p) => s + p.share, 0));
  return { q, parts, rest, others: seen.length - parts.length };
}

/** The share-out in words, for the card (empty without rows). */
export function tokenMixSaid(r: PolicyResult | null): string {
  const mix = r && tokenMix(r);
  if (!r || !mix) return '';
  const named = mix.parts.map((p) => `${percent(p.share)} to ${quoted(r, p.k)} (${whereToken(r, p.k)})`);
  const mark = punctuationNote(r, mix);
  return `For example, the answer's last word, ${quoted(r, mix.q)}, gives ${named.slice(0, -1).join(', ')} and ${named.at(-1)}; the other ${mix.others} tokens share the last ${percent(mix.rest)}.${mark ? ` ${mark}` : ''}`;
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
export function attentionReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  const mix = r && tokenMix(r);
  if (!r || !mix) return LOADING;
  const top = mix.parts.reduce((s, p) => s + p.share, 0);
  return {
    takeaway: `Attention is how each token shares out 100 % of its reading over the tokens before it. ${top >= 0.5 ? 'It is far from even: a few tokens get most of it.' : 'Here it is spread over many tokens.'}`,
    said: `Here ${quoted(r, mix.q)} gives ${percent(top)} to ${mix.parts.length} tokens and ${percent(mix.rest)} to the other ${mix.others}. The next steps add up every token of the answer this way, by the kind of token read.`,
    more: tokenMixSaid(r),
  };
}

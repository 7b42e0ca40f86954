/**
 * Where the answer copies the last prior assistant answer (the one the lesson's heatmap opens on), as the picture
 * shows it: its brightest copy of a word, and its longest slanted line of bright cells.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { diagonalBand } from '../../metrics/band';
import { isTemplateMark } from '../tokens/TokenView';
import { answerRows, priorSpans } from './attention-reveals';

/** A copy in the heatmap: answer token `q` reading token `k` of a prior assistant answer, with `weight`. */
export interface Copy {
  q: number;
  k: number;
  weight: number;
  /** What `k` is to `q`: the same word, or the word the answer writes next (a row is a token just written, looking for the next one). */
  reads: 'same' | 'next';
}

/**
 * The copy the lesson points at in the band of the last prior assistant answer (the one its heatmap opens on). First
 * a bright cell (BRIGHT times chance or more) where an answer token reads, in that answer, the word it writes next,
 * that word once in the row's band: the copying the card describes, and no other cell could be it (readers saw " 22"
 * read " 22" among five 22s and asked whether it was a copy or a match). Else a bright one reading the same word, once
 * in the band; either only when half as bright as the brightest cell reading the same word, else that cell. Null
 * without the rows or without any such cell.
 * `rows`: only the answer's first rows (a maze answer's list of cells, above its thought and move).
 */
export function brightestCopy(r: PolicyResult, rows = Number.POSITIVE_INFINITY): Copy | null {
  const found = copies(r, rows);
  return found && pickCopy(found);
}

/** The copy to point at among the band's copies (`copies`), as `brightestCopy` picks it. */
export function pickCopy(found: Record<'next' | 'same' | 'any', Copy | null>): Copy | null {
  // A plain example only where it is about as bright as the brightest copy (half or more): a faint cell convinces no one.
  const strong = (c: Copy | null) => (c && found.any && c.weight * 2 >= found.any.weight ? c : null);
  return strong(found.next) ?? strong(found.same) ?? found.any ?? found.next;
}

/**
 * The band's copies of the last prior assistant answer, three ways: the brightest cell reading the same word (`any`),
 * and the brightest bright ones, their word once in the band, reading the word written next (`next`) or the same (`same`).
 */
export function copies(r: PolicyResult, rows = Number.POSITIVE_INFINITY): Record<'next' | 'same' | 'any', Copy | null> | null {
  const answer = answerRows(r);
  const last = priorSpans(r).at(-1);
  if (!answer || !last) return null;
  const text = (k: number) => r.tokens[k]!.text.trim();
  // The answer's own words only: not the chat template's header, whose "assistant" every answer repeats.
  const own = r.messages.find((m) => m.category === 'current')?.content;
  // Punctuation too (a ":" read at its own place is as plain a copy as a word), not blanks or line ends.
  const words = (q: number) => !!own && q >= own.start && q < own.start + own.length && text(q) !== '' && !isTemplateMark(text(q));
  const found: Record<'next' | 'same' | 'any', Copy | null> = { next: null, same: null, any: null };
  const keep = (at: keyof typeof found, c: Copy) => {
    if (!found[at] || c.weight > found[at]!.weight) found[at] = c;
  };
  for (const b of diagonalBand(last, answer.rows, r.radius)) {
    const q = r.query.start + b.row;
    if (b.row >= rows || !words(q)) continue;
    // The word written next, where the answer has one (its last row writes none).
    const next = words(q + 1) ? text(q + 1) : null;
    const once = (t: string | null) => {
      let n = 0;
      for (let k = b.from; k <= b.to; k++) if (text(k) === t) n++;
      return n === 1;
    };
    const [nextOnce, sameOnce] = [once(next), once(text(q))];
    for (let k = b.from; k <= b.to; k++) {
      const weight = answer.data[b.row * answer.seqLen + k]!;
      const bright = weight * (q + 1) >= BRIGHT;
      if (text(k) === next && nextOnce && bright) keep('next', { q, k, weight, reads: 'next' });
      if (text(k) !== text(q)) continue;
      if (sameOnce && bright) keep('same', { q, k, weight, reads: 'same' });
      keep('any', { q, k, weight, reads: 'same' });
    }
  }
  return found;
}

/** A cell is bright at this many times what looking at every token equally gives it (1 / the tokens its row sees). */
export const BRIGHT = 3;

/**
 * The longest slanted line of bright cells (head mean) in the band of the last prior assistant answer: consecutive
 * answer rows reading that answer at one offset `d` from the dotted centre (row i at its token i + d), each cell at
 * least BRIGHT times chance. `row`: the line's first answer row. Null without the rows or without a bright cell.
 * Readers looked for the drawing's long line in the real heatmap: the card says how long the real one runs. `reach`:
 * how far from the dotted centre to look (the band's radius; wider finds a shifted copy the band misses, which readers saw).
 */
export function longestRun(r: PolicyResult, reach = r.radius): { length: number; row: number; d: number } | null {
  const answer = answerRows(r);
  const last = priorSpans(r).at(-1);
  if (!answer || !last) return null;
  const bright = (i: number, d: number): boolean => {
    const j = i + d;
    if (j < 0 || j >= last.length) return false;
    return answer.data[i * answer.seqLen + last.start + j]! * (r.query.start + i + 1) >= BRIGHT;
  };
  let best: { length: number; row: number; d: number } | null = null;
  for (let d = -reach; d <= reach; d++) {
    let run = 0;
    for (let i = 0; i <= answer.rows; i++) {
      if (i < answer.rows && bright(i, d)) run++;
      else {
        if (run > 0 && (!best || run > best.length)) best = { length: run, row: i - run, d };
        run = 0;
      }
    }
  }
  return best;
}

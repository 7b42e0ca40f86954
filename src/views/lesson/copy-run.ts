/**
 * Where the answer copies the last prior assistant answer (the one the lesson's heatmap opens on), as the picture
 * shows it: its brightest copy of a word, and its longest slanted line of bright cells.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { diagonalBand } from '../../metrics/band';
import { isTemplateMark } from '../tokens/TokenView';
import { answerRows, priorSpans } from './attention-reveals';

/**
 * The brightest copy in the band of the last prior assistant answer (the one the lesson's heatmap opens on): the cell
 * where an answer token reads the same text in that answer within the band, with the most attention (head mean),
 * among the bright ones whose word appears once in the row's band where there are any. As
 * the token pair (`q`, `k`, indices in the context) and its weight; null without the rows or without such a cell.
 * `rows`: only the answer's first rows (a maze answer's list of cells, above its thought and move).
 */
export function brightestCopy(r: PolicyResult, rows = Number.POSITIVE_INFINITY): { q: number; k: number; weight: number } | null {
  const answer = answerRows(r);
  const last = priorSpans(r).at(-1);
  if (!answer || !last) return null;
  const text = (k: number) => r.tokens[k]!.text.trim();
  // The answer's own words only: not the chat template's header, whose "assistant" every answer repeats.
  const own = r.messages.find((m) => m.category === 'current')?.content;
  const words = (q: number) => !!own && q >= own.start && q < own.start + own.length && /\p{L}|\p{N}/u.test(text(q)) && !isTemplateMark(text(q));
  // A bright copy a reader can tell apart first: the word appears once in its row's band, so the cell can only be that
  // word (readers saw " 22" read " 22" among five 22s and asked whether it was a copy or a match). Any copy where none is.
  type Cell = { q: number; k: number; weight: number };
  let best: Cell | null = null;
  let plain: Cell | null = null;
  for (const b of diagonalBand(last, answer.rows, r.radius)) {
    const q = r.query.start + b.row;
    if (b.row >= rows || !words(q)) continue;
    let same = 0;
    for (let k = b.from; k <= b.to; k++) if (text(k) === text(q)) same++;
    for (let k = b.from; k <= b.to; k++) {
      const v = answer.data[b.row * answer.seqLen + k]!;
      if (text(k) !== text(q)) continue;
      if (!best || v > best.weight) best = { q, k, weight: v };
      if (same === 1 && v * (q + 1) >= BRIGHT && (!plain || v > plain.weight)) plain = { q, k, weight: v };
    }
  }
  return plain ?? best;
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

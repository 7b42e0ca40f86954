/**
 * Attention worked once, for the look inside's first words: one token of the scored answer (its most focused, not the
 * move, so the step's own question stays open) shares out 100 % of its look: the few tokens it looks at most, and
 * every other one together. A picture of what "attention" means, read from the model on the page. Plain functions.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { whereToken } from './reads-reveal';

export interface WorkedLook {
  /** The token that looks, as the card names it. */
  token: string;
  /** Where its 100 % goes: the tokens it looks at most, largest first, then every other token together. */
  parts: { label: string; value: number }[];
}

/** A token's text as the card names it: quoted, or in words where it is only white space. */
export function named(text: string): string {
  const t = text.trim();
  return t ? JSON.stringify(t) : text.includes('\n') ? 'a line break' : 'a space';
}

/**
 * The answer's token whose attention is most focused (the largest single look at an earlier token), its last token
 * (the move, the step's own question) left out: the clearest picture of "most to a few tokens".
 */
function focusedRow(r: PolicyResult, a: NonNullable<PolicyResult['attention']>['mean']): number | null {
  let best: { q: number; v: number } | null = null;
  for (let q = Math.max(r.query.start, a.rowStart); q < Math.min(r.query.end - 1, a.rowStart + a.rows); q++)
    for (let k = 0; k < q; k++) {
      const v = a.data[(q - a.rowStart) * a.seqLen + k]!;
      if (!best || v > best.v) best = { q, v };
    }
  return best?.q ?? null;
}

/** Where that token puts its attention: the `top` tokens it looks at most one by one, the rest together. */
export function workedLook(r: PolicyResult, top = 3): WorkedLook | null {
  const a = r.attention?.mean;
  const q = a ? focusedRow(r, a) : null;
  if (!a || q === null || q + 1 <= top) return null;
  const at = (k: number) => a.data[(q - a.rowStart) * a.seqLen + k]!;
  const most = Array.from({ length: q + 1 }, (_, k) => k)
    .sort((x, y) => at(y) - at(x))
    .slice(0, top);
  const parts = most.map((k) => ({ label: k === q ? 'itself' : `${named(r.tokens[k]!.text)} (${whereToken(r, k)})`, value: at(k) }));
  const rest = 1 - parts.reduce((s, p) => s + p.value, 0);
  return { token: named(r.tokens[q]!.text), parts: [...parts, { label: `the other ${q + 1 - top} together`, value: Math.max(0, rest) }] };
}

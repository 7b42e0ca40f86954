/**
 * Attention worked once, for the look inside's first words: the scored answer's last token (its move) shares out
 * 100 % of its look over the tokens before it and itself. The few tokens just before it apart, every earlier token
 * together: a picture of what "attention" means, read from the model on the page. Plain functions.
 */
import type { PolicyResult } from '../../analysis/analyze';

export interface WorkedLook {
  /** The token that looks, as the card names it. */
  token: string;
  /** Where its 100 % goes, earliest first: the tokens before the near ones together, each near one, itself. */
  parts: { label: string; value: number }[];
}

/** A token's text as the card names it: quoted, or in words where it is only white space. */
export function named(text: string): string {
  const t = text.trim();
  return t ? JSON.stringify(t) : text.includes('\n') ? 'a line break' : 'a space';
}

/** Where the answer's last token puts its attention: the `near` tokens just before it one by one, the rest together. */
export function workedLook(r: PolicyResult, near = 3): WorkedLook | null {
  const a = r.attention?.mean;
  const q = r.query.end - 1;
  if (!a || q - near < 1 || q < a.rowStart || q >= a.rowStart + a.rows) return null;
  const at = (k: number) => a.data[(q - a.rowStart) * a.seqLen + k]!;
  let earlier = 0;
  for (let k = 0; k < q - near; k++) earlier += at(k);
  const nearParts = Array.from({ length: near }, (_, i) => q - near + i).map((k) => ({ label: named(r.tokens[k]!.text), value: at(k) }));
  return {
    token: named(r.tokens[q]!.text),
    parts: [{ label: `the ${q - near} tokens before`, value: earlier }, ...nearParts, { label: 'itself', value: at(q) }],
  };
}

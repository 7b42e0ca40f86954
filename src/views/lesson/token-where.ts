/** Where a token sits, said as the Conversation panel shows it: the heatmap's stripes are named so. */
import type { PolicyResult } from '../../analysis/analyze';

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

/** A token's text for the card: trimmed and quoted. */
export const quoted = (r: PolicyResult, k: number) => JSON.stringify(r.tokens[k]!.text.trim() || r.tokens[k]!.text);

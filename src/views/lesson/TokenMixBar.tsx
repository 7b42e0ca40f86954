import type { PolicyResult } from '../../analysis/analyze';
import { CATEGORY_COLORS, CATEGORY_NAMES } from '../../palette';
import { punctuationNote, tokenMix, tokenMixSaid } from './token-mix';
import { quoted, whereToken } from './token-where';
import { percent, unbroken } from './world';

/**
 * One token's attention drawn as one bar of 100 %: the token that picks the answer's last word, the three tokens it reads most (each in its
 * kind's colour) and the rest in grey, from the model on the page. The picture the heatmap's rows are made of: readers
 * asked to see attention for one word before it is summed.
 */
export function TokenMixBar({ r }: { r: PolicyResult | null }) {
  const mix = r && tokenMix(r);
  if (!r || !mix) return null;
  const note = punctuationNote(r, mix);
  const parts = [
    ...mix.parts.map((p) => ({
      key: String(p.k),
      share: p.share,
      color: CATEGORY_COLORS[r.tokens[p.k]!.category],
      // The kind named beside its colour: readers could not tell which colour was which.
      label: `${quoted(r, p.k)}, ${whereToken(r, p.k)} (${CATEGORY_NAMES[r.tokens[p.k]!.category]})`,
    })),
    { key: 'rest', share: mix.rest, color: '#c8ccd2', label: `the other ${mix.others} tokens` },
  ];
  return (
    <figure className="token-mix" data-testid="lesson-token-mix-bar">
      <figcaption>
        The attention of one token, {quoted(r, mix.q)}, as the model picks the next word, {quoted(r, mix.next)}: 100&nbsp;% shared out
      </figcaption>
      <div className="token-mix-track" role="img" aria-label={tokenMixSaid(r, mix)}>
        {parts.map((p) => (
          <span key={p.key} style={{ width: `${(p.share * 100).toFixed(1)}%`, background: p.color }} />
        ))}
      </div>
      <ul className="token-mix-key">
        {parts.map((p) => (
          <li key={p.key}>
            <span className="bar-swatch" style={{ background: p.color }} /> {unbroken(`${percent(p.share)} ${p.label}`)}
          </li>
        ))}
      </ul>
      {note && <p className="muted">{note}</p>}
    </figure>
  );
}

import { useMemo } from 'react';
import type { PolicyResult } from '../../analysis/analyze';
import { focusOf } from '../../state/hover-lock';
import { useInspector } from '../../state/inspector-store';
import { CATEGORY_COLORS, CATEGORY_NAMES } from '../heatmap/heatmap-model';
import { shownValues } from '../heatmap/Heatmap';

/** Attention each token receives from one query row, or the mean over the answer's rows. */
export function receivedAttention(r: PolicyResult, values: Float32Array, row: number | null): Float64Array {
  const k = r.kept!;
  const S = k.seqLen;
  const out = new Float64Array(S);
  const rows = row !== null ? [row] : Array.from({ length: r.query.end - r.query.start }, (_, i) => r.query.start - k.rowStart + i);
  for (const i of rows) for (let j = 0; j < S; j++) out[j]! += values[i * S + j]! / rows.length;
  return out;
}

/**
 * The rendered conversation as text, token by token, shaded by the attention it receives from the
 * hovered or locked query token (or from the whole answer), inside role-coloured message frames.
 * Hovering a query token selects it, as the heatmap does.
 */
export function TokenView() {
  const r = useInspector((s) => s.results[0]);
  const head = useInspector((s) => s.head);
  const hover = useInspector((s) => s.hover);
  const dispatch = useInspector((s) => s.dispatchHover);
  const focus = focusOf(hover);
  const values = useMemo(() => (r?.kept ? shownValues(r, head) : null), [r, head]);
  const weights = useMemo(() => (r && values ? receivedAttention(r, values, focus?.row ?? null) : null), [r, values, focus?.row]);
  if (!r?.kept || !weights) return null;
  const k = r.kept;
  let max = 0;
  for (let j = 3; j < weights.length; j++) max = Math.max(max, weights[j]!);
  const from = focus ? `query token #${k.rowStart + focus.row} ${JSON.stringify(r.tokens[k.rowStart + focus.row]!.text)}` : `the whole answer (mean over its ${r.query.end - r.query.start} tokens)`;
  return (
    <section className="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Tokens</h2>
      <p className="muted" data-testid="token-source">Shaded by the attention they receive from {from}. Point at a token of the answer to follow it.</p>
      <div className="tokens" data-testid="token-view">
        {r.messages.map((m, mi) => (
          <div key={mi} className="frame" style={{ borderColor: CATEGORY_COLORS[m.category] }}>
            <div className="frame-title" style={{ color: CATEGORY_COLORS[m.category] }}>
              {CATEGORY_NAMES[m.category]}{m.round !== null ? ` · round ${m.round}` : ''}{m.kind !== 'assistant' && m.kind !== 'user' && m.kind !== 'system' && m.kind !== 'current' ? ` · ${m.kind}` : ''}{m.generated ? ' · written by the model' : ''}
            </div>
            <div className="frame-text">
              {Array.from({ length: m.span.length }, (_, t) => {
                const j = m.span.start + t;
                const w = weights[j]!;
                const a = Math.sqrt(Math.min(1, w / (max || 1)));
                const row = j - k.rowStart;
                const isQuery = row >= 0 && row < k.nRows && j >= r.query.start && j < r.query.end;
                return (
                  <span
                    key={j}
                    className={`tok${isQuery ? ' query' : ''}${focus && focus.row === row ? ' focused' : ''}`}
                    style={{ background: `rgba(213, 94, 0, ${a.toFixed(3)})` }}
                    title={`#${j} ${CATEGORY_NAMES[r.tokens[j]!.category]}: ${w.toFixed(5)}`}
                    onMouseEnter={isQuery ? () => dispatch({ type: 'move', at: { row, col: j } }) : undefined}
                  >
                    {r.tokens[j]!.text}
                  </span>
                );
              })}
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

import { type CSSProperties, memo, useDeferredValue, useMemo } from 'react';
import { drawnId } from '../drawn';
import type { PolicyResult } from '../../analysis/analyze';
import { useFocusRow, useHover } from '../../state/hover-store';
import type { HoverAction } from '../../state/hover-lock';
import { useInspector } from '../../state/inspector-store';
import { CATEGORY_COLORS, CATEGORY_NAMES, CATEGORY_TEXT_COLORS } from '../../palette';
import { shownSlab } from '../heatmap/Heatmap';
import type { AttentionSlab } from '../../metrics/slab';
import { Explain } from '../explain/Explain';

/** Attention each token receives from one query row, or the mean over the answer's rows. */
export function receivedAttention(r: PolicyResult, shown: AttentionSlab, row: number | null): Float64Array {
  const S = shown.seqLen;
  const out = new Float64Array(S);
  const rows = row !== null ? [row] : Array.from({ length: r.query.end - r.query.start }, (_, i) => r.query.start - shown.rowStart + i);
  for (const i of rows) for (let j = 0; j < S; j++) out[j]! += shown.data[i * S + j]! / rows.length;
  return out;
}

/**
 * A chat template's mark ("<|im_start|>", "<start_of_turn>", "</s>"): a token that is one angle-bracketed name. Drawn
 * small and explained above the frames, so a newcomer does not read it as garbled text.
 */
export const isTemplateMark = (text: string): boolean => /^<[|｜]?\/?[\w.-]{1,40}[|｜]?>$/u.test(text);

/** Token spans rendered, counted for the browser test that hovering re-renders none it need not. */
export const tokenRenders = { count: 0 };
if (import.meta.env?.DEV && typeof window !== 'undefined') (window as unknown as { __tokenRenders: typeof tokenRenders }).__tokenRenders = tokenRenders;

interface TokenProps {
  text: string;
  /** The shade, already rounded: a span re-renders only when what it shows changes. */
  alpha: string;
  className: string;
  title: string;
  /** The query cell a pointer on this token selects (answer tokens only). */
  row: number | null;
  col: number;
  dispatch: (a: HoverAction) => void;
}

const Token = memo(function Token({ text, alpha, className, title, row, col, dispatch }: TokenProps) {
  tokenRenders.count++;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: focusing a token selects it, as pointing at it does; there is nothing to activate
    <span
      className={className}
      // The shade's strength; its colour and the text's are the stylesheet's (legible in either colour scheme).
      style={{ '--a': alpha } as CSSProperties}
      title={title}
      // Its place in the context: what the lesson's "show it" finds.
      data-k={col}
      // The answer's tokens are reachable by Tab too: focusing one selects it as pointing at it does.
      tabIndex={row !== null ? 0 : undefined}
      onMouseEnter={row !== null ? () => dispatch({ type: 'move', at: { row, col } }) : undefined}
      onFocus={row !== null ? () => dispatch({ type: 'move', at: { row, col } }) : undefined}
      onBlur={row !== null ? () => dispatch({ type: 'move', at: null }) : undefined}
    >
      {text}
    </span>
  );
});

/**
 * The rendered conversation as text, token by token, shaded by the attention it receives from the
 * hovered or locked query token (or from the whole answer), inside role-coloured message frames.
 * Hovering a query token selects it, as the heatmap does. It follows the focused row only: moving
 * along a row of the heatmap changes nothing here.
 */
export function TokenView() {
  // Deferred: the figures show the new result first; a thousand token spans follow in a later frame.
  // The urgent render passes the old result to a memo, so it builds none of them.
  const r = useDeferredValue(useInspector((s) => s.results[0]));
  const head = useInspector((s) => s.head);
  return r ? <TokenFrames r={r} head={head} /> : null;
}

const TokenFrames = memo(function TokenFrames({ r, head }: { r: PolicyResult; head: 'mean' | number }) {
  const focusRow = useFocusRow();
  const dispatch = useHover((s) => s.dispatch);
  const shown = useMemo(() => (r.attention ? shownSlab(r, head) : null), [r, head]);
  const weights = useMemo(() => (shown ? receivedAttention(r, shown, focusRow) : null), [r, shown, focusRow]);
  // Which tokens are template marks: once per result, not on every focus move (this re-renders as the focus moves).
  const marks = useMemo(() => r.tokens.map((t) => isTemplateMark(t.text)), [r]);
  if (!shown || !weights) return null;
  const k = shown;
  const hasMarks = marks.includes(true);
  let max = 0;
  for (let j = 3; j < weights.length; j++) max = Math.max(max, weights[j]!);
  const from =
    focusRow !== null
      ? `token #${k.rowStart + focusRow} ${JSON.stringify(r.tokens[k.rowStart + focusRow]!.text)}`
      : `the whole answer (mean over its ${r.query.end - r.query.start} tokens)`;
  return (
    <section className="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">
        Tokens
        <Explain id="tokenView" />
      </h2>
      <p className="muted" data-testid="token-source">
        Shaded by the attention they receive from {from}. Point at a token of the answer to follow it.
        {hasMarks && " Small marks such as <|im_start|> are the chat template's: where each message starts and ends."}
      </p>
      <div className="tokens" data-testid="token-view" data-drawn={drawnId(r)}>
        {r.messages.map((m, mi) => (
          <div key={mi} className="frame" style={{ borderColor: CATEGORY_COLORS[m.category] }}>
            <div className="frame-title" style={{ color: CATEGORY_TEXT_COLORS[m.category] }}>
              {CATEGORY_NAMES[m.category]}
              {m.turn !== null ? ` · turn ${m.turn}` : ''}
              {m.kind !== 'assistant' && m.kind !== 'user' && m.kind !== 'system' && m.kind !== 'current' ? ` · ${m.kind}` : ''}
              {m.generated ? ' · written by the model' : ''}
            </div>
            <div className="frame-text">
              {Array.from({ length: m.span.length }, (_, t) => {
                const j = m.span.start + t;
                const w = weights[j]!;
                const row = j - k.rowStart;
                const isQuery = row >= 0 && row < k.rows && j >= r.query.start && j < r.query.end;
                return (
                  <Token
                    key={j}
                    text={r.tokens[j]!.text}
                    alpha={Math.sqrt(Math.min(1, w / (max || 1))).toFixed(3)}
                    className={`tok${isQuery ? ' query' : ''}${focusRow === row ? ' focused' : ''}${marks[j] ? ' mark' : ''}`}
                    title={`#${j} ${CATEGORY_NAMES[r.tokens[j]!.category]}${marks[j] ? ' (chat template mark)' : ''}: ${w.toFixed(5)}`}
                    row={isQuery ? row : null}
                    col={j}
                    dispatch={dispatch}
                  />
                );
              })}
            </div>
          </div>
        ))}
      </div>
    </section>
  );
});

import { useId, useState } from 'react';
import { CATEGORY_COLORS } from '../../palette';
import { EXPLANATIONS, type ExplainId } from './explanations';

/** A "?" beside a panel, control or figure: its definition on demand (explanations.ts). */
export function Explain({ id }: { id: ExplainId }) {
  const [open, setOpen] = useState(false);
  const boxId = useId();
  const e = EXPLANATIONS[id];
  // Named by what it explains ("what is diagonal ratio?"): 29 buttons all named "what is this?" cannot be told apart.
  return (
    <span className="explain">
      <button
        type="button"
        className="explain-button"
        aria-expanded={open}
        aria-controls={boxId}
        aria-label={`what is ${e.title}?`}
        title={`what is ${e.title}?`}
        data-explain={id}
        onClick={() => setOpen(!open)}
      >
        ?
      </button>
      {open && (
        <span className="explain-box" id={boxId} role="note" data-testid={`explain-${id}`}>
          <strong>{e.title}.</strong> {e.what}
          {'formula' in e && e.formula && (
            <span className="formula">
              {e.formula.map((p, k) =>
                typeof p === 'string' ? (
                  <span key={k}>{p}</span>
                ) : p.category === 'band' ? (
                  <span key={k} className="term band">
                    {p.text}
                  </span>
                ) : (
                  <span key={k} className="term" style={{ color: CATEGORY_COLORS[p.category] }}>
                    {p.text}
                  </span>
                ),
              )}
            </span>
          )}
          <span className="muted"> From: {e.source}.</span>
          {'choice' in e && e.choice && <span className="muted"> Our choice: {e.choice}</span>}
        </span>
      )}
    </span>
  );
}

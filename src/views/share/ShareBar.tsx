import { useState } from 'react';
import { figuresCsv, figuresJson, perAnswerCsv, turnsCsv, type Provenance } from '../../export/figures';
import { DEMO_MODEL_LABEL } from '../../model/demo';
import { useInspector } from '../../state/inspector-store';
import { modelStore, useModelStore } from '../../state/model-store';
import type { PolicyResult } from '../../analysis/analyze';
import { download } from './download';
import { ExerciseLink } from './ExerciseLink';

/** Figures as CSV or JSON, and the link that reproduces this view. */
export function ShareBar({ linkNote }: { linkNote: string | null }) {
  const results = useInspector((s) => s.results);
  const head = useInspector((s) => s.head);
  const resultsFrom = useInspector((s) => s.resultsFrom);
  // Figures of an earlier conversation (this one was refused) are not exported as this one's.
  const stale = useInspector((s) => s.stale);
  const info = useModelStore((s) => s.info);
  const [copied, setCopied] = useState(false);
  if (!results.length) return null;
  const name = `inertia-lens-turn${results[0]!.turn}`;
  // Cached start figures were computed on the demo model, not on the model in use; a compared model's, on its own model.
  const from = (r: PolicyResult): Provenance => {
    if (resultsFrom === 'cache') return { model: `${DEMO_MODEL_LABEL} (cached figures)`, revision: null, backend: null, precision: 'none', head };
    const m = r.slot ? modelStore(r.slot).getState().info : info;
    return { model: m?.source ?? null, revision: m?.ref?.revision ?? null, backend: m?.report.backend ?? null, precision: m?.precision ?? null, head };
  };
  return (
    <div className="row share">
      {stale && (
        <span className="muted" data-testid="export-stale">
          The figures on screen are of an earlier conversation; exports wait for this one's.
        </span>
      )}
      <button type="button" disabled={stale} onClick={() => download(`${name}.csv`, figuresCsv(results, from), 'text/csv')}>
        Figures as CSV
      </button>
      <button type="button" disabled={stale} onClick={() => download(`${name}-per-answer.csv`, perAnswerCsv(results, from), 'text/csv')}>
        Per answer as CSV
      </button>
      <button type="button" disabled={stale} onClick={() => download(`${name}-turns.csv`, turnsCsv(results, from), 'text/csv')}>
        Tokens per turn as CSV
      </button>
      <button type="button" disabled={stale} onClick={() => download(`${name}.json`, figuresJson(results, from), 'application/json')}>
        Figures as JSON
      </button>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(location.href).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Link copied' : 'Copy link to this view'}
      </button>
      {linkNote && <span className="muted">{linkNote}</span>}
      <ExerciseLink />
    </div>
  );
}

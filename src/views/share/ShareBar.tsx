import { useState } from 'react';
import { figuresCsv, figuresJson } from '../../export/figures';
import { useInspector } from '../../state/inspector-store';
import { useModelStore } from '../../state/model-store';
import { download } from './download';

/** Figures as CSV or JSON, and the link that reproduces this view. */
export function ShareBar({ linkNote }: { linkNote: string | null }) {
  const results = useInspector((s) => s.results);
  const info = useModelStore((s) => s.info);
  const [copied, setCopied] = useState(false);
  if (!results.length) return null;
  const name = `inertia-lens-turn${results[0]!.turn}`;
  const meta = { model: info?.source ?? null, backend: info?.report.backend ?? null };
  return (
    <div className="row share">
      <button type="button" onClick={() => download(`${name}.csv`, figuresCsv(results), 'text/csv')}>Figures as CSV</button>
      <button type="button" onClick={() => download(`${name}.json`, figuresJson(results, meta), 'application/json')}>Figures as JSON</button>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(location.href).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? 'Link copied' : 'Copy link to this view'}
      </button>
      {linkNote && <span className="muted">{linkNote}</span>}
    </div>
  );
}

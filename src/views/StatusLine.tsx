import { parsePolicy, policyLabel } from '../context/policy';
import { useInspector } from '../state/inspector-store';
import { slotName } from '../state/model-client';
import { useModelStore } from '../state/model-store';

/** Where the figures come from right now: cached, being computed, failed, or fresh (and how long they took). */
export function StatusLine() {
  const from = useInspector((s) => s.resultsFrom);
  const analyzing = useInspector((s) => s.analyzing);
  const error = useInspector((s) => s.analysisError);
  const stale = useInspector((s) => s.stale);
  const ms = useInspector((s) => s.analysisMs);
  const generating = useInspector((s) => s.generating);
  const generated = useInspector((s) => s.generated);
  const own = generated[0] ?? {};
  const others = generated.slice(1).flatMap((g, i) => Object.entries(g ?? {}).map(([p, text]) => ({ slot: i + 1, p, text })));
  const results = useInspector((s) => s.results);
  const shown = results.map((r) => r.policy);
  const loading = useModelStore((s) => s.load.status === 'loading');
  const backend = useModelStore((s) => s.info?.report.backend);
  return (
    <div className="status" data-testid="status">
      {from === 'cache' && (
        <p className="warn" data-testid="cached-note">
          Cached figures: computed earlier on the demo model for this example{loading ? '; the model is loading and will recompute them here.' : '.'}
        </p>
      )}
      {from === 'model' && !analyzing && ms !== null && (
        <p className="muted" data-testid="fresh-note">
          Computed in this page on {backend === 'webgpu' ? 'WebGPU' : 'wasm'} in {Math.round(ms)} ms.
        </p>
      )}
      {analyzing && (
        <p className="muted" role="status">
          Scoring…
        </p>
      )}
      {stale && (
        <p className="warn" data-testid="stale-note">
          {analyzing
            ? 'The figures below are of the view before this one, until it is scored.'
            : error
              ? 'The figures below are from before this change, not of what the controls show now: it could not be scored (below).'
              : 'The figures below are of the last conversation that could be scored: fix the error above to score this one.'}
        </p>
      )}
      {error && (
        <p role="alert" className="error" data-testid="analysis-error">
          {error}
        </p>
      )}
      {generating && (
        <div className="generating" role="status">
          <strong>
            {policyLabel(parsePolicy(generating.policy))}
            {generating.slot > 0 ? `, model ${slotName(generating.slot)},` : ''} is writing the answer:
          </strong>
          <pre data-testid="generated-stream">{generating.text}</pre>
        </div>
      )}
      {!generating && (Object.keys(own).length > 0 || others.length > 0) && (
        <div className="generated" data-testid="generated">
          {Object.entries(own).map(([p, text]) => (
            <p key={p}>
              <strong>
                {policyLabel(parsePolicy(p))}, the model's answer (
                {shown.includes(p) ? 'scored below' : `not shown now: choose ${policyLabel(parsePolicy(p))} to see it scored`}):
              </strong>{' '}
              <span className="answer">{text || '(empty)'}</span>
            </p>
          ))}
          {others.map(({ slot, p, text }) => (
            <p key={`${slot}-${p}`}>
              <strong>
                {policyLabel(parsePolicy(p))}, model {slotName(slot)}&apos;s answer:
              </strong>{' '}
              <span className="answer" data-testid={`generated-${slotName(slot).toLowerCase()}`}>
                {text || '(empty)'}
              </span>
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

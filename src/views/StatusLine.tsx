import { parsePolicy, policyLabel } from '../context/policy';
import { useInspector } from '../state/inspector-store';
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
  const generatedB = useInspector((s) => s.generatedB);
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
        <p className="muted" data-testid="fresh-note">Computed in this page on {backend === 'webgpu' ? 'WebGPU' : 'wasm'} in {Math.round(ms)} ms.</p>
      )}
      {analyzing && <p className="muted" role="status">Scoring…</p>}
      {stale && (
        <p className="warn" data-testid="stale-note">
          {analyzing
            ? 'The figures below are of the view before this one, until it is scored.'
            : error
              ? 'The figures below are from before this change, not of what the controls show now: it could not be scored (below).'
              : 'The figures below are of the last conversation that could be scored: fix the error above to score this one.'}
        </p>
      )}
      {error && <p role="alert" className="error" data-testid="analysis-error">{error}</p>}
      {generating && (
        <div className="generating" role="status">
          <strong>{policyLabel(parsePolicy(generating.policy))}{generating.model === 'b' ? ', model B,' : ''} is writing the answer:</strong>
          <pre data-testid="generated-stream">{generating.text}</pre>
        </div>
      )}
      {!generating && Object.keys(generated).length > 0 && (
        <div className="generated" data-testid="generated">
          {Object.entries(generated).map(([p, text]) => (
            <p key={p}><strong>{policyLabel(parsePolicy(p))}, the model's answer ({shown.includes(p) ? 'scored below' : `not shown now: choose ${policyLabel(parsePolicy(p))} to see it scored`}):</strong> <span className="answer">{text || '(empty)'}</span></p>
          ))}
          {Object.entries(generatedB).map(([p, text]) => (
            <p key={`b-${p}`}><strong>{policyLabel(parsePolicy(p))}, model B's answer:</strong> <span className="answer" data-testid="generated-b">{text || '(empty)'}</span></p>
          ))}
        </div>
      )}
    </div>
  );
}

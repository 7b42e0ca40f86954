import { ANSWER_MAX_TOKENS, type GenerationStop } from '../analysis/generate';
import { parsePolicy, policyLabel } from '../context/policy';
import { useInspector } from '../state/inspector-store';
import { useQuiet } from '../state/lesson-store';
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
  const last = useInspector((s) => s.lastGeneration);
  const generated = useInspector((s) => s.generated);
  const own = generated[0] ?? {};
  const others = generated.slice(1).flatMap((g, i) => Object.entries(g ?? {}).map(([p, text]) => ({ slot: i + 1, p, text })));
  const results = useInspector((s) => s.results);
  const shown = results.map((r) => r.policy);
  const quiet = useQuiet();
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
      {analyzing && <Scoring />}
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
          <p className="muted" data-testid="generation-rate">
            {rateLine(generating.tokens, performance.now() - generating.since)}
          </p>
        </div>
      )}
      {!generating && last && (Object.keys(own).length > 0 || others.length > 0) && (
        <p className="muted" data-testid="generation-done">
          {/* Named, so its count is not read as the scored answer's (readers set 17 written tokens against 27 scored). */}
          The last answer written ({policyLabel(parsePolicy(last.policy))}
          {last.slot > 0 ? `, model ${slotName(last.slot)}` : ''}): {rateLine(last.tokens, last.ms)}; it stopped {STOPS[last.stop]}.
        </p>
      )}
      {!generating && (Object.keys(own).length > 0 || others.length > 0) && (
        <div className="generated" data-testid="generated">
          {Object.entries(own).map(([p, text]) => (
            <p key={p}>
              <strong>
                {/* The lesson's card says what each answer is for; which view scores it is the inspector's business. */}
                {policyLabel(parsePolicy(p))}, the model's answer
                {quiet ? '' : ` (${shown.includes(p) ? 'scored below' : `not shown now: choose ${policyLabel(parsePolicy(p))} to see it scored`})`}:
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

/** Why the last answer ended, in words. */
const STOPS: Record<GenerationStop, string> = {
  end: 'because the model ended its answer',
  limit: `at the limit of ${ANSWER_MAX_TOKENS} tokens`,
  stopped: 'because it was stopped (something newer was asked for)',
};

/** "97 tokens in 37.2 s (2.6 tokens a second)". */
export function rateLine(tokens: number, ms: number): string {
  const s = ms / 1000;
  return `${tokens} token${tokens === 1 ? '' : 's'} in ${s.toFixed(1)} s${s > 0 && tokens > 0 ? ` (${(tokens / s).toFixed(1)} tokens a second)` : ''}`;
}

/**
 * What is being scored, and what the figures on screen are meanwhile: a newly loaded model's first pass, or a
 * new conversation's, takes long on a large model, and the figures below are not yet of what the page shows.
 */
function Scoring() {
  const model = useModelStore((s) => s.info);
  const was = useInspector((s) => s.resultsModel);
  const from = useInspector((s) => s.resultsFrom);
  const otherText = useInspector((s) => s.resultsText !== s.text);
  const sweeping = useInspector((s) => s.sweeping);
  const otherModel = from === 'model' && was !== null && model !== null && was.id !== model.modelId;
  if (!otherModel && !otherText)
    return (
      <p className="muted" role="status">
        Scoring…
      </p>
    );
  return (
    <p className="warn" role="status" data-testid="scoring-stale">
      {otherModel
        ? `The figures below are still ${was.name}'s: ${model.source} is scoring this conversation (a newly loaded model's first pass takes longest)…`
        : 'The figures below are of the conversation before this one, until it is scored…'}
      {sweeping ? ` Turns scored: ${sweeping.done} of ${sweeping.total}.` : ''}
    </p>
  );
}

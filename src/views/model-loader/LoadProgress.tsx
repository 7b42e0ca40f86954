import { useSlot } from './slot';

const STAGES = { download: 'Reading files', build: 'Building the attention graph', session: 'Reading the weights into the inference session' };
/** A size as a person reads it: kB for the small files (config.json is a few kB, not "0.0 MB"). */
export const mb = (n: number) => (n < 100_000 ? `${Math.max(1, Math.round(n / 1e3))} kB` : `${(n / 1e6).toFixed(1)} MB`);

/** Stage, file and bytes of the load in progress, or the error that ended it. */
export function LoadProgress() {
  const { store: useModel } = useSlot();
  const load = useModel((s) => s.load);
  const renderWithTemplate = useModel((s) => s.renderWithTemplate);
  if (load.status === 'error') {
    // A model with no chat template (a base model): the next step is a named fallback template, chosen here.
    const noTemplate = load.error?.includes('has no chat template') === true;
    return (
      <div role="alert" className="error">
        <p>Could not load the model: {load.error}</p>
        {noTemplate && (
          <p className="row">
            <button type="button" onClick={() => void renderWithTemplate('chatml')}>
              Render it with ChatML
            </button>
            <button type="button" onClick={() => void renderWithTemplate('plain')}>
              Render it with plain “User: …” turns
            </button>
          </p>
        )}
      </div>
    );
  }
  if (load.status !== 'loading' || !load.stage) return null;
  const fraction = load.allTotal ? load.allLoaded / load.allTotal : load.stage === 'download' && load.total ? load.loaded / load.total : undefined;
  return (
    <div className="progress" role="status">
      <span>
        {STAGES[load.stage]}
        {load.allTotal
          ? ` · weights ${mb(load.allLoaded)} of ${mb(load.allTotal)}${load.file && load.loaded ? ` (${load.file})` : ''}`
          : load.file && load.total
            ? ` · ${load.file} ${mb(load.loaded)} of ${mb(load.total)}`
            : ''}
      </span>
      <progress value={fraction} max={1} />
    </div>
  );
}

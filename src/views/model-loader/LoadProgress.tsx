import { useSlot } from './slot';

const STAGES = { download: 'Reading files', build: 'Building the attention graph', session: 'Reading the weights into the inference session' };
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

/** Stage, file and bytes of the load in progress, or the error that ended it. */
export function LoadProgress() {
  const { store: useModel } = useSlot();
  const load = useModel((s) => s.load);
  if (load.status === 'error') return <p role="alert" className="error">Could not load the model: {load.error}</p>;
  if (load.status !== 'loading' || !load.stage) return null;
  const fraction = load.allTotal ? load.allLoaded / load.allTotal : load.stage === 'download' && load.total ? load.loaded / load.total : undefined;
  return (
    <div className="progress" role="status">
      <span>
        {STAGES[load.stage]}
        {load.allTotal ? ` · weights ${mb(load.allLoaded)} of ${mb(load.allTotal)}${load.file && load.loaded ? ` (${load.file})` : ''}` : load.file && load.total ? ` · ${load.file} ${mb(load.loaded)} of ${mb(load.total)}` : ''}
      </span>
      <progress value={fraction} max={1} />
    </div>
  );
}

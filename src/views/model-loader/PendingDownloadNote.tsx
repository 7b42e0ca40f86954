import { Explain } from '../explain/Explain';
import { PrecisionSelect } from './PrecisionSelect';
import { useSlot } from './slot';

const size = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(0)} MB`);

/**
 * A large model, shown before its weights are read: the Hub commit or the picked files, the size, where it
 * fits at each precision, and the precision to load it at.
 */
export function PendingDownloadNote() {
  const { store: useModel } = useSlot();
  const pending = useModel((s) => s.pending);
  const confirm = useModel((s) => s.confirmDownload);
  const cancel = useModel((s) => s.cancelDownload);
  if (!pending) return null;
  const download = pending.ref !== null;
  return (
    <div className="pending" role="dialog" aria-label={download ? 'confirm the download' : 'confirm the load'} data-testid="pending-download">
      <p>
        <strong>{pending.label}</strong>: {size(pending.bytes)} of weights in {pending.files} file{pending.files === 1 ? '' : 's'}, read a tensor at a time
        {download ? '' : ' from your disk'}.
      </p>
      <p>Where it fits, by weight precision:</p>
      <ul data-testid="fits">
        {pending.fits.map((f) => (
          <li key={f}>{f}</li>
        ))}
      </ul>
      <p className="row">
        <label>
          precision <PrecisionSelect />
        </label>
        <Explain id="precision" />
      </p>
      <ul>
        {pending.plans.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      <p className="row">
        <button type="button" onClick={() => void confirm()}>
          {download ? `Download ${size(pending.bytes)} and load` : `Load ${size(pending.bytes)}`}
          {pending.quant === 'none' ? '' : ` at ${pending.quant}`}
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </p>
    </div>
  );
}

import { useSlot } from './slot';

const size = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${(n / 1e6).toFixed(0)} MB`);

/** A large Hub download, shown before it starts: the commit, the size, and where the model fits. */
export function PendingDownloadNote() {
  const { store: useModel } = useSlot();
  const pending = useModel((s) => s.pending);
  const confirm = useModel((s) => s.confirmDownload);
  const cancel = useModel((s) => s.cancelDownload);
  if (!pending) return null;
  return (
    <div className="pending" role="dialog" aria-label="confirm the download" data-testid="pending-download">
      <p>
        <strong>{pending.label}</strong>: {size(pending.bytes)} of weights in {pending.files} file{pending.files === 1 ? '' : 's'}, read a tensor at a time.
      </p>
      <ul>{pending.plans.map((p) => <li key={p}>{p}</li>)}</ul>
      <p className="row">
        <button type="button" onClick={() => void confirm()}>Download {size(pending.bytes)} and load</button>
        <button type="button" onClick={cancel}>Cancel</button>
      </p>
    </div>
  );
}

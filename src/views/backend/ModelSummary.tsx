import { useModelStore } from '../../state/model-store';

/** What is loaded and where it runs: the backend in use always visible, with the reason for a fallback. */
export function ModelSummary() {
  const info = useModelStore((s) => s.info);
  if (!info) return <p className="muted">No model loaded yet.</p>;
  const { spec, report } = info;
  return (
    <section className="panel" aria-labelledby="summary-title">
      <h2 id="summary-title">
        Loaded <span className="badge" data-testid="backend">{report.backend === 'webgpu' ? 'WebGPU' : 'wasm'}</span>
      </h2>
      {report.fallbackReason && <p className="warn" data-testid="fallback">Not on WebGPU: {report.fallbackReason}</p>}
      <dl className="facts">
        <dt>source</dt><dd>{info.source}</dd>
        <dt>family</dt><dd>{spec.family}</dd>
        <dt>parameters</dt><dd>{info.parameters.toLocaleString('en-US')}</dd>
        <dt>layers × heads</dt><dd>{spec.numLayers} × {spec.numHeads} ({spec.numKvHeads} key/value heads, head size {spec.headDim})</dd>
        <dt>weights</dt><dd>{info.dtypes.join(', ')}: {info.weightStorage}</dd>
        <dt>compute</dt><dd>{report.dtypeReason}</dd>
      </dl>
    </section>
  );
}

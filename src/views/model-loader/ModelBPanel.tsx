import { useEffect, useState } from 'react';
import { CPL_MODEL_LABEL, CPL_MODEL_PATH, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../../model/demo';
import { useInspector } from '../../state/inspector-store';
import { useModelBStore, useModelStore } from '../../state/model-store';
import { CPL_REF, DEMO_REF } from '../../state/hub-access';
import { PrecisionSelect } from './PrecisionSelect';
import { LoadProgress } from './LoadProgress';
import { ModelLoader } from './ModelLoader';
import { demoSource } from '../demo-source';
import { ModelSlotContext } from './slot';
import { Explain } from '../explain/Explain';

/**
 * Compare models: a second model, in a worker of its own, scores the same conversation, turn and policy
 * (paper 2's base model against its CPL-tuned twin is one click).
 */
export function ModelBPanel() {
  const on = useInspector((s) => s.compareModels);
  const setOn = useInspector((s) => s.setCompareModels);
  const schedule = useInspector((s) => s.scheduleAnalysis);
  const info = useModelBStore((s) => s.info);
  const load = useModelBStore((s) => s.loadModel);
  const busy = useModelBStore((s) => s.load.status === 'loading');
  const loadFrom = useModelBStore((s) => s.loadFrom);
  const infoA = useModelStore((s) => s.info);
  // Model A itself as model B, at B's precision: a quantized model against its full-precision self.
  const sameAsA = () => {
    const origin = useModelStore.getState().origin();
    if (origin) void loadFrom(origin);
  };
  // The loader inside the details shows the load's progress itself when open: shown once, not twice.
  // Open from the start when a link names a Hub model B: its offer (and, after a click, its download's
  // confirmation) are in the loader.
  const [loaderOpen, setLoaderOpen] = useState(() => useModelBStore.getState().linkOffer !== null);
  // A model B that just loaded (or went) changes what is compared.
  useEffect(() => {
    if (on) schedule();
  }, [info?.modelId, on, schedule]);
  return (
    <section className="panel" aria-labelledby="model-b-title">
      <h2 id="model-b-title">Compare two models<Explain id="model-b" /></h2>
      <label>
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} data-testid="compare-models" /> score this conversation with a second model too: the same turn and policy, side by side, with the difference
      </label>
      {on && (
        <>
          <p className="row">
            <button type="button" disabled={busy} onClick={() => void load(demoSource(CPL_MODEL_PATH, CPL_MODEL_LABEL), CPL_REF)}>Compare with the CPL-tuned demo model</button>
            <button type="button" disabled={busy} onClick={() => void load(demoSource(DEMO_MODEL_PATH, DEMO_MODEL_LABEL), DEMO_REF)}>with the demo model itself</button>
            <button type="button" disabled={busy || !infoA} onClick={sameAsA} data-testid="b-same-as-a">with model A itself, at model B&apos;s precision</button>
            <span className="muted">
              {info ? `Model B: ${info.source}, ${info.parameters.toLocaleString('en-US')} parameters, on ${info.report.backend === 'webgpu' ? 'WebGPU' : 'wasm'}${info.precision !== 'none' ? `, weights ${info.precision}` : ''}.` : busy ? 'Loading model B…' : 'No model B yet: pick one here, or load any model below.'}
            </span>
          </p>
          <ModelSlotContext.Provider value={{ slot: 'b', store: useModelBStore }}>
            <p className="row">
              <label>model B&apos;s precision <PrecisionSelect /></label>
              <span className="muted">Model A at q4 against model B at its own precision shows what quantizing changes in the figures.</span>
            </p>
          </ModelSlotContext.Provider>
          <p className="muted">
            The CPL-tuned twin is the demo model after Context Preference Learning (paper 2, §2.1): trained to prefer the answer it gives from a short context over the one it gives from the whole history.
          </p>
          <ModelSlotContext.Provider value={{ slot: 'b', store: useModelBStore }}>
            <details open={loaderOpen} onToggle={(e) => setLoaderOpen((e.target as HTMLDetailsElement).open)}>
              <summary>Load model B from the Hub or from files</summary>
              <ModelLoader />
            </details>
            {!info && !loaderOpen && <LoadProgress />}
          </ModelSlotContext.Provider>
        </>
      )}
    </section>
  );
}

import { useEffect, useState } from 'react';
import { CPL_MODEL_LABEL, CPL_MODEL_PATH, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../../model/demo';
import { useInspector } from '../../state/inspector-store';
import { MAX_MODELS, slotName, type ModelSlot } from '../../state/model-client';
import { modelStore, useModelStore } from '../../state/model-store';
import { CPL_REF, DEMO_REF } from '../../state/hub-access';
import { PrecisionSelect } from './PrecisionSelect';
import { LoadProgress } from './LoadProgress';
import { ModelLoader } from './ModelLoader';
import { demoSource } from '../../state/demo-source';
import { ModelSlotContext } from './slot';
import { useQuiet } from '../../state/lesson-store';
import { Explain } from '../explain/Explain';

/** The compared slots in use: those with a model, a load, a download waiting or a link's offer (B at least). */
const slotsInUse = (): ModelSlot[] => {
  const used = Array.from({ length: MAX_MODELS - 1 }, (_, i) => i + 1).filter((slot) => {
    const s = modelStore(slot).getState();
    return s.info !== null || s.load.status !== 'idle' || s.pending !== null || s.linkOffer !== null;
  });
  return Array.from({ length: Math.max(1, ...used) }, (_, i) => i + 1);
};

/**
 * Compare models: up to three more models, each in a worker of its own, score the same conversation, turn
 * and policy (paper 2's base model against its CPL-tuned twin is one click).
 */
export function ComparePanel() {
  const on = useInspector((s) => s.compareModels);
  const setOn = useInspector((s) => s.setCompareModels);
  const [slots, setSlots] = useState<ModelSlot[]>(slotsInUse);
  const next = slots.length + 1;
  // The lesson compares the demo model with its twin only: the rest of the panel is a researcher's.
  const quiet = useQuiet();
  return (
    <section className="panel" aria-labelledby="compare-models-title">
      <h2 id="compare-models-title">
        Compare models
        <Explain id="compare-models" />
      </h2>
      <label>
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} data-testid="compare-models" /> score this conversation with more models
        too: the same turn and policy, side by side, each compared with model A
      </label>
      {on && (
        <>
          <p className="muted" hidden={quiet}>
            The CPL-tuned twin is the demo model after Context Preference Learning (the method of “Mitigating conversational inertia”, the second paper this
            tool follows): trained to prefer the answer it gives from a short context over the one it gives from the whole history.
          </p>
          {slots.map((slot) => (
            <CompareSlot key={slot} slot={slot} />
          ))}
          {next < MAX_MODELS && !quiet && (
            <button type="button" onClick={() => setSlots([...slots, next])} data-testid="add-model">
              Add model {slotName(next)}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** One compared model: quick picks, its precision, and its loader. */
function CompareSlot({ slot }: { slot: ModelSlot }) {
  const store = modelStore(slot);
  const name = slotName(slot);
  const info = store((s) => s.info);
  const load = store((s) => s.loadModel);
  const busy = store((s) => s.load.status === 'loading');
  const loadFrom = store((s) => s.loadFrom);
  const infoA = useModelStore((s) => s.info);
  // Model A itself in this slot, at this slot's precision: a quantized model against its full-precision self.
  const sameAsA = () => {
    const origin = useModelStore.getState().origin();
    if (origin) void loadFrom(origin);
  };
  // The loader inside the details shows the load's progress itself when open: shown once, not twice. Open
  // from the start when a link names a Hub model here: its offer (and, after a click, its download's
  // confirmation) are in the loader.
  const [loaderOpen, setLoaderOpen] = useState(() => store.getState().linkOffer !== null);
  useEffect(() => setLoaderOpen((o) => o || store.getState().linkOffer !== null), [store]);
  const letter = name.toLowerCase();
  const quiet = useQuiet();
  return (
    <ModelSlotContext.Provider value={{ slot, store }}>
      <div className="compare-slot" data-testid={`compare-slot-${letter}`}>
        <h3>Model {name}</h3>
        <p className="row">
          {/* aria-disabled while a model loads, not disabled: the button keeps the keyboard's focus. */}
          <button
            type="button"
            aria-disabled={busy}
            onClick={() => !busy && void load(demoSource(CPL_MODEL_PATH, CPL_MODEL_LABEL), CPL_REF)}
            data-testid={`${letter}-cpl`}
          >
            Compare with the CPL-tuned demo model
          </button>
          <button
            type="button"
            aria-disabled={busy}
            onClick={() => !busy && void load(demoSource(DEMO_MODEL_PATH, DEMO_MODEL_LABEL), DEMO_REF)}
            data-testid={`${letter}-demo`}
          >
            with the demo model itself
          </button>
          <button type="button" hidden={quiet} disabled={busy || !infoA} onClick={sameAsA} data-testid={`${letter}-same-as-a`}>
            with model A itself, at model {name}&apos;s precision
          </button>
          <span className="muted">
            {info
              ? `Model ${name}: ${info.source}, ${info.parameters.toLocaleString('en-US')} parameters, on ${info.report.backend === 'webgpu' ? 'WebGPU' : 'wasm'}${info.precision !== 'none' ? `, weights ${info.precision}` : ''}.`
              : busy
                ? `Loading model ${name}…`
                : `No model ${name} yet: pick one here, or load any model below.`}
          </span>
        </p>
        <p className="row" hidden={quiet}>
          <label>
            model {name}&apos;s precision <PrecisionSelect />
          </label>
          {slot === 1 && <span className="muted">Model A at q4 against model B at its own precision shows what quantizing changes in the figures.</span>}
        </p>
        <details hidden={quiet} open={loaderOpen} onToggle={(e) => setLoaderOpen((e.target as HTMLDetailsElement).open)}>
          <summary>Load model {name} from the Hub or from files</summary>
          <ModelLoader />
        </details>
        {!info && !loaderOpen && <LoadProgress />}
      </div>
    </ModelSlotContext.Provider>
  );
}

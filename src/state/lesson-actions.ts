import { CPL_MODEL_LABEL, CPL_MODEL_PATH } from '../model/demo';
import { demoSource } from './demo-source';
import { CPL_REF } from './hub-access';
import { lastLayerSets } from '../analysis/ablation';
import type { LayerFigures } from '../analysis/heads';
import { activePolicies, useInspector } from './inspector-store';
import { modelStore } from './model-store';

/**
 * Actions a lesson step runs from its own card, where doing them through the inspector would take a dozen
 * keys: the answer written under Full, then under DE (no earlier turn at all), so the step can compare them.
 */
export async function writeUnderFullThenDe(): Promise<void> {
  for (const policy of ['full', 'de']) {
    useInspector.getState().setPolicy(policy);
    await useInspector.getState().generate();
    // Stopped, or the page moved on (another step's setup clears the answers): nothing more to write.
    if (useInspector.getState().generated[0]?.[policy] === undefined) return;
  }
}

/** The CPL twin as model B (loaded unless it is already), then the answer under Full written by both models. */
export async function writeWithTheTwin(): Promise<void> {
  const b = modelStore(1);
  if (b.getState().info?.source !== CPL_MODEL_LABEL) await b.getState().loadModel(demoSource(CPL_MODEL_PATH, CPL_MODEL_LABEL), CPL_REF);
  if (b.getState().info?.source !== CPL_MODEL_LABEL) return; // the load failed: its panel says why
  useInspector.getState().setPolicy('full');
  await useInspector.getState().generate();
}

/**
 * The heads step: the last layer's 3 heads with the highest diagonal ratio under Full switched off and the answer
 * written with every head on and with them off, then, as a control, with its 3 lowest off instead. The last layer
 * only: it is the layer every figure reads, and the demo model falls apart without its first layer's top heads.
 */
export async function writeWithHeadsOff(): Promise<void> {
  const layers = await headFiguresOfFull();
  if (!layers) return; // not computed in time (the grid's panel says why)
  const { first, control } = lastLayerSets(layers);
  useInspector.getState().setOff(first);
  await useInspector.getState().answerWithHeadsOff(control);
}

/** Model A's head figures under the policy shown, with every head on: at once, or once the grid's pass brings them. */
function headFiguresOfFull(timeoutMs = 120_000): Promise<LayerFigures[] | null> {
  const now = () => {
    const s = useInspector.getState();
    return s.off.length ? null : (s.headFigures[`0|${activePolicies(s)[0]}`] ?? null);
  };
  if (now()) return Promise.resolve(now());
  return new Promise((resolve) => {
    const stop = useInspector.subscribe(() => {
      if (!now()) return;
      stop();
      clearTimeout(late);
      resolve(now());
    });
    const late = setTimeout(() => {
      stop();
      resolve(null);
    }, timeoutMs);
  });
}

export const LESSON_ACTIONS = { 'full-then-de': writeUnderFullThenDe, 'twin-writes': writeWithTheTwin, 'heads-off': writeWithHeadsOff } as const;
export type LessonAction = keyof typeof LESSON_ACTIONS;

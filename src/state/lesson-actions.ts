import { CPL_MODEL_LABEL, CPL_MODEL_PATH } from '../model/demo';
import { demoSource } from './demo-source';
import { CPL_REF } from './hub-access';
import { useInspector } from './inspector-store';
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

export const LESSON_ACTIONS = { 'full-then-de': writeUnderFullThenDe, 'twin-writes': writeWithTheTwin } as const;
export type LessonAction = keyof typeof LESSON_ACTIONS;

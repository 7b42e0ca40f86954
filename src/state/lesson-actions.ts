import { useInspector } from './inspector-store';

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

export const LESSON_ACTIONS = { 'full-then-de': writeUnderFullThenDe } as const;
export type LessonAction = keyof typeof LESSON_ACTIONS;

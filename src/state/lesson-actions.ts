import { useInspector } from './inspector-store';

/**
 * Actions a lesson step runs from its own card, where doing them through the inspector would take a dozen
 * keys: the answer written under Full, then under LT (the previous turn only), so the step can compare them.
 */
export async function writeUnderFullThenLt(): Promise<void> {
  for (const policy of ['full', 'lt']) {
    useInspector.getState().setPolicy(policy);
    await useInspector.getState().generate();
    // Stopped, or the page moved on (another step's setup clears the answers): nothing more to write.
    if (useInspector.getState().generated[0]?.[policy] === undefined) return;
  }
}

export const LESSON_ACTIONS = { 'full-then-lt': writeUnderFullThenLt } as const;
export type LessonAction = keyof typeof LESSON_ACTIONS;

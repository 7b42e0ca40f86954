import { create } from 'zustand';
import type { Hideable } from './regions';

/**
 * The lesson's own state: whether it is open, the step, and what the learner answered in its card
 * (guesses, quiz answers). What the steps check is read from the inspector (views/lesson/steps.ts).
 */
export interface LessonState {
  /** The step shown (0-based), or null when the lesson is closed. */
  step: number | null;
  guesses: Record<string, number>;
  answers: Record<number, number>;
  /** Steps whose action was done once: they stay done (a pointer that moves on does not undo a step). */
  reached: Record<number, true>;
  /** Policies whose count at the wall the learner has revealed within a step (AO-last's bar waits for its click). */
  seen: Record<string, true>;
  /** Regions a teacher's link hides (`hide=`). */
  hidden: Hideable[];
  /** The card shows its title, action and buttons only (a phone's screen has room for little else). */
  folded: boolean;
  /** While the lesson is open, the regions no step uses (QUIET) are out of the way, until the learner asks for them. */
  quiet: boolean;
  setQuiet(quiet: boolean): void;
  setFolded(folded: boolean): void;
  open(step?: number): void;
  setHidden(hidden: Hideable[]): void;
  reach(step: number): void;
  see(policy: string): void;
  close(): void;
  goTo(step: number): void;
  guess(key: string, value: number): void;
  answer(question: number, option: number): void;
}

/** The regions no lesson step points at: the model panels and the raw forward pass, a researcher's, not a newcomer's. */
export const QUIET: readonly Hideable[] = ['model', 'forward'];

/** Whether the QUIET regions (and the other parts no step uses) are out of the way now: the lesson open, and not asked for them. */
export const isQuiet = (s: Pick<LessonState, 'step' | 'quiet'>): boolean => s.step !== null && s.quiet;

/** Whether the views leave out a researcher's details now (the copy-aligned diagonal, the cost chart): the lesson quiet. */
export const useQuiet = (): boolean => useLesson(isQuiet);

export const useLesson = create<LessonState>()((set) => ({
  step: null,
  guesses: {},
  answers: {},
  reached: {},
  seen: {},
  hidden: [],
  folded: false,
  quiet: true,
  setQuiet: (quiet) => set({ quiet }),
  setFolded: (folded) => set({ folded }),
  open: (step = 0) => set({ step }),
  setHidden: (hidden) => set({ hidden }),
  reach: (step) => set((s) => (s.reached[step] ? s : { reached: { ...s.reached, [step]: true } })),
  see: (policy) => set((s) => (s.seen[policy] ? s : { seen: { ...s.seen, [policy]: true } })),
  close: () => set({ step: null }),
  goTo: (step) => set({ step }),
  guess: (key, value) => set((s) => ({ guesses: { ...s.guesses, [key]: value } })),
  answer: (question, option) => set((s) => ({ answers: { ...s.answers, [question]: option } })),
}));

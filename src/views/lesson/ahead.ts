import { CATEGORIES } from '../../metrics/categories';
import { useLesson } from '../../state/lesson-store';
import { LESSON } from './steps';

/**
 * The figures later lesson steps ask the learner to guess and that are not guessed yet, comma-joined (a string,
 * so a store selector returns the same value while nothing changes). The figures panel shows them as "?" until
 * then: a guess is not worth much once an earlier step has shown its answer.
 */
export function guessesAhead(step: number | null, guesses: Record<string, number>): string {
  return stepsAhead(step, guesses)
    .map((a) => a.key)
    .join(',');
}

/** The number of the first step ahead that asks for a guess not given yet (of `key`, or any), or 0 where none does. */
export function guessStep(step: number | null, guesses: Record<string, number>, key: string | null): number {
  return stepsAhead(step, guesses).find((a) => key === null || a.key === key)?.no ?? 0;
}

/** The steps after `step` that ask for a guess not given yet: each one's number (from 1) and the figure it asks for. */
function stepsAhead(step: number | null, guesses: Record<string, number>): { no: number; key: string }[] {
  if (step === null) return [];
  return LESSON.flatMap((s, i) => (i > step && s.guess && guesses[s.guess.key] === undefined ? [{ no: i + 1, key: s.guess.key }] : []));
}

/**
 * Whether a figure (by its key) is masked while `ahead` are still to be guessed. The copy-aligned diagonal goes with
 * the diagonal; the five shares go together, since they add up to 100 %: four shown would give the fifth away.
 */
export function maskedBy(ahead: readonly string[], key: string): boolean {
  const shares: readonly string[] = CATEGORIES;
  if (shares.includes(key)) return ahead.some((k) => shares.includes(k));
  return ahead.includes(key === 'diagonalCopy' ? 'diagonal' : key);
}

/** Whether the figures panel masks a figure (`maskedBy`), and whether it masks any. */
export function useGuessMask(): { masked: (key: string) => boolean; any: boolean } {
  const ahead = useLesson((s) => guessesAhead(s.step, s.guesses));
  const keys = ahead ? ahead.split(',') : [];
  return { masked: (key) => maskedBy(keys, key), any: keys.length > 0 };
}

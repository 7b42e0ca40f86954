import type { ReactNode } from 'react';
import { isQuiet, QUIET, useLesson } from '../state/lesson-store';
import { ErrorBoundary } from './ErrorBoundary';
import { LESSON } from './lesson/steps';
import { guessStep } from './lesson/ahead';
import { type StepId, stepNo } from './lesson/order';
import { HIDEABLE_NAMES, type Hideable } from '../state/regions';

/**
 * One region of the inspector, from the one list of them (lesson/hide.ts): its error boundary (a view that
 * fails shows what failed, the rest of the page stays), the anchor the lesson points at, and the hiding a
 * teacher's link asks for.
 */
export function Region({ name, id, className, children }: { name: Hideable; id?: string; className?: string; children: ReactNode }) {
  const hidden = useLesson((s) => s.hidden.includes(name) || (isQuiet(s) && QUIET.includes(name)));
  const open = useLesson((s) => COVERED.includes(name) && guessOpen(s));
  // The charts draw the figures later steps ask to guess, turn by turn: covered until those guesses are in (said as
  // waiting for the step that explains them, where that comes later: one panel naming the guess is enough). So is the
  // figures panel while the five shares are still to guess: a table of "guess first" cells read as broken.
  // The number of the step that asks for that guess (0: none ahead), so the cover says what it waits for.
  const ahead = useLesson((s) => (name === 'charts' || name === 'figures' ? guessStep(s.step, s.guesses, name === 'figures' ? 'prior' : null) : 0));
  // A panel the lesson has not explained yet waits for the step that does, so nothing on screen is left unexplained.
  const later = useLesson((s) => notYet(name, s));
  const covered = open || ahead > 0 || later !== null;
  return (
    <ErrorBoundary name={HIDEABLE_NAMES[name].replace(/^the /, '')}>
      <div data-lesson={name} id={id ?? `region-${name}`} className={className} hidden={hidden}>
        {covered ? (
          <section className="panel covered" data-testid={`covered-${name}`}>
            <h2>{HIDEABLE_NAMES[name].replace(/^the /, '').replace(/^./, (c) => c.toUpperCase())}</h2>
            <p>
              {open
                ? 'Hidden until you lock in your guess in the lesson card, so the figures do not give it away.'
                : later !== null
                  ? `Not used yet: step ${later} of the lesson explains it.`
                  : `Step ${ahead} asks you to guess ${name === 'charts' ? 'figures these charts draw' : 'these figures'} first: they show once you have guessed.`}
            </p>
          </section>
        ) : (
          children
        )}
      </div>
    </ErrorBoundary>
  );
}

/** The step that first explains a region; before it, while the lesson keeps the page quiet, the region waits covered. */
const TAUGHT_AT: Partial<Record<Hideable, StepId>> = { heatmap: 'heatmap', heads: 'heads', charts: 'cpl', 'compare-models': 'cpl' };
/** The number of the step a region waits for, or null where it is shown now. */
function notYet(name: Hideable, s: Parameters<typeof isQuiet>[0]): number | null {
  const at = TAUGHT_AT[name];
  return at && isQuiet(s) && s.step !== null && s.step < stepNo(at) - 1 ? stepNo(at) : null;
}

/** The regions that show the figures a lesson step asks to guess. */
const COVERED: Hideable[] = ['figures', 'charts', 'heads', 'tokens'];
/** A lesson step is waiting for a guess: its figures are not shown before it. */
function guessOpen(s: { step: number | null; guesses: Record<string, number> }): boolean {
  const step = s.step === null ? undefined : LESSON[s.step];
  return step?.guess !== undefined && s.guesses[step.guess.key] === undefined;
}

import { useInspector } from '../../state/inspector-store';
import { drawnId } from '../drawn';
import { focusElement } from '../SkipLinks';
import { scrollUnderCardTop } from './card-scroll';

/**
 * "Take me there": at once when the page shows the figures of the step's conversation; while they are still
 * being computed (a step that changed the example), once they are computed and drawn, so the focus does not land
 * on a token about to be replaced (the focus would fall to the page's body).
 */
export function goWhenShown(selector: string, done: (ok: boolean) => void): void {
  const settled = () => {
    const s = useInspector.getState();
    return !s.analyzing && (s.resultsText === s.text || s.resultsFrom === null);
  };
  // Only the views drawn from the figures are replaced when they arrive; a button or a control stays.
  const drawn = document.querySelector(selector)?.closest('[data-lesson="tokens"], [data-lesson="heatmap"]');
  if (!drawn || (settled() && drawnNow())) {
    done(focusTarget(selector));
    return;
  }
  const giveUp = Date.now() + 30_000;
  // The views draw the new figures a frame or more after the store has them (deferred): wait for both.
  const check = () => {
    if ((settled() && drawnNow()) || Date.now() > giveUp) done(focusTarget(selector));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** Whether every view marked with the figures it drew (data-drawn) shows the figures the store holds now. */
function drawnNow(): boolean {
  const r = useInspector.getState().results[0];
  if (!r) return true;
  return [...document.querySelectorAll('[data-drawn]')].every((el) => el.getAttribute('data-drawn') === drawnId(r));
}

/** Moves the focus to a step's target (made focusable if it is not); false when it is not on screen. */
function focusTarget(selector: string): boolean {
  const el = document.querySelector<HTMLElement>(selector);
  if (!el || el.closest('[hidden]')) return false;
  focusElement(el);
  // A target in the card's reveal (the recap's table) is read under its point: the reveal from its top, below the
  // card's sticky top. Centred, a tall table hid the takeaway above it.
  const reveal = el.closest<HTMLElement>('[data-testid="lesson-reveal"]');
  if (reveal) scrollUnderCardTop(reveal, 'start');
  else el.scrollIntoView({ block: 'center' });
  return document.activeElement === el;
}

/** Where the lesson brings the page and the card into view: the step's region on entry, the reveal, the picture after an action. */
import { type RefObject, useEffect, useRef, useState } from 'react';
import type { LessonRegion, LessonStep } from './world';

/** Smooth scrolling, unless the person asked for less motion. */
export const motion = (): ScrollBehavior => (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth');

/** Whether the step (by its index) was already done when the learner entered it: then nothing it shows is news. */
function useDoneOnEntry(index: number, reached: boolean): boolean {
  const entry = useRef({ index: -1, done: false });
  if (entry.current.index !== index) entry.current = { index, done: reached };
  return entry.current.done;
}

/**
 * Outlines the region a step points at (its data-lesson attribute) and brings it into view once per
 * step. `present` re-runs it when new figures may have made the region appear; it does not scroll the
 * page back while the learner acts elsewhere.
 */
export function useHighlight(step: number, region: LessonRegion, target: string, show: string | undefined, present: unknown, setUp: boolean) {
  const scrolledFor = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `present` is what changes when the region may have appeared
  useEffect(() => {
    const el = document.querySelector(`[data-lesson="${region}"]`);
    if (!el || region === 'card') return;
    el.classList.add('lesson-focus');
    // Scrolled once the step's setup is drawn: a panel it closes above (the turns list) would move the region away.
    if (setUp && scrolledFor.current !== step) {
      scrolledFor.current = step;
      // The step's target when it is on the page (a phone shows little above the card: the heatmap itself,
      // not its legend), else the region's top.
      const shown = show ? document.querySelector(show) : null;
      const t = document.querySelector(target);
      // Centred, unless taller than most of the screen (a table): then from its top, so its head is read first.
      const tall = shown && shown.getBoundingClientRect().height > innerHeight * 0.6;
      if (shown && el.contains(shown)) shown.scrollIntoView({ block: tall ? 'start' : 'center', behavior: motion() });
      else (t && el.contains(t) ? t : el).scrollIntoView({ block: 'start', behavior: motion() });
    }
    return () => el.classList.remove('lesson-focus');
  }, [step, region, present, setUp]);
}

/**
 * Brings an element of the lesson card into the card's view below its sticky top (step and title), not under it: the
 * takeaway's first line showed cut. `block` as scrollIntoView's.
 */
export function scrollUnderCardTop(el: HTMLElement, block: ScrollLogicalPosition): void {
  el.style.scrollMarginTop = `${el.closest('[data-testid="lesson-card"]')?.querySelector<HTMLElement>('.lesson-top')?.offsetHeight ?? 0}px`;
  el.scrollIntoView?.({ block });
}

/**
 * Each step opens at the card's top, its question first, even when its reveal stands from an earlier visit; a
 * reveal the learner's action brings is then brought into the card's view (on a phone the card scrolls; the
 * sheet keeps its third of the screen, so the figure the reveal reads stays in view above it, unless that figure is
 * in the card: `ownPicture`).
 */
export function useCardScroll(index: number, said: string, reached: boolean, pictures: number, startTall = false, ownPicture = false) {
  const [tall, setTall] = useState(startTall);
  const cardRef = useRef<HTMLElement>(null);
  const revealRef = useRef<HTMLDivElement>(null);
  const doneBefore = useDoneOnEntry(index, reached);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the card goes back to its top when the step changes
  useEffect(() => {
    cardRef.current?.scrollTo?.({ top: 0 });
    setTall(startTall);
  }, [index]);
  // Again when a picture joins it (the running count comes once the step is reached). A reveal taller than the card
  // opens at its top, its point and picture first; a shorter one just comes into view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `pictures` is what changes when the reveal grows
  useEffect(() => {
    const r = revealRef.current;
    if (!said || doneBefore || !r) return;
    // The reveal's picture in the card itself (the running count's bars): on a phone the card opens tall, as readers
    // saw only the headline in a third of the screen. "shorter" gives the page back.
    if (ownPicture) setTall(true);
    const tall = r.offsetHeight > (cardRef.current?.clientHeight ?? Number.POSITIVE_INFINITY) * 0.6;
    // The quiz's score sits just above its reveal: the reveal opens under it, so the score stays in view.
    const score = cardRef.current?.querySelector<HTMLElement>('[data-testid="lesson-score"]');
    const to = tall && score ? score : r;
    scrollUnderCardTop(to, tall ? 'start' : 'nearest');
  }, [said, pictures]);
  return { cardRef, revealRef, tall, setTall };
}

/**
 * Once the learner's action is done (not on entry to a step already done), brings the picture its reveal reads into
 * view, when that is not the region the action was in (Filler is clicked among the policies; its heatmap is lower).
 */
export function useAfter(index: number, s: LessonStep, doneNow: boolean, reached: boolean) {
  const doneBefore = useDoneOnEntry(index, reached);
  useEffect(() => {
    if (!doneNow || doneBefore || !s.after) return;
    const bring = (behavior: ScrollBehavior) => document.querySelector(s.after!)?.scrollIntoView({ block: 'center', behavior });
    requestAnimationFrame(() => bring(motion()));
    // What the action started may still arrive above the picture (the twin's pass over the turns) and push it out of
    // view: kept in view while the page settles, until the learner scrolls or types themselves.
    const keep = new ResizeObserver(() => bring('auto'));
    const stop = () => keep.disconnect();
    keep.observe(document.body);
    const quit = window.setTimeout(stop, 8000);
    const mine = ['wheel', 'touchstart', 'keydown'] as const;
    for (const e of mine) window.addEventListener(e, stop, { once: true, passive: true });
    return () => {
      stop();
      window.clearTimeout(quit);
      for (const e of mine) window.removeEventListener(e, stop);
    };
  }, [doneNow, doneBefore, s]);
}

/**
 * Whether the step's text has scrolled up under the card's sticky top: then the top says its question again, so a
 * reveal read further down still has the question it answers in view.
 */
export function useTextScrolledAway(cardRef: RefObject<HTMLElement | null>, index: number): boolean {
  const [away, setAway] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked again when the step (and so its text) changes
  useEffect(() => {
    const card = cardRef.current;
    if (!card) return;
    const check = () => {
      const [text, top] = [card.querySelector('[data-testid="lesson-text"]'), card.querySelector('.lesson-top')];
      setAway(!!text && !!top && text.getBoundingClientRect().bottom < top.getBoundingClientRect().bottom);
    };
    check();
    card.addEventListener('scroll', check, { passive: true });
    return () => card.removeEventListener('scroll', check);
  }, [cardRef, index]);
  return away;
}

/**
 * Whether the card holds more text below what it shows: on a phone the sheet is a third of the screen and readers
 * took its last visible line for its end. Checked on scroll and whenever the card or its contents change size.
 */
export function useMoreBelow(cardRef: RefObject<HTMLElement | null>, index: number): boolean {
  const [more, setMore] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked again when the step (and so its text) changes
  useEffect(() => {
    const card = cardRef.current;
    if (!card) return;
    // A few pixels of slack: the sticky buttons' negative offset leaves the card a hair taller than it scrolls.
    const check = () => setMore(card.scrollHeight - card.scrollTop - card.clientHeight > 8);
    check();
    card.addEventListener('scroll', check, { passive: true });
    const sized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
    sized?.observe(card);
    for (const child of card.children) sized?.observe(child);
    return () => {
      card.removeEventListener('scroll', check);
      sized?.disconnect();
    };
  }, [cardRef, index]);
  return more;
}

/** Scrolls the card down by most of what it shows, keeping a line or two of what was read in view. */
export function scrollCardOn(card: HTMLElement | null): void {
  card?.scrollBy({ top: card.clientHeight * 0.7, behavior: motion() });
}

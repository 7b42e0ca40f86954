import { useEffect, useRef, useState } from 'react';
import { LESSON_ACTIONS } from '../../state/lesson-actions';
import { applySetup, setupLine } from '../../state/lesson-setup';
import { useLesson } from '../../state/lesson-store';
import { goWhenShown } from './take-me-there';
import { Glossary, Guess, Quiz } from './LessonParts';
import { figuresOf, LESSON, type LessonStep, type LessonWorld, type Reveal } from './steps';
import { partOf } from './order';
import { only, questionOf, SILENT, unbroken } from './world';
import { CUTTING, scoreboard } from './wall-counts';
import { WRITERS } from './wall-records';
import { useLessonWorld } from './use-lesson-world';
import { MazeDrawing } from './MazeDrawing';
import { AttentionWords, ModelShape } from './ModelShape';
import { writtenIn } from './written';
import { scrollCardOn, useAfter, useCardScroll, useHighlight, useMoreBelow, useTextScrolledAway } from './card-scroll';
import { RevealBox } from './RevealBox';

/** The page as the step set it up: its first figures of the setup's policy and turn (what changes are compared with). */
function useBaseline(index: number, s: LessonStep, w: LessonWorld): LessonWorld | null {
  const [base, setBase] = useState<{ index: number; w: LessonWorld } | null>(null);
  const r = figuresOf(w, s.setup.policy);
  // The final layer's head mean, as every setup asks: not the figures of a head the step before opened.
  const ready =
    r !== null &&
    w.exampleName === s.setup.example &&
    w.shown.length === 1 &&
    r.turn === (s.setup.turn ?? w.turns) &&
    w.head === null &&
    (w.finalLayer === null || r.layer === w.finalLayer);
  useEffect(() => {
    if (ready && base?.index !== index) setBase({ index, w });
  }, [ready, base, index, w]);
  return base?.index === index ? base.w : null;
}

/** The reveal as it stands, or the last one the step showed when what the learner did next leaves nothing to say. */
function useLatched(index: number, now: Reveal): Reveal {
  const kept = useRef<{ index: number; reveal: Reveal }>({ index, reveal: SILENT });
  if (kept.current.index !== index) kept.current = { index, reveal: SILENT };
  if (now.said) kept.current.reveal = now;
  return kept.current.reveal;
}

/** Where the steps that add to the running count sit in the lesson. */
const AT = {
  generate: LESSON.findIndex((x) => x.id === 'generate'),
  contexts: LESSON.findIndex((x) => x.id === 'contexts'),
  hide: LESSON.findIndex((x) => x.id === 'hide'),
  hideLast: LESSON.findIndex((x) => x.id === 'hide-last'),
  cpl: LESSON.findIndex((x) => x.id === 'cpl'),
};
/** The steps whose reveal speaks of the count at the wall: they draw it, as far as the learner has come. */
const COUNTED = new Set(['generate', 'contexts', 'hide', 'hide-last', 'cpl', 'check']);

/** The running count at the wall as far as the learner has come: from the step that first shows it on. */
function useBoard(s: LessonStep, shows: boolean, w: LessonWorld) {
  const reachedAt = useLesson((st) => st.reached);
  // The closing summary draws every row, whichever steps were skipped: it is the lesson's whole count.
  const all = s.id === 'check';
  return scoreboard(
    {
      generate: all || reachedAt[AT.generate] === true,
      contexts: all || reachedAt[AT.contexts] === true,
      // The hiding steps' AO bar comes with AO's click (or with the step after it, entered by a link).
      hide: all || reachedAt[AT.hide] === true || (s.id === 'hide' && shows) || s.id === 'hide-last',
      cpl: all || reachedAt[AT.cpl] === true,
      // In the step that asks for it, AO-last's bar comes with its click, not before; in the AO step, not at all.
      aoLast: all || reachedAt[AT.hideLast] === true || (s.id === 'hide-last' && shows),
    },
    undefined,
    // The twin's step draws the rows its words read: the twin against Full, LT (its training target) and DE; the
    // second twin, which its text no longer introduces, waits in the fold's table.
    // The hide step draws only the rows it reads: Full, the ways of hiding, DE (the step before's Window-6 and LT apart).
    // Elsewhere the cutting policies stay in the drop-turns step's fold, but the one the reader clicked there.
    // The close draws the lesson's five key rows (a teacher counted eight bars there): the two ends, the direct test and
    // its control, and the twin.
    s.id === 'check'
      ? ['full', 'de', 'ao-last', 'ao-second-last', 'twin']
      : s.id === 'cpl'
        ? ['full', 'lt', 'de', 'twin']
        : s.id === 'hide'
          ? ['full', 'ao', 'de']
          : s.id === 'hide-last'
            ? ['full', 'ao', 'ao-last', 'ao-second-last', 'de']
            : WRITERS.filter((p) => !(CUTTING as readonly string[]).includes(p) || (s.id === 'contexts' && only(w, p))),
  );
}

/** The lesson's card beside the inspector: the step, what to do, the reveal, and the way around. */
export function LessonCard() {
  const step = useLesson((s) => s.step);
  return step === null ? null : <Card index={Math.min(step, LESSON.length - 1)} />;
}

function Card({ index }: { index: number }) {
  const w = useLessonWorld();
  const { goTo, close, reach, folded, setFolded } = useLesson();
  const reached = useLesson((st) => st.reached[index] === true);
  const s = LESSON[index]!;
  const part = partOf(index);
  // Every way into a step (Next, Back, the list, a link) sets what it needs; until then the page is the step
  // before's, and what it left (DE, after the generation step) must not count as this step done.
  const [setUp, setSetUp] = useState(-1);
  useEffect(() => {
    applySetup(LESSON[index]!.setup);
    setSetUp(index);
  }, [index]);
  const doneNow = setUp === index && s.done(w);
  // The quiz counts as it stands (an answer changed to a wrong one undoes it); the other steps latch.
  const done = s.quiz ? doneNow : doneNow || reached;
  useEffect(() => {
    if (doneNow) reach(index);
  }, [doneNow, index, reach]);
  const base = useBaseline(index, s, w);
  const shows = done || (setUp === index && s.shows?.(w) === true);
  const board = useBoard(s, shows, w);
  const reveal = useLatched(index, shows && s.reveal ? s.reveal(w, base) : SILENT);
  const written = done ? writtenIn(s, w) : [];
  const [lost, setLost] = useState<number | null>(null);
  const { cardRef, revealRef, tall, setTall } = useCardScroll(
    index,
    reveal.said,
    reached || s.reading === true,
    (board?.rows.length ?? 0) + (reveal.bars ? 1 : 0),
    // A step read in the card alone (the recaps, the quiz) points at nothing behind it: on a phone it opens tall.
    s.region === 'card',
    // The running count drawn in the card, and no page figure to keep in view (a guess's region, an "after" picture).
    !!board && !s.after && !s.guess,
  );
  useAfter(index, s, doneNow, reached);
  const text = s.text(w);
  const question = questionOf(text);
  const textAway = useTextScrolledAway(cardRef, index);
  const moreBelow = useMoreBelow(cardRef, index);
  const last = index === LESSON.length - 1;
  const heading = useRef<HTMLHeadingElement>(null);
  // Each step takes the focus, so a keyboard (and a screen reader) starts reading it at its title.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the step does
  useEffect(() => heading.current?.focus(), [index]);
  useHighlight(index, s.region, s.target, s.show, w.results, setUp === index);
  // Closing gives the focus back to the button that opens the lesson.
  const finish = () => {
    close();
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="learn"]')?.focus());
  };
  return (
    <aside
      className={`lesson${folded ? ' folded' : ''}${tall ? ' tall' : ''}${reveal.table || reveal.evidence ? ' wide' : ''}`}
      aria-label="Lesson"
      data-testid="lesson-card"
      data-lesson="card"
      id="region-card"
      ref={cardRef}
    >
      {/* On a phone the sheet scrolls: the step's number and title stay at its top. */}
      <div className="lesson-top">
        <div className="lesson-head">
          <p className="muted" data-testid="lesson-where">
            Step {index + 1} of {LESSON.length}
          </p>
          {/* On a phone the card keeps to a third of the screen; a person reading a long step may want more. */}
          {!folded && (
            <button type="button" className="link lesson-tall" aria-pressed={tall} onClick={() => setTall(!tall)}>
              {tall ? 'shorter' : 'taller'}
            </button>
          )}
          <button type="button" className="link" aria-expanded={!folded} aria-controls="lesson-body" onClick={() => setFolded(!folded)}>
            {folded ? 'unfold the card' : 'fold the card'}
          </button>
        </div>
        {/* On a phone the part is left to the step list: the sheet's top keeps to one line. */}
        <p className="muted part-line">
          part {part.n}, {part.title}
        </p>
        <h2 tabIndex={-1} ref={heading} data-testid="lesson-title">
          {s.title}
        </h2>
        {/* The question again once its text has scrolled away: the reveal below answers it. */}
        {question && textAway && !folded && (
          <p className="lesson-recall" data-testid="lesson-recall">
            {unbroken(question)}
          </p>
        )}
      </div>
      <div id="lesson-body" hidden={folded}>
        {/* The case step draws the maze the turns tell: a path and a wall, not coordinates to work out. First, so a
            phone's sheet shows it without scrolling. */}
        {s.id === 'case' && w.maze && <MazeDrawing maze={w.maze} />}
        <p data-testid="lesson-text">{unbroken(text)}</p>
      </div>
      <p className="lesson-action" data-testid="lesson-action">
        <strong>{done && !last && !s.reading ? 'Done' : 'Your turn'}:</strong> {s.action}{' '}
        <button type="button" onClick={() => goWhenShown(s.target, (ok) => setLost(ok ? null : index))} data-testid="lesson-go">
          Take me there
        </button>
      </p>
      {lost === index && (
        <p className="warn" role="status">
          That is not on screen yet: the model may still be loading, or the panel is hidden.
        </p>
      )}
      {s.act && (
        <p>
          <button type="button" className="primary" data-testid="lesson-act" onClick={() => void LESSON_ACTIONS[s.act!.run]()}>
            {s.act.label}
          </button>
        </p>
      )}
      {s.guess && <Guess step={s} />}
      {/* The step that starts the look inside draws the model's shape and its words, after the question, the action
          and the slider: read first, the list of words hid what to do. */}
      {s.id === 'attention' && !folded && <AttentionWords w={w} />}
      {/* Heads and layers drawn where they are first met (the step's text points at it). */}
      {s.id === 'heads' && !folded && <ModelShape w={w} />}
      {s.quiz && <Quiz questions={s.quiz} />}
      <div aria-live="polite">
        {/* Its point, then the picture, then a sentence: on a phone the reveal's top is what shows. */}
        {reveal.said && !folded && (
          <RevealBox reveal={reveal} count={board && COUNTED.has(s.id) ? board : null} step={s.id} written={written} boxRef={revealRef} />
        )}
        {/* Folded, the card keeps the reveal's headline: on a phone the picture behind it shows, and so does its point. */}
        {reveal.said && folded && reveal.takeaway && (
          <p className="lesson-takeaway" data-testid="lesson-folded-takeaway">
            <strong>{unbroken(reveal.takeaway)}</strong>
          </p>
        )}
        {reveal.said && !folded && w.fromCache && !w.fromModel && (
          <p className="muted" data-testid="lesson-cached">
            These are the example's stored figures (marked cached in the figures panel); the model's own replace them once it has loaded.
          </p>
        )}
      </div>
      <p className="muted small" data-testid="lesson-setup" hidden={folded}>
        {setupLine(s.setup)}
      </p>
      <details hidden={folded} data-testid="lesson-source">
        <summary>Where this comes from</summary>
        <p>{s.source}</p>
      </details>
      <Glossary hidden={folded} />
      <div className="row lesson-nav">
        {moreBelow && !folded && (
          // Tab order keeps Next first after the card's text: this is a pointer's shortcut, and the keyboard scrolls anyway.
          <button type="button" className="lesson-more" tabIndex={-1} onClick={() => scrollCardOn(cardRef.current)} data-testid="lesson-more-below">
            more below ↓
          </button>
        )}
        <button type="button" onClick={() => goTo(index - 1)} disabled={index === 0}>
          Back
        </button>
        <button type="button" className="primary" disabled={!done} onClick={() => (last ? finish() : goTo(index + 1))}>
          {last ? 'Finish' : 'Next'}
        </button>
        {!last && (
          <button type="button" onClick={() => goTo(index + 1)}>
            Skip
          </button>
        )}
        <button type="button" onClick={finish}>
          Close the lesson
        </button>
      </div>
      <details hidden={folded}>
        <summary>All steps</summary>
        <ol className="lesson-steps">
          {LESSON.map((x, i) => (
            <li key={x.id}>
              {/* Each part named where it starts. */}
              {(i === 0 || partOf(i).n !== partOf(i - 1).n) && (
                <strong className="lesson-part">
                  Part {partOf(i).n}, {partOf(i).title}
                </strong>
              )}
              <button type="button" className="link" aria-current={i === index ? 'step' : undefined} onClick={() => goTo(i)}>
                {x.title}
              </button>
            </li>
          ))}
        </ol>
      </details>
    </aside>
  );
}

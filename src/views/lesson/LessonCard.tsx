import { useEffect, useRef } from 'react';
import { splitTurns } from '../../conversation/turns';
import { focusOf } from '../../state/hover-lock';
import { useHover } from '../../state/hover-store';
import { activePolicies, useInspector } from '../../state/inspector-store';
import { useLesson } from '../../state/lesson-store';
import { LESSON, type LessonRegion, type LessonStep, type LessonWorld, type QuizQuestion } from './steps';

/** No answers written yet (one object, so the selector's result is stable). */
const NONE: Record<string, string> = {};

/** The snapshot of the page the steps read (steps.ts). */
function useLessonWorld(): LessonWorld {
  const results = useInspector((s) => s.results);
  // The model's figures of the conversation on screen (not of the one before an example was picked).
  const fromModel = useInspector((s) => s.resultsFrom === 'model' && s.resultsText === s.text);
  const fromCache = useInspector((s) => s.resultsFrom === 'cache' && s.resultsText === s.text);
  const policies = useInspector((s) => s.policies);
  const compare = useInspector((s) => s.compare);
  const compareModels = useInspector((s) => s.compareModels);
  const turn = useInspector((s) => s.turn);
  const parsed = useInspector((s) => s.parsed);
  const radius = useInspector((s) => s.radius);
  const exampleName = useInspector((s) => s.exampleName);
  // The lesson reads the first model's answers.
  const generated = useInspector((s) => s.generated[0] ?? NONE);
  const pointed = useHover((s) => focusOf(s.hover));
  const guesses = useLesson((s) => s.guesses);
  const answers = useLesson((s) => s.answers);
  const turns = parsed.conversation ? splitTurns(parsed.conversation.messages).all.length : 0;
  return {
    results,
    fromModel,
    fromCache,
    shown: activePolicies({ policies, compare, compareModels }),
    compareModels,
    turn,
    turns,
    radius,
    pointed,
    exampleName,
    generated,
    guesses,
    answers,
  };
}

/**
 * Outlines the region a step points at (its data-lesson attribute) and brings it into view once per
 * step. `present` re-runs it when new figures may have made the region appear; it does not scroll the
 * page back while the learner acts elsewhere.
 */
function useHighlight(step: number, region: LessonRegion, present: unknown) {
  const scrolledFor = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `present` is what changes when the region may have appeared
  useEffect(() => {
    const el = document.querySelector(`[data-lesson="${region}"]`);
    if (!el || region === 'card') return;
    el.classList.add('lesson-focus');
    if (scrolledFor.current !== step) {
      scrolledFor.current = step;
      const calm = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
      el.scrollIntoView({ block: 'start', behavior: calm ? 'auto' : 'smooth' });
    }
    return () => el.classList.remove('lesson-focus');
  }, [step, region, present]);
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
  const doneNow = s.done(w);
  // The quiz counts as it stands (an answer changed to a wrong one undoes it); the other steps latch.
  const done = s.quiz ? doneNow : doneNow || reached;
  useEffect(() => {
    if (doneNow) reach(index);
  }, [doneNow, index, reach]);
  const last = index === LESSON.length - 1;
  const heading = useRef<HTMLHeadingElement>(null);
  // Each step takes the focus, so a keyboard (and a screen reader) starts reading it at its title.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the step does
  useEffect(() => heading.current?.focus(), [index]);
  useHighlight(index, s.region, w.results);
  return (
    <aside className={folded ? 'lesson folded' : 'lesson'} aria-label="Lesson" data-testid="lesson-card" data-lesson="card">
      <div className="lesson-head">
        <p className="muted">
          Lesson · step {index + 1} of {LESSON.length}
        </p>
        <button type="button" className="link" aria-expanded={!folded} aria-controls="lesson-body" onClick={() => setFolded(!folded)}>
          {folded ? 'unfold the card' : 'fold the card'}
        </button>
      </div>
      <h2 tabIndex={-1} ref={heading} data-testid="lesson-title">
        {s.title}
      </h2>
      <div aria-live="polite">
        <div id="lesson-body" hidden={folded}>
          <p data-testid="lesson-text">{s.text(w)}</p>
        </div>
        <p className="lesson-action" data-testid="lesson-action">
          <strong>{done && !last ? 'Done' : 'Your turn'}:</strong> {s.action}
        </p>
        {s.guess && <Guess step={s} />}
        {s.quiz && <Quiz questions={s.quiz} />}
        {done && s.reveal && !folded && (
          <p className="lesson-reveal" data-testid="lesson-reveal">
            {s.reveal(w)}
          </p>
        )}
        {done && s.reveal && !folded && w.fromCache && !w.fromModel && (
          <p className="muted" data-testid="lesson-cached">
            These are the example's stored figures (marked cached in the figures panel); the model's own replace them once it has loaded.
          </p>
        )}
      </div>
      <div className="row">
        <button type="button" onClick={() => goTo(index - 1)} disabled={index === 0}>
          Back
        </button>
        <button type="button" className="primary" disabled={!done} onClick={() => (last ? close() : goTo(index + 1))}>
          {last ? 'Finish' : 'Next'}
        </button>
        {!last && (
          <button type="button" onClick={() => goTo(index + 1)}>
            Skip
          </button>
        )}
        <button type="button" onClick={close}>
          Close the lesson
        </button>
      </div>
      <details hidden={folded}>
        <summary>All steps</summary>
        <ol className="lesson-steps">
          {LESSON.map((x, i) => (
            <li key={x.id}>
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

function Guess({ step }: { step: LessonStep }) {
  const { key, label } = step.guess!;
  const value = useLesson((s) => s.guesses[key]);
  const guess = useLesson((s) => s.guess);
  return (
    <label className="lesson-guess">
      your guess, {label}: <strong>{value === undefined ? '–' : `${Math.round(value * 100)} %`}</strong>
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={Math.round((value ?? 0) * 100)}
        aria-label={`your guess, ${label}, in percent`}
        onChange={(e) => guess(key, Number(e.target.value) / 100)}
      />
    </label>
  );
}

function Quiz({ questions }: { questions: QuizQuestion[] }) {
  const answers = useLesson((s) => s.answers);
  const answer = useLesson((s) => s.answer);
  return (
    <div className="lesson-quiz">
      {questions.map((q, i) => (
        <fieldset key={q.question}>
          <legend>
            {i + 1}. {q.question}
          </legend>
          {q.options.map((o, k) => (
            <label key={o}>
              <input type="radio" name={`lesson-q${i}`} checked={answers[i] === k} onChange={() => answer(i, k)} /> {o}
            </label>
          ))}
          {answers[i] !== undefined && (
            <p className={answers[i] === q.correct ? 'ok' : 'warn'} data-testid={`lesson-feedback-${i}`}>
              {answers[i] === q.correct ? 'Right. ' : 'Not quite. '}
              {q.why}
            </p>
          )}
        </fieldset>
      ))}
    </div>
  );
}

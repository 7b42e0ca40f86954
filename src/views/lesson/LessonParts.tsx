import { useEffect, useRef, useState } from 'react';
import { useLesson } from '../../state/lesson-store';
import { GLOSSARY } from './glossary';
import { quizScore } from './quiz';
import { LESSON, type LessonStep, type QuizQuestion } from './steps';

/**
 * A guess in whole per cent locked in with a button, or one of a few choices, each a button that locks it in: until
 * then the figures it guesses stay hidden.
 */
export function Guess({ step }: { step: LessonStep }) {
  const { key, label, choices } = step.guess!;
  const locked = useLesson((s) => s.guesses[key]);
  const guess = useLesson((s) => s.guess);
  const [draft, setDraft] = useState(30);
  const lockedLine = useRef<HTMLParagraphElement>(null);
  // The lock button goes once pressed: its focus moves to the line that replaces it, not to the page. The
  // figures it uncovers grow the page above the step's region: that region (or what the step shows) is brought
  // back into view.
  useEffect(() => {
    if (locked === undefined) return;
    if (document.activeElement === document.body) lockedLine.current?.focus();
    requestAnimationFrame(() => {
      const shown = step.show ? document.querySelector(step.show) : null;
      if (shown) shown.scrollIntoView({ block: 'center' });
      else document.querySelector(`[data-lesson="${step.region}"]`)?.scrollIntoView({ block: 'start' });
    });
  }, [locked, step.region, step.show]);
  if (locked !== undefined)
    return (
      <p className="lesson-guess" data-testid="lesson-guess-locked" tabIndex={-1} ref={lockedLine}>
        Your guess, {label}: <strong>{choices ? choices[locked] : `${Math.round(locked * 100)}\u00a0%`}</strong> (locked in)
      </p>
    );
  if (choices)
    return (
      <fieldset className="lesson-guess lesson-choices">
        <legend>your guess, {label}:</legend>
        {choices.map((c, i) => (
          <button type="button" key={c} onClick={() => guess(key, i)} data-testid={`lesson-choice-${i}`}>
            {c}
          </button>
        ))}
      </fieldset>
    );
  return (
    <div className="lesson-guess">
      <label>
        your guess, {label}: <strong>{draft}&nbsp;%</strong>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={draft}
          data-testid="lesson-guess"
          aria-label={`your guess, ${label}, in per cent`}
          onChange={(e) => setDraft(Number(e.target.value))}
        />
      </label>
      <button type="button" onClick={() => guess(key, draft / 100)} data-testid="lesson-lock">
        Lock in my guess and show the figures
      </button>
    </div>
  );
}

/** The questions, each answered at once with why; the score, and the steps to go back to for a wrong answer. */
export function Quiz({ questions }: { questions: QuizQuestion[] }) {
  const answers = useLesson((s) => s.answers);
  const answer = useLesson((s) => s.answer);
  const goTo = useLesson((s) => s.goTo);
  const score = quizScore(answers, questions);
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
      {score.answered > 0 && (
        <p data-testid="lesson-score" aria-live="polite">
          <strong>
            {score.right} of {questions.length} right
          </strong>
          {score.answered < questions.length ? ` (${questions.length - score.answered} still to answer)` : ''}.
          {score.revisit.map((id) => {
            const n = LESSON.findIndex((s) => s.id === id);
            return (
              <span key={id}>
                {' '}
                <button type="button" className="link" onClick={() => goTo(n)}>
                  Go back to step {n + 1}, {LESSON[n]!.title}
                </button>
              </span>
            );
          })}
        </p>
      )}
    </div>
  );
}

/** The lesson's words, folded at the card's foot: one place to look a word up when a later step uses it again. */
export function Glossary({ hidden }: { hidden: boolean }) {
  return (
    <details hidden={hidden} data-testid="lesson-glossary">
      <summary>Words used here</summary>
      <dl className="lesson-glossary">
        {GLOSSARY.map((g) => (
          <div key={g.term}>
            <dt>{g.term}</dt>
            <dd>{g.means}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

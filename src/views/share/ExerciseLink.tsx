import { useState } from 'react';
import { useLesson } from '../../state/lesson-store';
import { HIDEABLE, HIDEABLE_NAMES, lessonFragment, type Hideable } from '../../state/regions';
import { LESSON } from '../lesson/steps';

/**
 * For teachers: a link to this conversation and view that opens at a lesson step with chosen parts of
 * the inspector hidden (`#lesson=N&hide=…`). The choices build the link; this page stays as it is.
 */
export function ExerciseLink() {
  const current = useLesson((s) => s.step);
  const [hide, setHide] = useState<Hideable[]>([]);
  const [step, setStep] = useState<number | null>(current);
  const [copied, setCopied] = useState<string | null>(null);
  const link = () => {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    params.delete('lesson');
    params.delete('hide');
    const fragment = [params.toString(), lessonFragment(step, hide)].filter(Boolean).join('&');
    return `${location.origin}${location.pathname}${location.search}${fragment ? `#${fragment}` : ''}`;
  };
  return (
    <details className="exercise">
      <summary>Make an exercise link</summary>
      <p className="muted">The link opens this conversation and view; choose what it hides and where it starts.</p>
      <fieldset>
        <legend>hide</legend>
        {HIDEABLE.map((h) => (
          <label key={h}>
            <input type="checkbox" checked={hide.includes(h)} onChange={(e) => setHide(e.target.checked ? [...hide, h] : hide.filter((x) => x !== h))} />{' '}
            {HIDEABLE_NAMES[h]}
          </label>
        ))}
      </fieldset>
      <label>
        start at{' '}
        <select aria-label="exercise starts at" value={step ?? ''} onChange={(e) => setStep(e.target.value === '' ? null : Number(e.target.value))}>
          <option value="">the inspector (no lesson)</option>
          {LESSON.map((s, i) => (
            <option key={s.id} value={i}>
              lesson step {i + 1}: {s.title}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        onClick={() => {
          const l = link();
          setCopied(l);
          void navigator.clipboard?.writeText(l).catch(() => undefined);
        }}
      >
        Copy this exercise
      </button>
      {copied && (
        <input readOnly aria-label="exercise link" value={copied} data-testid="exercise-link" onFocus={(e) => e.target.select()} style={{ width: '100%' }} />
      )}
    </details>
  );
}

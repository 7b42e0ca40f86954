import { useState } from 'react';
import { type AblationKind, compareAnswers, headLabel, type HeadRef } from '../../analysis/ablation';
import { parsePolicy, policyLabel } from '../../context/policy';
import { useInspector } from '../../state/inspector-store';
import { Explain } from '../explain/Explain';
import { useQuiet } from '../../state/lesson-store';

/**
 * Heads switched off: which, the top k by diagonal ratio in one click, and the answer written with every head
 * on beside the answer written with them off, compared in plain words.
 */
export function OffHeads({ top }: { top: ((k: number) => HeadRef[]) | null }) {
  const off = useInspector((s) => s.off);
  const offKind = useInspector((s) => s.offKind);
  const setOff = useInspector((s) => s.setOff);
  const answers = useInspector((s) => s.offAnswers);
  const generating = useInspector((s) => s.generating);
  const [k, setK] = useState(3);
  // The lesson switches heads off with its own button (the last layer's, by its rule): the researcher's choices wait.
  const quiet = useQuiet();
  return (
    <div className="off-heads" data-testid="off-heads">
      <h3>
        Switching heads off <Explain id="off" />
      </h3>
      <p>
        {off.length ? (
          <>
            Switched off: <strong data-testid="off-list">{off.map(headLabel).join(', ')}</strong>. Every figure, heatmap, grid and chart on this page is
            computed with them off (a head switched off still shows where it looks, but what it read no longer reaches the answer).{' '}
            <button type="button" onClick={() => setOff([])}>
              Switch every head back on
            </button>
          </>
        ) : (
          'Every head is on.'
        )}
      </p>
      {!quiet && (
        <>
          <p className="row">
            <label>
              a head switched off{' '}
              <select
                aria-label="how a head is switched off"
                value={offKind}
                onChange={(e) => useInspector.getState().setOffKind(e.target.value as AblationKind)}
              >
                <option value="zero">passes nothing on (zero)</option>
                <option value="mean">passes on its average (mean)</option>
              </select>
            </label>
          </p>
          <p className="row">
            <label>
              Switch off the top{' '}
              <input
                type="number"
                aria-label="how many heads"
                min={1}
                max={64}
                value={k}
                onChange={(e) => setK(Math.max(1, Math.min(64, Number(e.target.value) || 1)))}
              />{' '}
              heads by diagonal ratio
            </label>{' '}
            <button type="button" disabled={!top} onClick={() => top && setOff(top(k))} data-testid="off-top">
              Switch them off
            </button>
          </p>
        </>
      )}
      {off.length > 0 && (
        <p>
          <button
            type="button"
            aria-disabled={generating !== null}
            onClick={() => generating === null && void useInspector.getState().answerWithHeadsOff()}
            data-testid="off-write"
          >
            Write the answer with every head on, then with these off
          </button>
          {generating && <span className="muted"> writing… {generating.text.length} characters</span>}
        </p>
      )}
      {answers && (
        <div data-testid="off-answers">
          <p>
            {policyLabel(parsePolicy(answers.policy))}, turn {answers.turn}, heads {answers.off.map(headLabel).join(', ')} off:{' '}
            <strong data-testid="off-verdict">{compareAnswers(answers.withAll, answers.withOff)}</strong>
            {' (for the maze agent, the last line is its move)'}
          </p>
          <div className="columns">
            <figure>
              <figcaption>every head on</figcaption>
              <pre className="answer">{answers.withAll}</pre>
            </figure>
            <figure>
              <figcaption>with {answers.off.map(headLabel).join(', ')} off</figcaption>
              <pre className="answer">{answers.withOff}</pre>
            </figure>
            {answers.control && (
              <figure data-testid="off-control">
                <figcaption>control: with {answers.control.off.map(headLabel).join(', ')} off instead</figcaption>
                <pre className="answer">{answers.control.withOff}</pre>
              </figure>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

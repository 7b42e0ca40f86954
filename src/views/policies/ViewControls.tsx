import { splitTurns } from '../../conversation/turns';
import { activePolicies, scoredTurn, unanswered, useInspector } from '../../state/inspector-store';
import { FULL_MATRIX_MAX_TOKENS } from '../../state/limits';
import { useModelStore } from '../../state/model-store';
import { useQuiet } from '../../state/lesson-store';
import { Explain } from '../explain/Explain';

/** Turn, layer, head, radius and matrix extent, plus generation: what the figures are computed over. */
export function ViewControls() {
  const s = useInspector();
  const quiet = useQuiet();
  const spec = useModelStore((m) => m.info?.spec);
  const inspectable = useModelStore((m) => m.info?.inspectLayers) ?? [];
  const turns = s.parsed.conversation ? splitTurns(s.parsed.conversation.messages).all.length : 0;
  const turn = scoredTurn(s);
  const heads = s.results[0]?.attention?.perHead?.heads ?? 0;
  const layers = spec?.numLayers ?? 0;
  const ready = spec !== undefined;
  const gen = Object.keys(s.generated).length > 0;
  return (
    <div className="row controls">
      <Explain id="view" />
      <label>
        turn{' '}
        <select aria-label="scored turn" value={s.turn ?? ''} onChange={(e) => s.setTurn(e.target.value === '' ? null : Number(e.target.value))}>
          <option value="">last ({turns})</option>
          {Array.from({ length: turns }, (_, i) => (
            <option key={i} value={i + 1}>
              {i + 1}
            </option>
          ))}
        </select>
      </label>
      <Explain id="turn" />
      <label>
        layer{' '}
        <select
          aria-label="layer"
          value={s.layer ?? ''}
          disabled={!ready || inspectable.length < 2}
          onChange={(e) => s.setLayer(e.target.value === '' ? null : Number(e.target.value))}
        >
          <option value="">final ({Math.max(0, layers - 1)})</option>
          {inspectable.map((i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      <Explain id="layer" />
      {(!ready || inspectable.length < 2) && (
        <span className="muted small" data-testid="layer-off">
          {!ready
            ? '(once the model has loaded)'
            : '(only the final layer: for a model this large, the graph outputs that one; "every layer and head" below reads them all)'}
        </span>
      )}
      <label>
        head{' '}
        <select
          aria-label="head"
          value={s.head}
          disabled={heads === 0}
          onChange={(e) => s.setHead(e.target.value === 'mean' ? 'mean' : Number(e.target.value))}
        >
          <option value="mean">mean of heads</option>
          {Array.from({ length: heads }, (_, i) => (
            <option key={i} value={i}>
              {i}
            </option>
          ))}
        </select>
      </label>
      <Explain id="head" />
      {/* The band's radius and the full matrix are the researcher's: the lesson reads r = 5 on the answer's rows. */}
      {!quiet && (
        <>
          <label>
            diagonal radius r{' '}
            <input
              aria-label="diagonal radius"
              type="number"
              min={0}
              value={s.radius}
              style={{ width: '4em' }}
              onChange={(e) => s.setRadius(Math.max(0, Math.floor(Number(e.target.value) || 0)))}
            />
          </label>
          <Explain id="radius" />
          <label title={`a row for every token, not only the answer's, up to ${FULL_MATRIX_MAX_TOKENS} tokens`}>
            <input type="checkbox" checked={s.fullMatrix} onChange={(e) => s.setFullMatrix(e.target.checked)} /> full matrix
          </label>
          <Explain id="fullMatrix" />
        </>
      )}
      {/* aria-disabled, not disabled, while it writes: a disabled button would drop the keyboard's focus to the page. */}
      <button
        type="button"
        data-testid="generate"
        disabled={!ready || turn === null}
        aria-disabled={s.generating !== null}
        onClick={() => s.generating === null && void s.generate()}
      >
        {activePolicies(s).length > 1 ? 'Generate one answer per policy' : s.compareModels ? "Generate each model's answer" : 'Generate the answer'} (turn{' '}
        {turn ?? '–'})
      </button>
      <Explain id="generate" />
      {gen && (
        <button
          type="button"
          onClick={() => {
            s.clearGenerated();
            // The button goes with the answer: the focus moves to Generate, beside it.
            requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="generate"]')?.focus());
          }}
        >
          use the file's answer
        </button>
      )}
      {unanswered(s) > 0 && (
        <button
          type="button"
          disabled={!ready || s.generating !== null}
          onClick={() => void s.answerLast()}
          title="the conversation ends with a user message: the model writes its answer, which is added to the conversation and scored"
        >
          Answer the last message
        </button>
      )}
    </div>
  );
}

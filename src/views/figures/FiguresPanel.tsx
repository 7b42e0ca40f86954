import { DEFAULTS, type PolicyResult } from '../../analysis/analyze';
import { labelOfName } from '../../analysis/ablation';
import { CATEGORIES, type Category } from '../../metrics/categories';
import { answerOf, sameTokens } from '../../export/figures';
import { DEMO_MODEL_LABEL } from '../../model/demo';
import { useInspector } from '../../state/inspector-store';
import { slotName } from '../../state/model-client';
import { modelStore, useModelStore } from '../../state/model-store';
import { CATEGORY_COLORS, CATEGORY_NAMES } from '../../palette';
import { resultId } from '../result-id';
import { CostLine } from './CostLine';
import { DemoOnOtherText } from './DemoNote';
import { useGuessMask } from '../lesson/ahead';
import { useQuiet } from '../../state/lesson-store';

import { fmtShare as f4, fmtPercent, fmtSignedPercent, fmtSigned as signed } from './format';
import { Explain } from '../explain/Explain';
import type { ExplainId } from '../explain/explanations';
import { PER_ANSWER_SCALE, perAnswerBar } from './per-answer';

/** What a figure the lesson asks to guess later reads until then. */
const GUESS_FIRST = 'guess first';

interface Figure {
  key: string;
  name: string;
  value: (r: PolicyResult) => number;
  fmt: (v: number) => string;
}

const FIGURES: Figure[] = [
  ...CATEGORIES.map((c): Figure => ({ key: c, name: `${CATEGORY_NAMES[c]} share`, value: (r) => r.ratios[c], fmt: f4 })),
  { key: 'diagonal', name: 'diagonal ratio', value: (r) => r.diagonal, fmt: f4 },
  { key: 'diagonalCopy', name: 'copy-aligned diagonal', value: (r) => r.diagonalCopyAligned, fmt: f4 },
  { key: 'tokens', name: 'tokens scored', value: (r) => r.tokens.length, fmt: String },
  { key: 'context', name: 'tokens in context', value: (r) => r.cost[r.cost.length - 1]!.contextTokens, fmt: String },
  { key: 'prefilled', name: 'tokens prefilled', value: (r) => r.cost[r.cost.length - 1]!.prefilled, fmt: String },
];

/** The five category shares and the diagonal ratio; in compare mode a table with Δ against the first policy. */
export function FiguresPanel() {
  const results = useInspector((s) => s.results);
  const head = useInspector((s) => s.head);
  const from = useInspector((s) => s.resultsFrom);
  const source = useModelStore((s) => s.info?.source ?? null);
  const backend = useModelStore((s) => s.info?.report.backend ?? null);
  const precision = useModelStore((s) => s.info?.precision ?? null);
  const example = useInspector((s) => s.exampleName !== null);
  const quiet = useQuiet();
  if (!results.length) return null;
  const r0 = results[0]!;
  const pick = (r: PolicyResult) =>
    head === 'mean' || !r.perHead[head] ? { ratios: r.ratios, diagonal: r.diagonal, diagonalCopyAligned: r.diagonalCopyAligned } : r.perHead[head]!;
  return (
    <section className="panel" aria-labelledby="figures-title">
      <h2 id="figures-title">
        Where the answer's attention goes{' '}
        <span className="muted">
          {/* In the lesson the band's radius is said in words on the cards ("within 5 tokens"): no bare "r". */}
          {/* In the lesson, the layer in words: "layer 1" of a 2-layer model read as the first to a newcomer. */}
          (turn {r0.turn}, {quiet ? 'the last layer' : `layer ${r0.layer}`},{' '}
          {head === 'mean' ? (quiet ? 'its heads averaged' : 'mean of heads') : `head ${head}`}
          {quiet ? '' : `, r = ${r0.radius}`})
        </span>
        <Explain id="figures" />
      </h2>
      <p className="muted" data-testid="figures-from">
        {provenance(results, from, source, backend, precision)}
      </p>
      {source === DEMO_MODEL_LABEL && from === 'model' && !example && <DemoOnOtherText />}
      {results.length === 1 ? (
        <Shares r={r0} view={pick(r0)} head={head === 'mean' || !r0.perHead[head] ? null : head} />
      ) : (
        <div className="scroll-x">
          <CompareTable results={results} />
        </div>
      )}
      <ModelsNote results={results} />
      <TemplateNotes results={results} />
    </section>
  );
}

/** What the figures were computed from: the model and backend, and whose answer each policy scored. */
function provenance(results: PolicyResult[], from: 'cache' | 'model' | null, source: string | null, backend: string | null, precision: string | null): string {
  const weights = precision && precision !== 'none' ? `, weights ${precision}` : '';
  const model =
    from === 'cache'
      ? `${DEMO_MODEL_LABEL}, earlier (cached)`
      : `${source ?? 'no model'}${backend ? ` on ${backend === 'webgpu' ? 'WebGPU' : backend}` : ''}${weights}`;
  const answers = results.map((r) => `${r.label}: ${answerOf(r) === 'model' ? 'the answer the model wrote here' : "the conversation's answer"}`);
  const r0 = results[0];
  const off = r0?.headsOff
    ? `, heads ${r0.headsOff.map(labelOfName).join(', ')} switched off${r0.headsOffBy === 'mean' ? ' (each writes its mean output)' : ''}`
    : '';
  return `Computed from ${model}${off}; scored answer: ${answers.join('; ')}.`;
}

/** Comparing models: which is which, and how they are compared when their tokenizers differ. */
function ModelsNote({ results }: { results: PolicyResult[] }) {
  const others = results.filter((r) => r.slot);
  if (!others.length) return null;
  const a = results[0]!;
  return (
    <div className="muted" data-testid="models-note">
      {others.map((b) => {
        // Read when the results change, which they do whenever a compared model does.
        const info = modelStore(b.slot!).getState().info;
        const source = info ? `${info.source}${info.precision !== 'none' ? ` (weights ${info.precision})` : ''}` : 'the model loaded there';
        const name = slotName(b.slot!);
        return (
          <p key={b.slot}>
            Model {name} is {source}, scoring the same conversation, turn and policy at its own final layer (layer {b.layer}); its Δ column is {name} − A.{' '}
            <ComparedHow a={a} b={b} name={name} />
          </p>
        );
      })}
    </div>
  );
}

/** What the two scored answers are, and whether the two models split the text alike. */
function ComparedHow({ a, b, name }: { a: PolicyResult; b: PolicyResult; name: string }) {
  const wroteA = answerOf(a) === 'model';
  if (wroteA !== (answerOf(b) === 'model')) {
    // Two different texts: their token counts differ whatever the tokenizers, so that is what to say.
    return (
      <strong data-testid="models-answers-differ">
        Model {wroteA ? 'A' : name} scores the answer it wrote, model {wroteA ? name : 'A'} the conversation&apos;s: the Δ compares two texts, not two models.
        Click &quot;use the file&apos;s answer&quot; or &quot;Generate each model&apos;s answer&quot; to score like with like.
      </strong>
    );
  }
  const split = sameTokens(a, b)
    ? 'Both split the text into the same tokens.'
    : `The two split the text into different tokens (${a.tokens.length} and ${b.tokens.length}): they are compared by message (the category shares and the diagonal ratio are per answer), and each heatmap shows its own model's tokens.`;
  return <>{wroteA ? `Each model scores the answer it wrote. ${split}` : split}</>;
}

/** What the model's own chat template did to the conversation (merged, moved, dropped, added a system prompt), and positions past the model's training. */
function TemplateNotes({ results }: { results: PolicyResult[] }) {
  const notes = [...new Set(results.flatMap((r) => r.notes ?? []))];
  if (!notes.length) return null;
  return (
    <ul className="notes" data-testid="analysis-notes" aria-label="notes on this analysis">
      {notes.map((n) => (
        <li key={n}>{n[0]!.toUpperCase() + n.slice(1)}.</li>
      ))}
    </ul>
  );
}

/** One policy's figures: the shares and diagonals of `view` (the head mean, or one head: `head`), the cost, the copy measures. */
function Shares({
  r,
  view,
  head,
}: {
  r: PolicyResult;
  view: { ratios: Record<Category, number>; diagonal: number; diagonalCopyAligned: number };
  head: number | null;
}) {
  // A figure a later lesson step asks to guess reads "guess first" until then (the copy-aligned one goes with the
  // diagonal): a bare "?" read as a figure that failed to load.
  const { masked, any } = useGuessMask();
  // The copy-aligned diagonal is the researcher's check on shifted copies: the lesson leaves it out.
  const quiet = useQuiet();
  // In the lesson the panel speaks in per cent, as its cards do.
  const shown = (key: string, v: number) => (masked(key) ? GUESS_FIRST : quiet ? fmtPercent(v) : f4(v));
  return (
    <div className="figures-grid">
      <div>
        <table className="shares" data-testid="figures">
          <caption className="muted">
            {r.label}: mean over the answer's {r.query.end - r.query.start} tokens of the attention each category receives
          </caption>
          <tbody>
            {CATEGORIES.map((c) => (
              <tr key={c}>
                <th scope="row">
                  <span className="swatch" style={{ background: CATEGORY_COLORS[c] }} /> {CATEGORY_NAMES[c]}
                  <Explain id={c} />
                </th>
                <td className="num" data-testid={`figure-${r.policy}-${c}`} data-value={view.ratios[c]}>
                  {shown(c, view.ratios[c])}
                </td>
                <td className="barcell">
                  {!masked(c) && <span className="bar" style={{ width: `${view.ratios[c] * 100}%`, background: CATEGORY_COLORS[c] }} />}
                </td>
              </tr>
            ))}
            <tr className="diag">
              <th scope="row">
                diagonal ratio{quiet ? '' : ` (r = ${r.radius})`}
                <Explain id="diagonal" />
              </th>
              <td className="num" data-testid={`figure-${r.policy}-diagonal`} data-value={view.diagonal}>
                {shown('diagonal', view.diagonal)}
              </td>
              <td className="barcell">
                {!masked('diagonal') && <span className="bar" style={{ width: `${view.diagonal * 100}%`, background: CATEGORY_COLORS.prior }} />}
              </td>
            </tr>
            <tr className="diag" hidden={quiet}>
              <th scope="row">
                copy-aligned diagonal
                <Explain id="diagonalCopy" />
              </th>
              <td className="num" data-testid={`figure-${r.policy}-diagonalCopy`} data-value={view.diagonalCopyAligned}>
                {shown('diagonalCopy', view.diagonalCopyAligned)}
              </td>
              <td className="barcell">
                {!masked('diagonalCopy') && <span className="bar" style={{ width: `${view.diagonalCopyAligned * 100}%`, background: CATEGORY_COLORS.prior }} />}
              </td>
            </tr>
          </tbody>
        </table>
        {any && (
          <p className="muted" data-testid="figures-ahead">
            "{GUESS_FIRST}": a later step of the lesson asks you to guess this figure before it shows.
          </p>
        )}
        {head !== null && (
          <p className="muted" data-testid="figures-head-mean">
            Head {r.layer}.{head} alone; the mean of layer {r.layer}'s heads has diagonal ratio {shown('diagonal', r.diagonal)} and prior assistant{' '}
            {shown('prior', r.ratios.prior)}.
          </p>
        )}
        {/* What the answer costs to compute is the researcher's: the lesson's policy table gives the tokens read. */}
        {!quiet && <CostLine r={r} />}
      </div>
      <div>
        <h3>
          {quiet ? 'Each prior assistant answer: its diagonal ratio' : 'Each prior assistant answer: its diagonal ratio, and how much of it the answer copies'}
          <Explain id="copy" />
        </h3>
        <p className="muted small">
          bars on one scale in every view: full width = {quiet ? `${PER_ANSWER_SCALE * 100} %` : PER_ANSWER_SCALE}; a longer one is cut there and ends in ▸
        </p>
        {r.diagonalPerAnswer.length === 0 ? (
          <p className="muted">No prior assistant answer is in this context.</p>
        ) : masked('diagonal') ? (
          // One line, not a column of "guess first": a reader took the column for a page that failed to load.
          <p className="muted" data-testid="per-answer-ahead">
            The {r.diagonalPerAnswer.length} answers' ratios show once you have guessed the diagonal ratio in a later step.
          </p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the list scrolls, so it takes the focus for a keyboard to scroll it
          <ol className="per-answer" tabIndex={0} aria-label="diagonal ratio per prior assistant answer">
            {r.diagonalPerAnswer.map((d, i) => {
              const bar = perAnswerBar(d.value);
              return (
                <li key={d.message}>
                  <span className="label">turn {d.turn ?? '–'}</span>
                  <span
                    className={bar.clipped ? 'bar clipped' : 'bar'}
                    style={{
                      width: `${bar.width}%`,
                      background: CATEGORY_COLORS.prior,
                      visibility: masked('diagonal') ? 'hidden' : undefined,
                    }}
                  />
                  <span className="num">{shown('diagonal', d.value)}</span>
                  {/* The copy measures are the researcher's, not the lesson's: a run copied at another position has no diagonal. */}
                  {!quiet && (
                    <span className="muted copy" data-testid={`copy-${d.turn ?? i}`}>
                      copies {r.copy[i]?.longestRun ?? 0} tokens in a row
                      {r.copy[i]?.shift ? ` (${Math.abs(r.copy[i]!.shift)} tokens ${r.copy[i]!.shift > 0 ? 'earlier' : 'later'} in the answer)` : ''} ·{' '}
                      {r.copy[i] ? `${Math.round(r.copy[i]!.ngramOverlap * 100)} %` : '–'} of its {DEFAULTS.ngram}-token runs found there
                    </span>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </div>
  );
}

function CompareTable({ results }: { results: PolicyResult[] }) {
  const base = results[0]!;
  const { masked } = useGuessMask();
  const quiet = useQuiet();
  return (
    <table className="compare" data-testid="figures">
      <thead>
        <tr>
          <th rowSpan={2}>figure</th>
          {results.map((r, k) => (
            <th key={resultId(r)} colSpan={k === 0 ? 1 : 2}>
              {r.label}
            </th>
          ))}
        </tr>
        <tr>
          {results.map((r, k) => [
            <th key={`${resultId(r)}-value`} scope="col" className="muted">
              value
            </th>,
            k > 0 && (
              <th key={`${resultId(r)}-delta`} scope="col" className="muted">
                Δ vs {results[0]!.label}
              </th>
            ),
          ])}
        </tr>
      </thead>
      <tbody>
        {FIGURES.map((fig) => (
          <tr key={fig.key} hidden={quiet && fig.key === 'diagonalCopy'}>
            <th scope="row">
              {fig.name}
              <Explain id={fig.key as ExplainId} />
            </th>
            {results.map((r, k) => {
              const v = fig.value(r);
              if (masked(fig.key)) return [<td key={`${resultId(r)}-v`}>{GUESS_FIRST}</td>, k > 0 && <td key={`${resultId(r)}-d`}>{GUESS_FIRST}</td>];
              const d = v - fig.value(base);
              return [
                <td key={`${resultId(r)}-v`} className="num" data-testid={`figure-${resultId(r)}-${fig.key}`} data-value={v}>
                  {quiet && fig.fmt === f4 ? fmtPercent(v) : fig.fmt(v)}
                </td>,
                k > 0 && (
                  <td key={`${resultId(r)}-d`} className={`num delta ${d > 0 ? 'up' : d < 0 ? 'down' : ''}`}>
                    {fig.fmt === f4 ? (quiet ? fmtSignedPercent(d) : signed(d)) : `${d >= 0 ? '+' : '−'}${Math.abs(d)}`}
                  </td>
                ),
              ];
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import { useDeferredValue } from 'react';
import { parsePolicy, policyLabel } from '../../context/policy';
import { CATEGORIES } from '../../metrics/categories';
import { useInspector } from '../../state/inspector-store';
import { CATEGORY_COLORS, CATEGORY_NAMES, modelColor } from '../../palette';
import { slotName } from '../../state/model-client';
import { LineChart, type Series } from './LineChart';
import { Explain } from '../explain/Explain';
import { useQuiet } from '../../state/lesson-store';

/** The chance line's grey: no category's colour, dark enough to read on white. */
const CHANCE_COLOR = '#666666';

/** A line of "Shares by turn"; `lesson`: one of the lines the lesson reads (the prior assistant share, its chance, the twin's). */
type Line = Series & { lesson?: boolean };

/** Colours for policies in the cost chart (Okabe–Ito, the ones the categories do not use). */
const POLICY_COLORS = ['#0072B2', '#CC79A7', '#E69F00', '#009E73'];

/** Paper 2's Fig. 2 (shares by turn) for the first policy, and paper 1's Fig. 4 (cost by turn) for every shown one. */
export function ChartsPanel() {
  const sweeps = useDeferredValue(useInspector((s) => s.sweeps));
  const sweep = sweeps[0] ?? null;
  const sweeping = useInspector((s) => s.sweeping);
  const results = useDeferredValue(useInspector((s) => s.results));
  // The cost chart is a researcher's: the lesson never speaks of it, so it stays out of the way there.
  const quiet = useQuiet();
  if (!results.length) return null;
  const shares: Line[] = sweep
    ? [
        ...CATEGORIES.map((c) => ({
          name: CATEGORY_NAMES[c],
          color: CATEGORY_COLORS[c],
          lesson: c === 'prior',
          points: sweep.points.map((p) => ({ x: p.turn, y: p.ratios[c] })),
        })),
        { name: 'diagonal ratio', color: CATEGORY_COLORS.prior, dashed: true, points: sweep.points.map((p) => ({ x: p.turn, y: p.diagonal })) },
        // The prior assistant line's yardstick: it rises as answers pile up even at chance (readers could not check
        // "more text, not more leaning" without it).
        {
          name: `${CATEGORY_NAMES.prior}: even share (their part of the tokens)`,
          color: CHANCE_COLOR,
          dashed: true,
          lesson: true,
          points: sweep.points.map((p) => ({ x: p.turn, y: p.chance.prior })),
        },
        // Compare models: each compared model's prior share and diagonal, in its own colour over A's. In the lesson
        // the second model is always the CPL twin, and the card calls it so.
        ...sweeps.flatMap((other, slot) => {
          const who = quiet && slot === 1 ? 'CPL twin' : `model ${slotName(slot)}`;
          return slot > 0 && other && results.some((r) => r.slot === slot)
            ? [
                {
                  name: `${who}: ${CATEGORY_NAMES.prior} share`,
                  color: modelColor(slot),
                  lesson: slot === 1,
                  points: other.points.map((p) => ({ x: p.turn, y: p.ratios.prior })),
                },
                {
                  name: `${who}: diagonal ratio`,
                  color: modelColor(slot),
                  dashed: true,
                  points: other.points.map((p) => ({ x: p.turn, y: p.diagonal })),
                },
              ]
            : [];
        }),
      ]
    : [];
  // The lesson reads three lines (the prior assistant share, its chance, the twin's), from the twin step, the first to
  // show this chart, to the close: the other six drew the eye away (readers counted nine). The inspector draws them all.
  const drawn = quiet ? shares.filter((s) => s.lesson) : shares;
  const cost: Series[] = results.flatMap((r, k) => [
    { name: `${r.label} in context`, color: POLICY_COLORS[k % 4]!, points: r.cost.map((c) => ({ x: c.turn, y: c.contextTokens })) },
    { name: `${r.label} prefilled`, color: POLICY_COLORS[k % 4]!, dashed: true, points: r.cost.map((c) => ({ x: c.turn, y: c.prefilled })) },
  ]);
  return (
    <section className="panel charts" aria-labelledby="charts-title">
      <h2 id="charts-title" className="sr-only">
        Turns and cost
      </h2>
      <div>
        <h3>
          Shares by turn{sweep ? ` · ${policyLabel(parsePolicy(sweep.policy))}` : ''}
          <Explain id="charts" />
        </h3>
        {sweeping && (
          <p className="muted" role="status">
            scoring every turn: {sweeping.done} of {sweeping.total}…
          </p>
        )}
        {/* The lesson's reader sees this chart beside later steps: what its lines are, and the misreading to avoid. */}
        {quiet && sweep && sweep.points.length > 0 && (
          <p className="muted" data-testid="turns-chart-gist">
            Each turn's answer scored as if it were the last, with only the turns before it. The prior assistant line rises as those answers pile up, and so
            does its even share (grey, dashed): more text to read, not by itself more leaning.
          </p>
        )}
        {quiet && (
          <p className="muted" data-testid="turns-chart-few">
            Only the lines the lesson reads are drawn here; outside the lesson the chart draws every kind of token and the diagonal ratio too.
          </p>
        )}
        {sweep && sweep.points.length === 0 && <p className="muted">The sweep over turns needs at least two assistant turns.</p>}
        {sweep && sweep.points.length > 0 && (
          <LineChart
            testId="turns-chart"
            series={drawn}
            xLabel="turn"
            // In the lesson in per cent, as its cards and panels speak.
            yLabel={quiet ? "share of the answer's attention" : "share of the answer's attention (1 = all of it)"}
            yFormat={(v) => (quiet ? `${Math.round(v * 100)} %` : v.toFixed(2))}
          />
        )}
      </div>
      <div hidden={quiet}>
        <h3>Tokens per turn</h3>
        <LineChart testId="cost-chart" series={cost} xLabel="turn" yLabel="tokens" />
        <p className="muted">
          Solid: tokens the model reads before answering; dashed: of those, the tokens it must compute anew (prefill) when what it computed for the previous
          turn (its KV cache) is kept.
        </p>
      </div>
    </section>
  );
}

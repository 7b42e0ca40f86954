import { interpolateCividis, interpolateRdBu } from 'd3-scale-chromatic';
import { useState } from 'react';
import { hasHead, headLabel, lastLayerSets, topHeads, type HeadRef } from '../../analysis/ablation';
import type { LayerFigures } from '../../analysis/heads';
import { CATEGORIES } from '../../metrics/categories';
import { CATEGORY_COLORS, CATEGORY_NAMES } from '../../palette';
import { useInspector } from '../../state/inspector-store';
import { useModelStore } from '../../state/model-store';
import { LineChart, type Series } from '../charts/LineChart';
import { Explain } from '../explain/Explain';
import { fmtShare as f4 } from '../figures/format';
import { HeadGrid, RANK_MARK } from './HeadGrid';
import { cellsOf, difference, largestChange, meanOf, sharedMax, type HeadMetric } from './heads-model';
import { OffHeads } from './OffHeads';
import { useQuiet } from '../../state/lesson-store';
import { percent } from '../lesson/world';

const METRIC_NAMES: Record<HeadMetric, string> = { diagonal: 'diagonal ratio', ...CATEGORY_NAMES };
const SERIES_COLORS = ['#000000', '#0072B2', '#CC79A7', '#E69F00'];
/** The grids' colour scales as CSS gradients, for the legend. */
const CIVIDIS_STOPS = [0, 0.25, 0.5, 0.75, 1].map((t) => interpolateCividis(t)).join(', ');
const RDBU_STOPS = [0, 0.25, 0.5, 0.75, 1].map((t) => interpolateRdBu(t)).join(', ');

/** One grid per result shown (each policy, each compared model), in the order of the figures. */
function useGrids(): { key: string; label: string; layers: LayerFigures[] }[] {
  const results = useInspector((s) => s.results);
  const figures = useInspector((s) => s.headFigures);
  return results.flatMap((r) => {
    const layers = figures[`${r.slot ?? 0}|${r.policy}`];
    return layers ? [{ key: `${r.slot ?? 0}|${r.policy}`, label: r.label, layers }] : [];
  });
}

/**
 * Where inertia lives: every layer's and head's diagonal ratio (or a share) as a grid, the head mean by layer
 * as a profile, a cell's heatmap on a click, and heads switched off to see what changes.
 */
export function HeadsPanel() {
  const shown = useInspector((s) => s.heads);
  // The difference grid and the chart by layer are a researcher's: no lesson step reads them.
  const quiet = useQuiet();
  // The lesson's reader has every figure in per cent, as its card says them; the researcher reads four decimals.
  const fig = quiet ? percent : f4;
  const mean = quiet ? 'Averaged over its heads' : 'Head mean';
  const setShown = useInspector((s) => s.setHeadsShown);
  const off = useInspector((s) => s.off);
  const analyzing = useInspector((s) => s.analyzing);
  const hasResults = useInspector((s) => s.results.length > 0);
  const inspectable = useModelStore((m) => m.info?.inspectLayers) ?? [];
  const [metric, setMetric] = useState<HeadMetric>('diagonal');
  const [clickSwitches, setClickSwitches] = useState(false);
  const [cell, setCell] = useState<HeadRef | null>(null);
  const grids = useGrids();
  if (!hasResults) return null;
  const title = (
    <h2 id="heads-title">
      Layers × heads <Explain id="heads" />
    </h2>
  );
  if (!shown)
    return (
      <section className="panel heads" aria-labelledby="heads-title">
        {title}
        <p className="muted">
          The figures above read the final layer, averaged over its heads. Here every layer and every head gets its own, from one pass: which heads carry the
          diagonal, and what happens when they are switched off.{' '}
          <button type="button" onClick={() => setShown(true)}>
            Show every layer and head
          </button>
        </p>
      </section>
    );
  const cells = grids.map((g) => cellsOf(g.layers, metric));
  const max = sharedMax(cells);
  const diff = cells.length > 1 ? difference(cells[0]!, cells[cells.length - 1]!) : null;
  const choose = (h: HeadRef) => {
    if (clickSwitches) return useInspector.getState().toggleOff(h);
    const s = useInspector.getState();
    if (inspectable.includes(h[0])) s.setLayer(h[0] === inspectable[inspectable.length - 1] ? null : h[0]);
    s.setHead(h[1]);
    document.getElementById('heatmap-title')?.scrollIntoView({ block: 'start' });
    // The focus follows to the heatmap it opened: the grid is redrawn once the new layer is scored, and a
    // focused cell would drop the focus to the page.
    document.querySelector<HTMLElement>('[aria-labelledby="heatmap-title"] canvas[role="img"]')?.focus({ preventScroll: true });
  };
  const first = grids[0];
  const profile: Series[] = grids.flatMap((g, k) => [
    { name: `${g.label}: diagonal ratio`, color: SERIES_COLORS[k % 4]!, dashed: true, points: meanOf(g.layers, 'diagonal').map((y, x) => ({ x, y })) },
    {
      name: `${g.label}: ${CATEGORY_NAMES.prior} share`,
      color: k ? SERIES_COLORS[k % 4]! : CATEGORY_COLORS.prior,
      points: meanOf(g.layers, 'prior').map((y, x) => ({ x, y })),
    },
  ]);
  // A head switched off still forms its attention but writes nothing: rank only the heads still on.
  const top = first ? topHeads(first.layers, 3, off) : [];
  // The ★ stays on the highest head, switched off or not: a mark that moved would read as a new finding.
  const star = first ? topHeads(first.layers, 1)[0] : undefined;
  const lessonRanks = first && quiet && metric === 'diagonal' ? lastLayerSets(first.layers) : undefined; // ringed in the lesson
  const peak = first ? meanOf(first.layers, 'diagonal').reduce((b, v, l, a) => (v > a[b]! ? l : b), 0) : 0;
  return (
    <section className="panel heads" aria-labelledby="heads-title">
      {title}
      <div className="row controls">
        <label>
          colour by{' '}
          <select aria-label="colour the grid by" value={metric} onChange={(e) => setMetric(e.target.value as HeadMetric)}>
            {(['diagonal', ...CATEGORIES] as HeadMetric[]).map((m) => (
              <option key={m} value={m}>
                {METRIC_NAMES[m]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={clickSwitches} onChange={(e) => setClickSwitches(e.target.checked)} /> a click switches a head off (or back on)
        </label>
        <button type="button" className="link" onClick={() => setShown(false)}>
          hide the grid
        </button>
      </div>
      {!grids.length && (
        <p className="muted" role="status">
          {analyzing ? 'reading every layer and head…' : 'every layer and head comes after the figures…'}
        </p>
      )}
      {/* In the lesson the card names the starred head; a second "highest" (a layer's mean) read as a contradiction. */}
      {first && !quiet && (
        <p data-testid="heads-summary">
          {peak === first.layers.length - 1
            ? `${mean}, the diagonal ratio is highest at the final layer, layer ${peak} (${fig(first.layers[peak]!.diagonal)}).`
            : `${mean}, the diagonal ratio is highest at layer ${peak} (${fig(first.layers[peak]!.diagonal)}); at the final layer it is ${fig(first.layers[first.layers.length - 1]!.diagonal)}.`}{' '}
          The heads with the highest{off.length > 0 ? ' of those still on' : ''}:{' '}
          {top.map((h) => `${headLabel(h)} (${fig(first.layers[h[0]]!.perHead[h[1]]!.diagonal)})`).join(', ')}.
          {/* Switched-off heads change every later layer's attention: the grid is this model with them off. */}
          {off.length > 0 && <strong> Computed with heads {off.map(headLabel).join(', ')} switched off.</strong>}
        </p>
      )}
      <div className="heads-body">
        <div className="head-grids-col">
          <div className="head-grids">
            {grids.map((g, k) => (
              <figure key={g.key}>
                <figcaption>{g.label}</figcaption>
                <HeadGrid
                  cells={cells[k]!}
                  max={max}
                  off={g.key.startsWith('0|') ? off : []}
                  label={`${METRIC_NAMES[metric]} of every layer and head, ${g.label}`}
                  onChoose={g.key.startsWith('0|') ? choose : undefined}
                  onFocusCell={setCell}
                  testId={`head-grid-${k}`}
                  top={k === 0 && metric === 'diagonal' ? star : undefined}
                  ranks={k === 0 ? lessonRanks : undefined}
                />
              </figure>
            ))}
            {diff && !quiet && (
              <figure>
                <figcaption>
                  {grids[grids.length - 1]!.label} − {grids[0]!.label} (red: lower, blue: higher)
                </figcaption>
                <HeadGrid
                  cells={diff}
                  max={largestChange(diff)}
                  diverging
                  off={[]}
                  label="difference of the two grids"
                  onFocusCell={setCell}
                  testId="head-grid-diff"
                />
              </figure>
            )}
          </div>
          {/* Below the grids, not above: a readout that changes height above them would move the cell under the
            pointer, and the hover would flicker between two cells. */}
          <p className="muted heads-readout" aria-live="polite" data-testid="heads-readout">
            {cell && first?.layers[cell[0]]?.perHead[cell[1]] ? readout(grids, cell, off) : gridKey(metric, fig(max), lessonRanks !== undefined, clickSwitches)}
          </p>
        </div>
        {first && <HeadsProfile fig={fig} max={max} change={diff && !quiet ? largestChange(diff) : null} profile={quiet ? null : profile} />}
      </div>
      <OffHeads top={first ? (k: number) => topHeads(first.layers, k) : null} />
    </section>
  );
}

/** How to read the grid, while no cell is pointed at: its axes, its colour, its marks and what a click does. */
function gridKey(metric: HeadMetric, max: string, ringed: boolean, clickSwitches: boolean): string {
  const marks = metric === 'diagonal' ? '; ★ marks the highest head, × a head switched off' : '';
  const rings = ringed
    ? `; ${RANK_MARK.first} and a double ring: the last layer's 3 highest, switched off first (the first layer's stay on: without its top heads this model writes no move at all); ${RANK_MARK.control} and a dashed ring: its 3 lowest, the control`
    : '';
  const click = clickSwitches ? 'Click a cell to switch its head off.' : "Click a cell to open that head's heatmap.";
  return `Rows are layers (0 at the top), columns heads; colour: ${METRIC_NAMES[metric]}, 0 to ${max}${marks}${rings}. ${click}`;
}

/**
 * The grids' colour legend (and the difference grid's, where one is drawn) and the chart by layer (head mean);
 * `profile` null: no chart (the lesson reads no layer profile).
 */
function HeadsProfile({ fig, max, change, profile }: { fig: (v: number) => string; max: number; change: number | null; profile: Series[] | null }) {
  return (
    <div className="heads-profile">
      <p className="head-legend" aria-hidden="true">
        <span>0</span>
        <span className="head-legend-bar" style={{ background: `linear-gradient(to right, ${CIVIDIS_STOPS})` }} />
        <span>{fig(max)}</span>
        {change !== null && (
          <>
            <span> · difference −{f4(change)}</span>
            <span className="head-legend-bar" style={{ background: `linear-gradient(to right, ${RDBU_STOPS})` }} />
            <span>+{f4(change)}</span>
          </>
        )}
      </p>
      {profile && (
        <>
          <h3>By layer (head mean)</h3>
          <LineChart testId="heads-profile" series={profile} xLabel="layer" yLabel="value" yFormat={(v) => v.toFixed(2)} />
        </>
      )}
    </div>
  );
}

/** A cell named in words, in every grid shown: its diagonal and its five shares. */
function readout(grids: { label: string; layers: LayerFigures[] }[], [l, h]: HeadRef, off: readonly HeadRef[]): string {
  // A head switched off still attends: its own figures are drawn; only what it passes on is gone.
  const said = grids
    .map((g) => {
      const x = g.layers[l]?.perHead[h];
      if (!x) return '';
      const shares = CATEGORIES.map((c) => `${CATEGORY_NAMES[c]} ${f4(x.ratios[c])}`).join(', ');
      return `${g.label}, layer ${l}, head ${h}: diagonal ratio ${f4(x.diagonal)}; shares: ${shares}`;
    })
    .filter(Boolean)
    .join(' · ');
  return hasHead(off, [l, h]) ? `${said}. Switched off: it passes nothing on, but where it looks is still drawn here.` : said;
}

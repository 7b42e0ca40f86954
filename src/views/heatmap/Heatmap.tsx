import { useQuiet } from '../../state/lesson-store';
import { resultId } from '../result-id';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import type { PolicyResult } from '../../analysis/analyze';
import { parsePolicy, policyGist } from '../../context/policy';
import { SINK_TOKENS } from '../../context/render';
import { heatmapSvg } from '../../export/heatmap-svg';
import { focusOf, type HoverAction, type HoverState, inMatrix } from '../../state/hover-lock';
import { download } from '../share/download';
import { categoryRuns, cellAt, clampViewport, fitViewport, heatmapPixels, openingView, zoomAt, followCell, type Viewport } from './heatmap-model';
import { CATEGORY_NAMES, colorLut, scaleMax } from '../../palette';
import { headOf, type AttentionSlab } from '../../metrics/slab';
import type { Span } from '../../metrics/categories';
import { ordinal } from '../../util/ordinal';
import { BAND, heatmapKey, paintHeatmap, type CellMark, type RowSplit, svgToPng } from './paint';

const LUT = colorLut();

/** The attention shown: the head mean or one head's rows. */
export function shownSlab(r: PolicyResult, head: 'mean' | number): AttentionSlab {
  const a = r.attention!;
  if (head === 'mean' || !a.perHead || head >= a.perHead.heads) return a.mean;
  return headOf(a.perHead, head);
}

const tokenLabel = (r: PolicyResult, i: number, plain = false) => {
  const t = r.tokens[i]!;
  const m = r.messages[t.message]!;
  // In the lesson, its place in its message: in a list of "22"s, which one reads which (the same place: a copy in step).
  const at = i - m.content.start;
  const place = plain && at >= 0 && at < m.content.length ? `, its ${ordinal(at + 1)} token` : '';
  return `${plain ? '' : `#${i} `}${JSON.stringify(t.text)} (${CATEGORY_NAMES[t.category]}${m.turn !== null ? `, turn ${m.turn}` : ''}${place})`;
};

/** One cell in words: in the lesson in per cent, no token index (a newcomer reads neither); the researcher's line otherwise. */
function cellLine(r: PolicyResult, q: number, k: number, v: number, plain: boolean): string {
  return plain
    ? `the token ${tokenLabel(r, q, true)} gives ${(v * 100).toFixed(1)} % of its attention to ${tokenLabel(r, k, true)}`
    : `token ${tokenLabel(r, q)} looks at ${tokenLabel(r, k)}: ${v.toFixed(5)}`;
}

/** The line under the heatmap before a cell is pointed at. */
const POINT_AT = 'Point at a cell to read both tokens and the weight; click to lock it.';

/** What a heatmap draws, and the lesson's marks on it. */
interface HeatmapProps {
  r: PolicyResult;
  head: 'mean' | number;
  hover: HoverState;
  dispatch: (a: HoverAction) => void;
  height?: number;
  sharedMax?: number;
  /** Opens zoomed in for a lesson step: on the last prior assistant answer in square cells, its diagonal at 45° ('last-prior'). */
  opensOn?: 'last-prior' | null;
  /** Draws the copy-aligned band (dashed) where a copy is displaced; the lesson leaves it out. */
  alignedBand?: boolean;
  /** A line across the answer's rows between two named parts (the lesson's list of cells, then thought and move). */
  rowSplit?: RowSplit | null;
  /** A cell pointed at with a named arrow (the lesson's real copy). */
  mark?: CellMark | null;
  /** A column pointed at with a named arrow, no box (the lesson's brightest stripe). */
  stripe?: CellMark | null;
}

/**
 * The attention matrix on a canvas: rows are query tokens (the answer's, or all on request), columns
 * every token; category bands on both axes; the r-band of the diagonal over each prior assistant answer.
 * Wheel or +/− zooms, drag or arrows pan/move, click locks the hovered cell, Escape frees it.
 */
export function Heatmap(props: HeatmapProps) {
  const { r, head, hover, dispatch, height, sharedMax, opensOn = null, alignedBand = true, rowSplit = null, mark = null, stripe = null } = props;
  const attention = r.attention!;
  const quiet = useQuiet();
  const shown = useMemo(() => shownSlab(r, head), [r, head]);
  const { rows: nRows, seqLen: S, rowStart } = shown;
  // Compare mode: one scale for every heatmap (computed by the panel), so brightness compares across them.
  const max = useMemo(() => sharedMax ?? scaleMax(shown, SINK_TOKENS), [shown, sharedMax]);
  const image = useMemo(() => cellImage(shown, max), [shown, max]);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(wrap);
  const areaW = width - BAND - 2;
  const areaH = height ?? (rowStart === 0 && nRows > 64 ? Math.min(640, areaW) : Math.min(480, Math.max(140, nRows * 10)));
  const fit = fitViewport(nRows, S, areaW, areaH);
  const [vpRaw, setVp] = useState<Viewport | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attention (another pass) resets the zoom
  useEffect(() => setVp(null), [attention]);
  const start = openingView(fit, opensOn, r.messages.filter((m) => m.category === 'prior').at(-1)?.span.start);
  const vp = clampViewport(vpRaw ?? start, fit, nRows, S, areaW, areaH);
  // A cell of another matrix (the page's hover outlives a result for a render, until its reset) is no cell of this one.
  const focus = inMatrix(focusOf(hover), nRows, S);
  // Zoomed in, the locked cell stays in view as the arrow keys move it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the locked cell's moves pan; a pan itself must not
  useEffect(() => {
    if (!hover.locked || !vpRaw) return;
    const moved = followCell(vp, hover.locked, areaW, areaH);
    if (moved !== vp) setVp(moved);
  }, [hover.locked]);
  const priors = useMemo(() => r.messages.filter((m) => m.category === 'prior').map((m) => m.content), [r]);
  const colRuns = useMemo(() => categoryRuns(r.tokens.map((t) => t.category)), [r]);
  const rowRuns = useMemo(() => categoryRuns(r.tokens.slice(rowStart, rowStart + nRows).map((t) => t.category)), [r, rowStart, nRows]);

  useEffect(() => {
    const c = canvas.current;
    if (c) paintHeatmap(c, { width, areaW, areaH, vp, image, colRuns, rowRuns, priors, r, rowStart, focus, alignedBand, rowSplit, mark, stripe });
  });

  useWheelZoom(canvas, (f) => setVp((v) => clampViewport(f(clampViewport(v ?? fit, fit, nRows, S, areaW, areaH)), fit, nRows, S, areaW, areaH)));

  const { drag, at, onMove } = usePointer(canvas, vp, nRows, S, (moved) => setVp(moved), dispatch);
  const zoom = (factor: number) => setVp(zoomAt(vp, factor, areaW / 2, areaH / 2));
  // "fit" shows the whole matrix, also when it opened zoomed in on the sink.
  const toFit = () => setVp(start === fit ? null : fit);
  const onKey = (e: KeyboardEvent) => heatmapKey(e, { focus, answerRow: r.query.start - rowStart, nRows, S, dispatch, zoom, fit: toFit });
  const { exportSvg, exportPng } = heatmapExports(r, head, shown, max, priors);

  return (
    <div className="heatmap" ref={wrap}>
      <HeatmapToolbar
        axesSaid={opensOn !== null}
        // The head it draws, when one is open: the figures' header says it, and so must the picture.
        label={`${head === 'mean' ? r.label : `${r.label} · layer ${r.layer}, head ${head} alone`}${quiet ? ` (${policyGist(parsePolicy(r.policy))})` : ''}`}
        rows={nRows}
        keys={S}
        unseen={Math.max(0, S - (rowStart + nRows))}
        max={max}
        shared={sharedMax !== undefined}
        zoom={zoom}
        fit={toFit}
        exportPng={exportPng}
        exportSvg={exportSvg}
      />
      <canvas
        ref={canvas}
        data-testid={`heatmap-${resultId(r)}`}
        data-column-px={vp.sx.toFixed(1)}
        data-row-px={vp.sy.toFixed(1)}
        data-first-column={Math.round(-vp.tx / vp.sx)}
        data-mark-px={markPx(mark, vp)}
        tabIndex={0}
        role="img"
        aria-label={`attention heatmap of ${r.label}: arrow keys move the selected cell, Home and End go to the row's first and last key, + and − zoom, Escape frees the selection`}
        style={{ width: `${width}px`, height: `${areaH + BAND + 2}px`, cursor: 'crosshair', touchAction: 'pan-y' }}
        onPointerDown={(e) => (drag.current = { x: e.clientX, y: e.clientY, moved: false })}
        onPointerUp={(e) => {
          if (drag.current && !drag.current.moved) dispatch({ type: 'click', at: at(e) });
          drag.current = null;
        }}
        onPointerMove={onMove}
        onPointerLeave={() => {
          drag.current = null;
          dispatch({ type: 'move', at: null });
        }}
        onKeyDown={onKey}
      />
      <p className="hover-line" aria-live="polite" data-testid={`heatmap-hover-${resultId(r)}`}>
        {focus ? `${hover.locked ? 'locked · ' : ''}${cellLine(r, rowStart + focus.row, focus.col, shown.data[focus.row * S + focus.col]!, quiet)}` : POINT_AT}
      </p>
    </div>
  );
}

/** Where the named mark's cell is drawn (CSS px from the canvas's corner): a test taps it, as a person would. */
const markPx = (mark: CellMark | null, vp: Viewport): string | undefined =>
  mark ? `${(BAND + vp.tx + (mark.cell.col + 0.5) * vp.sx).toFixed(1)},${(BAND + vp.ty + (mark.cell.row + 0.5) * vp.sy).toFixed(1)}` : undefined;

/** The cells as an image, one pixel each (drawn scaled on the canvas), and the milliseconds it took. */
function cellImage(shown: AttentionSlab, max: number): { off: HTMLCanvasElement; ms: number } {
  const t0 = performance.now();
  const off = document.createElement('canvas');
  off.width = shown.seqLen;
  off.height = shown.rows;
  off.getContext('2d')!.putImageData(new ImageData(heatmapPixels(shown, max, LUT), shown.seqLen, shown.rows), 0, 0);
  return { off, ms: performance.now() - t0 };
}

/** The heatmap's title line: what it shows, its colour scale, zoom and export. */
function HeatmapToolbar(p: {
  /** The lesson's drawing above says the axes: not repeated over each heatmap. */
  axesSaid: boolean;
  label: string;
  rows: number;
  keys: number;
  /** Columns after the last row (the chat template's end marks): no row can look at them. */
  unseen: number;
  max: number;
  shared: boolean;
  zoom: (f: number) => void;
  fit: () => void;
  exportPng: () => void;
  exportSvg: () => void;
}) {
  // The colour scale's details are a researcher's: the lesson says only what brightness means.
  const quiet = useQuiet();
  return (
    <div className="row">
      <strong>{p.label}</strong>
      <span className="muted">
        {/* The lesson's reader meets a heatmap here first: its axes in plain words; the colour scale is a researcher's. */}
        {quiet ? (
          !p.axesSaid &&
          'each row: a token of the answer, looking back · each column: a token it can look at, in the order of the text · brighter = more attention · an upright stripe: one token that row after row looks at'
        ) : (
          <>
            {p.rows} rows (tokens looking) × {p.keys} columns (every token in view; a row sees only those before it
            {p.unseen ? `, so no row sees the last ${p.unseen}` : ''}) · colour: square-root scale (faint weights stay visible), 0 … {p.max.toFixed(3)} (
            {p.shared ? 'shared by every heatmap: the highest of their' : 'the'} 99.5th percentile outside the sink; brighter = more)
          </>
        )}
      </span>
      <button type="button" onClick={() => p.zoom(1.5)} aria-label="zoom in">
        +
      </button>
      <button type="button" onClick={() => p.zoom(1 / 1.5)} aria-label="zoom out">
        −
      </button>
      <button type="button" onClick={p.fit}>
        fit
      </button>
      {/* The exports are a researcher's, out of the lesson's way with the page's other exports. */}
      {!quiet && (
        <>
          <button type="button" onClick={p.exportPng}>
            PNG
          </button>
          <button type="button" onClick={p.exportSvg}>
            SVG
          </button>
        </>
      )}
    </div>
  );
}

/** The element's width, followed as it resizes. */
function useWidth(wrap: RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(900);
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(240, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [wrap]);
  return width;
}

/** The wheel zooms about the pointer (a non-passive listener, so the page does not scroll instead). */
function useWheelZoom(canvas: RefObject<HTMLCanvasElement | null>, zoom: (f: (v: Viewport) => Viewport) => void): void {
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = c.getBoundingClientRect();
      zoom((v) => zoomAt(v, Math.exp(-e.deltaY * 0.002), e.clientX - rect.left - BAND, e.clientY - rect.top - BAND));
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  });
}

/** Pointing reads a cell; dragging (more than 3 px) pans. */
function usePointer(
  canvas: RefObject<HTMLCanvasElement | null>,
  vp: Viewport,
  nRows: number,
  S: number,
  pan: (v: Viewport) => void,
  dispatch: (a: HoverAction) => void,
) {
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const at = (e: PointerEvent) => {
    const rect = canvas.current!.getBoundingClientRect();
    return cellAt(vp, e.clientX - rect.left - BAND, e.clientY - rect.top - BAND, nRows, S);
  };
  const onMove = (e: PointerEvent) => {
    const d = drag.current;
    if (d) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (d.moved || Math.abs(dx) + Math.abs(dy) > 3) {
        d.moved = true;
        d.x = e.clientX;
        d.y = e.clientY;
        pan({ ...vp, tx: vp.tx + dx, ty: vp.ty + dy });
        return;
      }
    }
    dispatch({ type: 'move', at: at(e) });
  };
  return { drag, at, onMove };
}

/** The heatmap as a figure (title, legend, axes, colour scale): SVG, and the same drawn as a PNG at twice its size. */
function heatmapExports(r: PolicyResult, head: 'mean' | number, shown: AttentionSlab, max: number, priors: Span[]) {
  const name = `inertia-lens-${r.policy.replace(/:/g, '-')}-turn${r.turn}`;
  const figure = () =>
    heatmapSvg({
      attention: shown,
      max,
      categories: r.tokens.map((t) => t.category),
      band: { priors, radius: r.radius, answerRow: r.query.start - shown.rowStart, answerRows: r.query.end - r.query.start },
      title: `${r.label}, turn ${r.turn}, layer ${r.layer}, ${head === 'mean' ? 'mean of heads' : `head ${head}`}`,
    });
  return {
    exportSvg: () => download(`${name}.svg`, figure(), 'image/svg+xml'),
    exportPng: () => void svgToPng(figure()).then((b) => download(`${name}.png`, b)),
  };
}

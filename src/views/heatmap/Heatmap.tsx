import { resultId } from '../result-id';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { PolicyResult } from '../../analysis/analyze';
import { SINK_TOKENS } from '../../context/render';
import { heatmapSvg } from '../../export/heatmap-svg';
import { focusOf, type HoverAction, type HoverState } from '../../state/hover-lock';
import { download } from '../share/download';
import { categoryRuns, cellAt, clampViewport, fitViewport, heatmapPixels, zoomAt, followCell, type Viewport } from './heatmap-model';
import { diagonalBand } from '../../metrics/band';
import { CATEGORY_COLORS, CATEGORY_NAMES, colorLut, scaleMax } from '../../palette';
import { headOf, type AttentionSlab } from '../../metrics/slab';

const BAND = 10;
const LUT = colorLut();

/** The attention shown: the head mean or one head's rows. */
export function shownSlab(r: PolicyResult, head: 'mean' | number): AttentionSlab {
  const a = r.attention!;
  if (head === 'mean' || !a.perHead || head >= a.perHead.heads) return a.mean;
  return headOf(a.perHead, head);
}

/** An SVG figure rasterised at `scale`× (a blob URL: no network, allowed by the CSP's img-src). */
async function svgToPng(svg: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.naturalWidth * scale;
    c.height = img.naturalHeight * scale;
    const ctx = c.getContext('2d')!;
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    return await new Promise<Blob>((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

const tokenLabel = (r: PolicyResult, i: number) => {
  const t = r.tokens[i]!;
  const m = r.messages[t.message]!;
  return `#${i} ${JSON.stringify(t.text)} (${CATEGORY_NAMES[t.category]}${m.round !== null ? `, turn ${m.round}` : ''})`;
};

/**
 * The attention matrix on a canvas: rows are query tokens (the answer's, or all on request), columns
 * every token; category bands on both axes; the r-band of the diagonal over each prior assistant answer.
 * Wheel or +/− zooms, drag or arrows pan/move, click locks the hovered cell, Escape frees it.
 */
export function Heatmap({
  r,
  head,
  hover,
  dispatch,
  height,
  sharedMax,
}: {
  r: PolicyResult;
  head: 'mean' | number;
  hover: HoverState;
  dispatch: (a: HoverAction) => void;
  height?: number;
  sharedMax?: number;
}) {
  const attention = r.attention!;
  const shown = useMemo(() => shownSlab(r, head), [r, head]);
  const { rows: nRows, seqLen: S, rowStart } = shown;
  // Compare mode: one scale for every heatmap (computed by the panel), so brightness compares across them.
  const max = useMemo(() => sharedMax ?? scaleMax(shown, SINK_TOKENS), [shown, sharedMax]);
  const image = useMemo(() => {
    const t0 = performance.now();
    const off = document.createElement('canvas');
    off.width = S;
    off.height = nRows;
    off.getContext('2d')!.putImageData(new ImageData(heatmapPixels(shown, max, LUT), S, nRows), 0, 0);
    return { off, ms: performance.now() - t0 };
  }, [shown, nRows, S, max]);
  const wrap = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(900);
  useEffect(() => {
    const el = wrap.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(240, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const areaW = width - BAND - 2;
  const areaH = height ?? (rowStart === 0 && nRows > 64 ? Math.min(640, areaW) : Math.min(480, Math.max(140, nRows * 10)));
  const fit = fitViewport(nRows, S, areaW, areaH);
  const [vpRaw, setVp] = useState<Viewport | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attention (another pass) resets the zoom
  useEffect(() => setVp(null), [attention]);
  const vp = clampViewport(vpRaw ?? fit, fit, nRows, S, areaW, areaH);
  const focus = focusOf(hover);
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
    if (!c) return;
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round((areaH + BAND + 2) * dpr);
    const ctx = c.getContext('2d')!;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, areaH + BAND + 2);
    // Category bands: columns along the top, query rows down the left, a rectangle per run of one category.
    for (const run of colRuns) {
      const x0 = Math.max(BAND, BAND + vp.tx + run.from * vp.sx);
      const x1 = Math.min(width, BAND + vp.tx + run.to * vp.sx);
      if (x1 <= x0) continue;
      ctx.fillStyle = CATEGORY_COLORS[run.category];
      ctx.fillRect(x0, 0, x1 - x0, BAND - 1);
    }
    for (const run of rowRuns) {
      const y0 = Math.max(BAND, BAND + vp.ty + run.from * vp.sy);
      const y1 = Math.min(BAND + areaH, BAND + vp.ty + run.to * vp.sy);
      if (y1 <= y0) continue;
      ctx.fillStyle = CATEGORY_COLORS[run.category];
      ctx.fillRect(0, y0, BAND - 1, y1 - y0);
    }
    ctx.save();
    ctx.beginPath();
    ctx.rect(BAND, BAND, areaW, areaH);
    ctx.clip();
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(image.off, BAND + vp.tx, BAND + vp.ty, S * vp.sx, nRows * vp.sy);
    // The r-band of the diagonal over each prior assistant answer, for the answer's rows.
    const answerRow0 = r.query.start - rowStart;
    const xOf = (col: number) => BAND + vp.tx + col * vp.sx;
    const yOf = (row: number) => BAND + vp.ty + (answerRow0 + row) * vp.sy;
    for (const p of priors) {
      const band = diagonalBand(p, r.query.end - r.query.start, r.radius);
      if (!band.length) continue;
      ctx.beginPath();
      band.forEach((b, k) => {
        if (k === 0) ctx.moveTo(xOf(b.from), yOf(b.row));
        else ctx.lineTo(xOf(b.from), yOf(b.row));
        ctx.lineTo(xOf(b.from), yOf(b.row + 1));
      });
      for (const b of [...band].reverse()) {
        ctx.lineTo(xOf(b.to + 1), yOf(b.row + 1));
        ctx.lineTo(xOf(b.to + 1), yOf(b.row));
      }
      ctx.closePath();
      for (const [style, w] of [
        ['#000', 2.5],
        ['#fff', 1],
      ] as const) {
        ctx.strokeStyle = style;
        ctx.lineWidth = w;
        ctx.stroke();
      }
    }
    if (focus) {
      ctx.strokeStyle = '#CC79A7';
      ctx.lineWidth = 2;
      ctx.strokeRect(xOf(focus.col) - 1, BAND + vp.ty + focus.row * vp.sy - 1, Math.max(3, vp.sx) + 2, Math.max(3, vp.sy) + 2);
    }
    ctx.restore();
    c.dataset.renderMs = (image.ms + performance.now() - t0).toFixed(1);
  });

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = c.getBoundingClientRect();
      setVp((v) =>
        clampViewport(
          zoomAt(clampViewport(v ?? fit, fit, nRows, S, areaW, areaH), Math.exp(-e.deltaY * 0.002), e.clientX - rect.left - BAND, e.clientY - rect.top - BAND),
          fit,
          nRows,
          S,
          areaW,
          areaH,
        ),
      );
    };
    c.addEventListener('wheel', onWheel, { passive: false });
    return () => c.removeEventListener('wheel', onWheel);
  });

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
        setVp({ ...vp, tx: vp.tx + dx, ty: vp.ty + dy });
        return;
      }
    }
    dispatch({ type: 'move', at: at(e) });
  };
  const zoom = (factor: number) => setVp(zoomAt(vp, factor, areaW / 2, areaH / 2));
  const onKey = (e: KeyboardEvent) => {
    const cur = focus ?? { row: r.query.start - rowStart, col: 0 };
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      const step = e.shiftKey ? 10 : 1;
      dispatch({
        type: 'click',
        at: { row: Math.min(nRows - 1, Math.max(0, cur.row + m[0] * step)), col: Math.min(S - 1, Math.max(0, cur.col + m[1] * step)) },
      });
    } else if (e.key === 'Home' || e.key === 'End') {
      // The row's first key (the sink) or its last.
      e.preventDefault();
      dispatch({ type: 'click', at: { row: Math.min(nRows - 1, Math.max(0, cur.row)), col: e.key === 'Home' ? 0 : S - 1 } });
    } else if (e.key === 'Escape') dispatch({ type: 'escape' });
    else if (e.key === '+' || e.key === '=') zoom(1.5);
    else if (e.key === '-') zoom(1 / 1.5);
    else if (e.key === '0') setVp(null);
  };
  const name = `inertia-lens-${r.policy.replace(/:/g, '-')}-turn${r.turn}`;
  const figure = () =>
    heatmapSvg({
      attention: shown,
      max,
      categories: r.tokens.map((t) => t.category),
      band: { priors, radius: r.radius, answerRow: r.query.start - rowStart, answerRows: r.query.end - r.query.start },
      title: `${r.label}, turn ${r.turn}, layer ${r.layer}, ${head === 'mean' ? 'mean of heads' : `head ${head}`}`,
    });
  const exportSvg = () => download(`${name}.svg`, figure(), 'image/svg+xml');
  // The PNG is the same figure (title, legend, axes, colour scale), drawn at twice its size.
  const exportPng = () => void svgToPng(figure()).then((b) => download(`${name}.png`, b));

  return (
    <div className="heatmap" ref={wrap}>
      <div className="row">
        <strong>{r.label}</strong>
        <span className="muted">
          {nRows} query rows × {S} keys · colour: √ scale, 0 … {max.toFixed(3)} (
          {sharedMax !== undefined ? 'shared by every heatmap: the highest of their' : 'the'} 99.5th percentile outside the sink; brighter = more)
        </span>
        <button type="button" onClick={() => zoom(1.5)} aria-label="zoom in">
          +
        </button>
        <button type="button" onClick={() => zoom(1 / 1.5)} aria-label="zoom out">
          −
        </button>
        <button type="button" onClick={() => setVp(null)}>
          fit
        </button>
        <button type="button" onClick={exportPng}>
          PNG
        </button>
        <button type="button" onClick={exportSvg}>
          SVG
        </button>
      </div>
      <canvas
        ref={canvas}
        data-testid={`heatmap-${resultId(r)}`}
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
        {focus
          ? `${hover.locked ? 'locked · ' : ''}query ${tokenLabel(r, rowStart + focus.row)} → key ${tokenLabel(r, focus.col)}: ${shown.data[focus.row * S + focus.col]!.toFixed(5)}`
          : 'Point at a cell to read both tokens and the weight; click to lock it.'}
      </p>
    </div>
  );
}

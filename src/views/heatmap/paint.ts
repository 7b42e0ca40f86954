import type { KeyboardEvent } from 'react';
import type { PolicyResult } from '../../analysis/analyze';
import { diagonalBand } from '../../metrics/band';
import type { Span } from '../../metrics/categories';
import { BAND_COLOR, CATEGORY_COLORS } from '../../palette';
import type { Cell, HoverAction } from '../../state/hover-lock';
import type { categoryRuns, Viewport } from './heatmap-model';

type CategoryRun = ReturnType<typeof categoryRuns>[number];

/** The width of the category bands along the top and the left. */
export const BAND = 10;

export interface Paint {
  width: number;
  areaW: number;
  areaH: number;
  vp: Viewport;
  /** The attention as an image, one pixel per cell, and the milliseconds it took. */
  image: { off: HTMLCanvasElement; ms: number };
  colRuns: CategoryRun[];
  rowRuns: CategoryRun[];
  /** The prior assistant answers' content spans, for the r-band. */
  priors: Span[];
  r: PolicyResult;
  rowStart: number;
  focus: Cell | null;
  /** Whether the copy-aligned band is drawn too. */
  alignedBand: boolean;
  /** A line across the answer's rows at `row` (from its first), each side named: the lesson's parts of a maze answer. */
  rowSplit?: RowSplit | null;
  /** A cell pointed at with a named arrow (the lesson's real copy), apart from the focus, which the reader moves. */
  mark?: CellMark | null;
  /** A second named arrow, with no box: a column every row reads (the lesson's brightest stripe). */
  stripe?: CellMark | null;
}

export interface CellMark {
  cell: Cell;
  label: string;
}

export interface RowSplit {
  row: number;
  above: string;
  below: string;
}

/** Draws the heatmap on its canvas: the category bands, the cells, the r-band, the selected cell. */
export function paintHeatmap(c: HTMLCanvasElement, p: Paint): void {
  const { width, areaW, areaH, vp, image } = p;
  const t0 = performance.now();
  const dpr = window.devicePixelRatio || 1;
  c.width = Math.round(width * dpr);
  c.height = Math.round((areaH + BAND + 2) * dpr);
  const ctx = c.getContext('2d')!;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, areaH + BAND + 2);
  paintBands(ctx, p);
  ctx.save();
  ctx.beginPath();
  ctx.rect(BAND, BAND, areaW, areaH);
  ctx.clip();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(image.off, BAND + vp.tx, BAND + vp.ty, image.off.width * vp.sx, image.off.height * vp.sy);
  paintRBand(ctx, p);
  if (p.rowSplit) paintRowSplit(ctx, p, p.rowSplit);
  if (p.stripe) paintMark(ctx, p, p.stripe);
  if (p.mark) {
    paintMark(ctx, p, p.mark);
    cellBox(ctx, p, p.mark.cell, MARK_COLOR);
  }
  // The cell the reader points at: white where a named mark stands elsewhere, so the arrow's box and the reader's are
  // told apart (readers took a box moved by a tap for the arrow's copy).
  const apart = p.mark && p.focus && (p.focus.row !== p.mark.cell.row || p.focus.col !== p.mark.cell.col);
  if (p.focus) cellBox(ctx, p, p.focus, apart ? '#FFFFFF' : MARK_COLOR);
  ctx.restore();
  c.dataset.renderMs = (image.ms + performance.now() - t0).toFixed(1);
}

/** The named mark's colour, its box and arrow: light blue. */
const MARK_COLOR = '#00E5FF';

/**
 * A box around one cell. Black under the colour: the box reads on bright cells and on dark ones alike. A few pixels
 * clear of the cell, so a one-cell box is seen at a glance (readers missed it).
 */
function cellBox(ctx: CanvasRenderingContext2D, { vp }: Paint, cell: Cell, color: string): void {
  const pad = 3;
  outlined(ctx, color, 5, 3, () =>
    ctx.strokeRect(BAND + vp.tx + cell.col * vp.sx - pad, BAND + vp.ty + cell.row * vp.sy - pad, Math.max(3, vp.sx) + 2 * pad, Math.max(3, vp.sy) + 2 * pad),
  );
}

/** Strokes a shape twice, wide in black, then narrower in `color` on top: a mark that reads on bright cells and dark alike. */
function outlined(ctx: CanvasRenderingContext2D, color: string, under: number, over: number, stroke: () => void): void {
  for (const [style, w] of [
    ['#000', under],
    [color, over],
  ] as const) {
    ctx.strokeStyle = style;
    ctx.lineWidth = w;
    stroke();
  }
}

/** Category bands: columns along the top, query rows down the left, a rectangle per run of one category. */
function paintBands(ctx: CanvasRenderingContext2D, { colRuns, rowRuns, vp, width, areaH }: Paint): void {
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
}

/**
 * The r-band of the diagonal over each prior assistant answer, for the answer's rows: its outline, black then
 * BAND_COLOR, and its centre dotted; where the answer's copy of it is displaced, the copy-aligned band too, dashed.
 */
function paintRBand(ctx: CanvasRenderingContext2D, { priors, r, rowStart, vp, alignedBand }: Paint): void {
  const answerRow0 = r.query.start - rowStart;
  const xOf = (col: number) => BAND + vp.tx + col * vp.sx;
  const yOf = (row: number) => BAND + vp.ty + (answerRow0 + row) * vp.sy;
  priors.forEach((p, k) => {
    // The copy measures are listed in the order of the prior assistant answers (analyze.ts).
    const shift = r.copy[k]?.shift ?? 0;
    outlineBand(ctx, diagonalBand(p, r.query.end - r.query.start, r.radius), xOf, yOf, []);
    centreLine(ctx, p, r.query.end - r.query.start, xOf, yOf);
    if (shift !== 0 && alignedBand) outlineBand(ctx, diagonalBand(p, r.query.end - r.query.start, r.radius, shift), xOf, yOf, [4, 3]);
  });
}

/**
 * A white line across the area between two parts of the answer's rows, each part named at the area's right end on a
 * dark patch (readable over bright cells), so a reader can see which rows hold the band's bright cells.
 */
function paintRowSplit(ctx: CanvasRenderingContext2D, { r, rowStart, vp, areaW }: Paint, split: RowSplit): void {
  const y = BAND + vp.ty + (r.query.start - rowStart + split.row) * vp.sy;
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 3]);
  ctx.beginPath();
  ctx.moveTo(BAND, y);
  ctx.lineTo(BAND + areaW, y);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.font = '12px sans-serif';
  ctx.textBaseline = 'middle';
  for (const [text, dy] of [
    [`↑ ${split.above}`, -10],
    [`↓ ${split.below}`, 10],
  ] as const) {
    const w = ctx.measureText(text).width + 8;
    const x = BAND + areaW - w - 4;
    ctx.fillStyle = 'rgba(0, 0, 0, 0.75)';
    ctx.fillRect(x, y + dy - 8, w, 16);
    ctx.fillStyle = '#fff';
    ctx.fillText(text, x + 4, y + dy);
  }
}

/**
 * A named arrow to one cell, on a dark patch beside it (left where there is room): readers missed a boxed cell among
 * bright stripes until something on the picture said "this one".
 */
function paintMark(ctx: CanvasRenderingContext2D, { vp, areaW }: Paint, { cell, label }: CellMark): void {
  const [cx, cy] = [BAND + vp.tx + (cell.col + 0.5) * vp.sx, BAND + vp.ty + (cell.row + 0.5) * vp.sy];
  ctx.font = 'bold 12px sans-serif';
  ctx.textBaseline = 'middle';
  const w = ctx.measureText(label).width + 8;
  const gap = Math.max(vp.sx, 6) / 2 + 22;
  const left = cx - gap - w >= BAND;
  const x = left ? cx - gap - w : Math.min(cx + gap, BAND + areaW - w);
  const y = cy + Math.max(vp.sy, 6) + 10;
  const [tipX, tipY] = [cx + (left ? -1 : 1) * (Math.max(vp.sx, 3) / 2 + 4), cy + Math.max(vp.sy, 3) / 2 + 4];
  const [fromX, fromY] = [left ? x + w : x, y];
  outlined(ctx, MARK_COLOR, 4, 2, () => {
    ctx.beginPath();
    ctx.moveTo(fromX, fromY);
    ctx.lineTo(tipX, tipY);
    ctx.stroke();
  });
  ctx.fillStyle = 'rgba(0, 0, 0, 0.8)';
  ctx.fillRect(x, y - 9, w, 18);
  ctx.fillStyle = MARK_COLOR;
  ctx.fillText(label, x + 4, y);
}

/** The band's centre, dotted: the answer's i-th token on the prior assistant answer's i-th, the line a copy follows. */
function centreLine(ctx: CanvasRenderingContext2D, p: Span, answerRows: number, xOf: (col: number) => number, yOf: (row: number) => number): void {
  const n = Math.min(answerRows, p.length);
  if (n <= 0) return;
  ctx.beginPath();
  ctx.moveTo(xOf(p.start), yOf(0));
  ctx.lineTo(xOf(p.start + n), yOf(n));
  // Heavier than the band's edges: it is the line the lesson asks a reader to find.
  ctx.setLineDash([4, 3]);
  ctx.strokeStyle = BAND_COLOR;
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.setLineDash([]);
}

function outlineBand(
  ctx: CanvasRenderingContext2D,
  band: ReturnType<typeof diagonalBand>,
  xOf: (col: number) => number,
  yOf: (row: number) => number,
  dash: number[],
): void {
  if (!band.length) return;
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
  ctx.setLineDash(dash);
  outlined(ctx, BAND_COLOR, 3, 1.5, () => ctx.stroke());
  ctx.setLineDash([]);
}

/** The heatmap's keys: arrows move the selected cell (Shift: by 10), Home/End the row's first and last key, + − 0 zoom, Escape frees. */
export function heatmapKey(
  e: KeyboardEvent,
  k: { focus: Cell | null; answerRow: number; nRows: number; S: number; dispatch: (a: HoverAction) => void; zoom: (f: number) => void; fit: () => void },
): void {
  const cur = k.focus ?? { row: k.answerRow, col: 0 };
  const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const m = moves[e.key];
  const rowOf = (row: number) => Math.min(k.nRows - 1, Math.max(0, row));
  if (m) {
    e.preventDefault();
    const step = e.shiftKey ? 10 : 1;
    k.dispatch({ type: 'click', at: { row: rowOf(cur.row + m[0] * step), col: Math.min(k.S - 1, Math.max(0, cur.col + m[1] * step)) } });
  } else if (e.key === 'Home' || e.key === 'End') {
    // The row's first key (the sink) or its last.
    e.preventDefault();
    k.dispatch({ type: 'click', at: { row: rowOf(cur.row), col: e.key === 'Home' ? 0 : k.S - 1 } });
  } else if (e.key === 'Escape') k.dispatch({ type: 'escape' });
  else if (e.key === '+' || e.key === '=') k.zoom(1.5);
  else if (e.key === '-') k.zoom(1 / 1.5);
  else if (e.key === '0') k.fit();
}

/** An SVG figure rasterised at `scale`× (a blob URL: no network, allowed by the CSP's img-src). */
export async function svgToPng(svg: string, scale = 2): Promise<Blob> {
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

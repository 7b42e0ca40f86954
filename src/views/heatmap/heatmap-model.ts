import type { Category } from '../../metrics/categories';
import type { AttentionSlab } from '../../metrics/slab';

/** The matrix as RGBA pixels, one per cell: one 32-bit store per cell from a packed table (the scale of scaleIndex). */
export function heatmapPixels(attention: AttentionSlab<ArrayLike<number>>, max: number, lut: Uint8ClampedArray): Uint8ClampedArray<ArrayBuffer> {
  const { data: values, rows: nRows, seqLen } = attention;
  const px = new Uint8ClampedArray(nRows * seqLen * 4);
  const px32 = new Uint32Array(px.buffer);
  const packed = new Uint32Array(256);
  const bytes = new Uint8ClampedArray(packed.buffer);
  for (let c = 0; c < 256; c++) bytes.set([lut[c * 3]!, lut[c * 3 + 1]!, lut[c * 3 + 2]!, 255], c * 4);
  const inv = 1 / max;
  for (let k = 0; k < nRows * seqLen; k++) {
    // scaleIndex inlined: sqrt(v / max) clamped to [0, 1], rounded to 0..255 (NaN for v < 0 gives 0).
    const s = Math.sqrt(values[k]! * inv);
    px32[k] = packed[s >= 1 ? 255 : (s * 255 + 0.5) | 0]!;
  }
  return px;
}

/** Runs of equal category, [from, to) each: a band is drawn as a few rectangles, not one per token. */
export function categoryRuns(categories: Category[]): { from: number; to: number; category: Category }[] {
  const out: { from: number; to: number; category: Category }[] = [];
  categories.forEach((c, i) => {
    const last = out[out.length - 1];
    if (last && last.category === c) last.to = i + 1;
    else out.push({ from: i, to: i + 1, category: c });
  });
  return out;
}

/** Screen = translate + cell × size, separately per axis (answer rows are few, keys many). */
export interface Viewport {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

export function fitViewport(nRows: number, nCols: number, width: number, height: number): Viewport {
  return { sx: width / nCols, sy: height / nRows, tx: 0, ty: 0 };
}

/**
 * A view of square cells whose left edge is two columns before `from`: a copy made token for token then runs at
 * 45°, not as the near-vertical slash a fitted view of many columns draws (the lesson's diagonal step).
 */
export function squareAt(fit: Viewport, from: number): Viewport {
  const s = Math.max(fit.sx, fit.sy);
  return { sx: s, sy: s, tx: -Math.max(0, from - 2) * s, ty: 0 };
}

/**
 * The view a heatmap opens on: the fit, or for a lesson step zoomed in on the last prior assistant answer's first
 * column in square cells ('last-prior').
 */
export function openingView(fit: Viewport, opensOn: 'last-prior' | null, lastPrior: number | undefined): Viewport {
  if (opensOn === 'last-prior' && lastPrior !== undefined && fit.sx < fit.sy) return squareAt(fit, lastPrior);
  return fit;
}

/** Keeps the matrix covering the view: no panning past its edges, no zooming out past the fit. */
export function clampViewport(v: Viewport, fit: Viewport, nRows: number, nCols: number, width: number, height: number): Viewport {
  const sx = Math.min(Math.max(v.sx, fit.sx), Math.max(fit.sx, 64));
  const sy = Math.min(Math.max(v.sy, fit.sy), Math.max(fit.sy, 64));
  const tx = Math.min(0, Math.max(width - nCols * sx, v.tx));
  const ty = Math.min(0, Math.max(height - nRows * sy, v.ty));
  return { sx, sy, tx, ty };
}

/** The viewport moved the least so that a cell is in view (a cell selected by keyboard while zoomed in). */
export function followCell(v: Viewport, cell: { row: number; col: number }, width: number, height: number): Viewport {
  const x = v.tx + cell.col * v.sx;
  const y = v.ty + cell.row * v.sy;
  const tx = x < 0 ? -cell.col * v.sx : x + v.sx > width ? width - (cell.col + 1) * v.sx : v.tx;
  const ty = y < 0 ? -cell.row * v.sy : y + v.sy > height ? height - (cell.row + 1) * v.sy : v.ty;
  return tx === v.tx && ty === v.ty ? v : { ...v, tx, ty };
}

/** Zoom by `factor` keeping the point under (px, py) fixed. */
export function zoomAt(v: Viewport, factor: number, px: number, py: number): Viewport {
  return { sx: v.sx * factor, sy: v.sy * factor, tx: px - (px - v.tx) * factor, ty: py - (py - v.ty) * factor };
}

/** The cell under a screen point, or null outside the matrix. */
export function cellAt(v: Viewport, px: number, py: number, nRows: number, nCols: number): { row: number; col: number } | null {
  const col = Math.floor((px - v.tx) / v.sx);
  const row = Math.floor((py - v.ty) / v.sy);
  return row >= 0 && row < nRows && col >= 0 && col < nCols ? { row, col } : null;
}

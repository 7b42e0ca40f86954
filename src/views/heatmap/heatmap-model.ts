import { interpolateCividis } from 'd3-scale-chromatic';
import type { Category, Span } from '../../metrics/categories';

/**
 * Okabe–Ito colours: distinguishable with every common colour-vision deficiency. Attention itself
 * uses cividis, a sequential scale designed to read the same for deuteranopes and trichromats.
 */
export const CATEGORY_COLORS: Record<Category, string> = {
  sink: '#999999',
  system: '#E69F00',
  user: '#56B4E9',
  prior: '#D55E00',
  current: '#009E73',
};

export const CATEGORY_NAMES: Record<Category, string> = {
  sink: 'sink (first 3 tokens)', system: 'system', user: 'user', prior: 'prior assistant', current: 'current answer',
};

/** 256-entry RGB lookup table of a d3 interpolator (t in [0, 1] → "rgb(r, g, b)" or "#rrggbb"). */
export function colorLut(interpolate: (t: number) => string = interpolateCividis): Uint8ClampedArray {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const c = interpolate(i / 255);
    const m = /rgb\((\d+),\s*(\d+),\s*(\d+)\)/.exec(c);
    const rgb = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [1, 3, 5].map((k) => parseInt(c.slice(k, k + 2), 16));
    lut.set(rgb, i * 3);
  }
  return lut;
}

/**
 * The top of the colour scale: the q-quantile of the nonzero weights outside the sink columns. The
 * sink takes most of every row, and a few early rows attend almost wholly to one token: either
 * would leave everything else dark. Weights above the top are drawn at full colour. Masked (future)
 * cells are exactly 0 and do not count. Large matrices are sampled on a fixed stride.
 */
export function scaleMax(values: ArrayLike<number>, nRows: number, seqLen: number, sinkColumns: number, q = 0.995): number {
  const width = Math.max(0, seqLen - sinkColumns);
  const cells = nRows * width;
  const stride = Math.max(1, Math.ceil(cells / 400_000));
  // Every stride-th cell outside the sink columns, in row order: visited directly, not by scanning all.
  const picked = new Float64Array(Math.ceil(cells / stride));
  let n = 0;
  for (let k = 0; k < cells; k += stride) {
    const v = values[Math.floor(k / width) * seqLen + sinkColumns + (k % width)]!;
    if (v > 0) picked[n++] = v;
  }
  if (!n) return 1;
  return kthSmallest(picked.subarray(0, n), Math.min(n - 1, Math.floor(q * (n - 1))));
}

/** The k-th smallest value (0-based), by quickselect: the same value a sort would put at k, in linear time. Reorders `a`. */
export function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i++] = a[j]!;
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/** Square-root scale (small weights stay visible), clamped to [0, 1]. */
export function scaleIndex(v: number, max: number): number {
  return Math.round(Math.sqrt(Math.min(1, Math.max(0, v / max))) * 255);
}

/** The matrix as RGBA pixels, one per cell: one 32-bit store per cell from a packed table (the scale of scaleIndex). */
export function heatmapPixels(values: ArrayLike<number>, nRows: number, seqLen: number, max: number, lut: Uint8ClampedArray): Uint8ClampedArray<ArrayBuffer> {
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

/** Keeps the matrix covering the view: no panning past its edges, no zooming out past the fit. */
export function clampViewport(v: Viewport, fit: Viewport, nRows: number, nCols: number, width: number, height: number): Viewport {
  const sx = Math.min(Math.max(v.sx, fit.sx), Math.max(fit.sx, 64));
  const sy = Math.min(Math.max(v.sy, fit.sy), Math.max(fit.sy, 64));
  const tx = Math.min(0, Math.max(width - nCols * sx, v.tx));
  const ty = Math.min(0, Math.max(height - nRows * sy, v.ty));
  return { sx, sy, tx, ty };
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

/**
 * The diagonal band of radius r over one earlier answer, per answer row: the key columns that
 * count for the diagonal ratio (design.md). Rows are offsets into the current answer.
 */
export function diagonalBand(prior: Span, answerRows: number, radius: number): { row: number; from: number; to: number }[] {
  const out = [];
  for (let i = 0; i < answerRows; i++) {
    const lo = Math.max(0, i - radius);
    const hi = Math.min(prior.length - 1, i + radius);
    if (lo <= hi) out.push({ row: i, from: prior.start + lo, to: prior.start + hi });
  }
  return out;
}

/** CSS gradient of the attention scale, for legends. */
export const LEGEND_GRADIENT = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((t) => interpolateCividis(t)).join(', ')})`;

import { interpolateCividis } from 'd3-scale-chromatic';
import type { Category } from './metrics/categories';
import type { AttentionSlab } from './metrics/slab';

/**
 * The palette every view and export shares: category colours and names, and the attention scale
 * (cividis, square root, topped at a quantile). Pure: no React, no canvas.
 *
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

/**
 * Each category's colour as text: CSS variables (styles.css), darkened to a contrast of at least 4.5:1 on the
 * light page (WCAG AA for small text), the bright colours on the dark one.
 */
export const CATEGORY_TEXT_COLORS: Record<Category, string> = {
  sink: 'var(--cat-text-sink)',
  system: 'var(--cat-text-system)',
  user: 'var(--cat-text-user)',
  prior: 'var(--cat-text-prior)',
  current: 'var(--cat-text-current)',
};

/**
 * The edges of the diagonal's r-band on the heatmap (over a black edge): bright pink (magenta), a hue cividis never comes near,
 * so the band cannot be read as a run of bright cells. The legend's swatch (styles.css .swatch.band) uses it too.
 */
export const BAND_COLOR = '#E040FB';

/** The lines of models B, C and D over model A's when models are compared: black, then the Okabe–Ito colours no category uses. */
export const COMPARED_MODEL_COLORS = ['#000000', '#0072B2', '#CC79A7'] as const;
/** A compared model's colour (slot 1–3). */
export const modelColor = (slot: number): string => COMPARED_MODEL_COLORS[(slot - 1) % COMPARED_MODEL_COLORS.length]!;

export const CATEGORY_NAMES: Record<Category, string> = {
  sink: 'sink (first 3 tokens)',
  system: 'system',
  user: 'user',
  prior: 'prior assistant',
  current: 'current answer',
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
export function scaleMax(attention: AttentionSlab<ArrayLike<number>>, sinkColumns: number, q = 0.995): number {
  const { data: values, rows: nRows, seqLen } = attention;
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

/** CSS gradient of the attention scale, for legends. */
export const LEGEND_GRADIENT = `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((t) => interpolateCividis(t)).join(', ')})`;

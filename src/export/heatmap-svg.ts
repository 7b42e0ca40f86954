import type { Category } from '../metrics/categories';
import type { AttentionSlab } from '../metrics/slab';
import { CATEGORY_COLORS, colorLut, scaleIndex } from '../palette';

export interface SvgHeatmap {
  /** One head (or the head mean). */
  attention: AttentionSlab<ArrayLike<number>>;
  max: number;
  /** Category of every key column (and so of every row's token). */
  categories: readonly Category[];
  title: string;
}

/** Most cells per axis written as SVG rects: larger matrices are averaged over blocks (and the title says so). */
export const SVG_MAX_CELLS = 256;

/** The heatmap as a standalone SVG: cells, category bands along both axes, a title. */
export function heatmapSvg(h: SvgHeatmap): string {
  const { data: values, rows: nRows, seqLen, rowStart } = h.attention;
  const bx = Math.ceil(seqLen / SVG_MAX_CELLS);
  const by = Math.ceil(nRows / SVG_MAX_CELLS);
  const cols = Math.ceil(seqLen / bx);
  const rows = Math.ceil(nRows / by);
  const cw = 640 / cols;
  const ch = Math.max(2, Math.min(640 / rows, 24));
  const band = 8;
  const lut = colorLut();
  const hex = (i: number) => `#${[0, 1, 2].map((k) => lut[i * 3 + k]!.toString(16).padStart(2, '0')).join('')}`;
  const out: string[] = [];
  const left = band + 2;
  const top = 28 + band + 2;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = 0;
      let n = 0;
      for (let i = r * by; i < Math.min(nRows, (r + 1) * by); i++) {
        for (let j = c * bx; j < Math.min(seqLen, (c + 1) * bx); j++) {
          s += values[i * seqLen + j]!;
          n++;
        }
      }
      out.push(`<rect x="${(left + c * cw).toFixed(2)}" y="${(top + r * ch).toFixed(2)}" width="${cw.toFixed(2)}" height="${ch.toFixed(2)}" fill="${hex(scaleIndex(s / n, h.max))}"/>`);
    }
  }
  for (let c = 0; c < cols; c++) out.push(`<rect x="${(left + c * cw).toFixed(2)}" y="28" width="${cw.toFixed(2)}" height="${band}" fill="${CATEGORY_COLORS[h.categories[c * bx]!]}"/>`);
  for (let r = 0; r < rows; r++) out.push(`<rect x="0" y="${(top + r * ch).toFixed(2)}" width="${band}" height="${ch.toFixed(2)}" fill="${CATEGORY_COLORS[h.categories[rowStart + r * by]!]}"/>`);
  const W = left + cols * cw;
  const H = top + rows * ch;
  const note = bx > 1 || by > 1 ? ` (means over ${by}×${bx} blocks)` : '';
  const title = `${h.title}${note}`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W.toFixed(0)}" height="${H.toFixed(0)}" viewBox="0 0 ${W.toFixed(2)} ${H.toFixed(2)}"><title>${title}</title><text x="0" y="18" font-family="sans-serif" font-size="13">${title}</text>${out.join('')}</svg>\n`;
}

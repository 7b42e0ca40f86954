import { diagonalBand } from '../metrics/band';
import { CATEGORIES, type Category, type Span } from '../metrics/categories';
import type { AttentionSlab } from '../metrics/slab';
import { CATEGORY_COLORS, CATEGORY_NAMES, colorLut, scaleIndex } from '../palette';

export interface SvgHeatmap {
  /** One head (or the head mean). */
  attention: AttentionSlab<ArrayLike<number>>;
  max: number;
  /** Category of every key column (and so of every row's token). */
  categories: readonly Category[];
  title: string;
  /** The r-band: each earlier answer's content span, the radius, and the answer's first row among the slab's rows. */
  band?: { priors: readonly Span[]; radius: number; answerRow: number; answerRows: number };
}

/** Most cells per axis written as SVG rects: larger matrices are averaged over blocks (and the title says so). */
export const SVG_MAX_CELLS = 256;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const f = (v: number) => v.toFixed(2);

/**
 * The heatmap as a standalone figure for slides and papers: title, legend (categories, r-band), the
 * cells with category bands on both axes, axes with token positions, and the colour scale. Cells are
 * drawn with crisp edges so viewers show no hairline seams between them.
 */
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
  const axis = 44; // room for the rows' axis label and ticks
  const left = axis + band + 2;
  const top = 58 + band + 2;
  const W = left + cols * cw + 12;
  const plotBottom = top + rows * ch;
  const xOf = (col: number) => left + (col / bx) * cw;
  const yOf = (row: number) => top + (row / by) * ch;

  const cells: string[] = [];
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
      cells.push(`<rect x="${f(left + c * cw)}" y="${f(top + r * ch)}" width="${f(cw)}" height="${f(ch)}" fill="${hex(scaleIndex(s / n, h.max))}"/>`);
    }
  }
  const bands: string[] = [];
  for (let c = 0; c < cols; c++)
    bands.push(`<rect x="${f(left + c * cw)}" y="58" width="${f(cw)}" height="${band}" fill="${CATEGORY_COLORS[h.categories[c * bx]!]}"/>`);
  for (let r = 0; r < rows; r++)
    bands.push(`<rect x="${axis}" y="${f(top + r * ch)}" width="${band}" height="${f(ch)}" fill="${CATEGORY_COLORS[h.categories[rowStart + r * by]!]}"/>`);

  // The r-band over each earlier answer: its two edges, row by row, as the inspector draws them.
  const rBand: string[] = [];
  if (h.band) {
    for (const p of h.band.priors) {
      const rowsOf = diagonalBand(p, h.band.answerRows, h.band.radius);
      if (!rowsOf.length) continue;
      const edge = (x: (b: (typeof rowsOf)[number]) => number) =>
        rowsOf.map((b) => `${f(x(b))},${f(yOf(h.band!.answerRow + b.row))} ${f(x(b))},${f(yOf(h.band!.answerRow + b.row + 1))}`).join(' ');
      for (const pts of [edge((b) => xOf(b.from)), edge((b) => xOf(b.to + 1))])
        rBand.push(
          `<polyline points="${pts}" fill="none" stroke="#000" stroke-width="2"/><polyline points="${pts}" fill="none" stroke="#fff" stroke-width="1"/>`,
        );
    }
  }

  // Axes: token positions, as the inspector numbers them.
  const ticks: string[] = [];
  for (const k of [0, 0.25, 0.5, 0.75, 1]) {
    const col = Math.round(k * (seqLen - 1));
    ticks.push(`<text x="${f(xOf(col) + cw / 2)}" y="${f(plotBottom + 14)}" font-size="10" text-anchor="middle">${col}</text>`);
  }
  for (const row of [0, nRows - 1])
    ticks.push(`<text x="${axis - 3}" y="${f(yOf(row) + Math.min(ch, 10))}" font-size="10" text-anchor="end">${rowStart + row}</text>`);
  ticks.push(
    `<text x="${f(left + (cols * cw) / 2)}" y="${f(plotBottom + 30)}" font-size="11" text-anchor="middle">key tokens: the whole context, in order (token #)</text>`,
  );
  ticks.push(`<text transform="translate(12 ${f(top + (rows * ch) / 2)}) rotate(-90)" font-size="11" text-anchor="middle">query tokens (#)</text>`);

  // Legend: categories and the r-band, above the plot.
  const legend: string[] = [];
  let lx = 0;
  for (const c of CATEGORIES) {
    legend.push(
      `<rect x="${lx}" y="30" width="10" height="10" fill="${CATEGORY_COLORS[c]}"/><text x="${lx + 14}" y="39" font-size="11">${esc(CATEGORY_NAMES[c])}</text>`,
    );
    lx += 22 + CATEGORY_NAMES[c].length * 6;
  }
  if (h.band)
    legend.push(
      `<rect x="${lx}" y="30" width="10" height="10" fill="none" stroke="#000" stroke-width="1.5"/><text x="${lx + 14}" y="39" font-size="11">r-band (r = ${Number.isFinite(h.band.radius) ? h.band.radius : '∞'}) of the diagonal</text>`,
    );

  // The colour scale: value t·max gets the colour the cells use (a square root), 0 … max.
  const scaleY = plotBottom + 42;
  const stops = Array.from({ length: 11 }, (_, k) => `<stop offset="${k * 10}%" stop-color="${hex(scaleIndex((k / 10) * h.max, h.max))}"/>`).join('');
  const scale = `<defs><linearGradient id="il-scale">${stops}</linearGradient></defs><rect x="${left}" y="${f(scaleY)}" width="200" height="10" fill="url(#il-scale)"/><text x="${left}" y="${f(scaleY + 22)}" font-size="10">0</text><text x="${left + 200}" y="${f(scaleY + 22)}" font-size="10" text-anchor="end">${h.max.toFixed(3)}</text><text x="${left + 210}" y="${f(scaleY + 9)}" font-size="10">attention weight (√ scale; brighter = more)</text>`;

  const H = scaleY + 30;
  const note = bx > 1 || by > 1 ? ` (means over ${by}×${bx} blocks)` : '';
  const title = esc(`${h.title}${note}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W.toFixed(0)}" height="${H.toFixed(0)}" viewBox="0 0 ${f(W)} ${f(H)}" font-family="sans-serif"><title>${title}</title><rect width="100%" height="100%" fill="#fff"/><text x="0" y="18" font-size="13">${title}</text>${legend.join('')}<g class="cells" shape-rendering="crispEdges">${cells.join('')}</g><g class="bands" shape-rendering="crispEdges">${bands.join('')}</g>${rBand.join('')}${ticks.join('')}${scale}</svg>\n`;
}

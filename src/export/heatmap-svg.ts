import { diagonalBand } from '../metrics/band';
import { CATEGORIES, type Category, type Span } from '../metrics/categories';
import type { AttentionSlab } from '../metrics/slab';
import { BAND_COLOR, CATEGORY_COLORS, CATEGORY_NAMES, colorLut, scaleIndex } from '../palette';

export interface SvgHeatmap {
  /** One head (or the head mean). */
  attention: AttentionSlab<ArrayLike<number>>;
  max: number;
  /** Category of every key column (and so of every row's token). */
  categories: readonly Category[];
  title: string;
  /** The r-band: each prior assistant answer's content span, the radius, and the answer's first row among the slab's rows. */
  band?: { priors: readonly Span[]; radius: number; answerRow: number; answerRows: number };
}

/** Most cells per axis written as SVG rects: larger matrices are averaged over blocks (and the title says so). */
export const SVG_MAX_CELLS = 256;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const f = (v: number) => v.toFixed(2);
/** Cells to a tenth of a pixel: the figure is 640 px wide, and the cells are most of its bytes. */
const f1 = (v: number) => v.toFixed(1);

/** Where everything goes: cells of cw × ch for blocks of by × bx values, the plot's corner, the axes. */
interface Geometry {
  bx: number;
  by: number;
  cols: number;
  rows: number;
  cw: number;
  ch: number;
  axis: number;
  left: number;
  top: number;
  plotBottom: number;
  hex: (i: number) => string;
  xOf: (col: number) => number;
  yOf: (row: number) => number;
}

const BAND = 8;

function geometry(h: SvgHeatmap): Geometry {
  const { rows: nRows, seqLen } = h.attention;
  const bx = Math.ceil(seqLen / SVG_MAX_CELLS);
  const by = Math.ceil(nRows / SVG_MAX_CELLS);
  const cols = Math.ceil(seqLen / bx);
  const rows = Math.ceil(nRows / by);
  const cw = 640 / cols;
  const ch = Math.max(2, Math.min(640 / rows, 24));
  const lut = colorLut();
  const axis = 44; // room for the rows' axis label and ticks
  const left = axis + BAND + 2;
  const top = 58 + BAND + 2;
  return {
    bx,
    by,
    cols,
    rows,
    cw,
    ch,
    axis,
    left,
    top,
    plotBottom: top + rows * ch,
    hex: (i) => `#${[0, 1, 2].map((k) => lut[i * 3 + k]!.toString(16).padStart(2, '0')).join('')}`,
    xOf: (col) => left + (col / bx) * cw,
    yOf: (row) => top + (row / by) * ch,
  };
}

/**
 * The cells (block means when the matrix is larger than SVG_MAX_CELLS a side), and the category bands on both axes.
 * A run of cells of one colour along a row is one rectangle, and every rectangle of a colour is one path: most of
 * a long conversation's matrix is a few dark colours, and a rect per cell made a 2,000-token heatmap 3 MB.
 */
function cellsAndBands(h: SvgHeatmap, g: Geometry): { cells: string[]; bands: string[] } {
  const { data: values, rows: nRows, seqLen, rowStart } = h.attention;
  const { bx, by, cols, rows, cw, ch, left, top } = g;
  const byColour = new Map<string, string[]>();
  for (let r = 0; r < rows; r++) {
    let runStart = 0;
    let runColour = '';
    const flush = (end: number) => {
      if (end <= runStart) return;
      const d = `M${f1(left + runStart * cw)} ${f1(top + r * ch)}h${f1((end - runStart) * cw)}v${f1(ch)}h-${f1((end - runStart) * cw)}z`;
      byColour.set(runColour, [...(byColour.get(runColour) ?? []), d]);
    };
    for (let c = 0; c < cols; c++) {
      let s = 0;
      let n = 0;
      for (let i = r * by; i < Math.min(nRows, (r + 1) * by); i++) {
        for (let j = c * bx; j < Math.min(seqLen, (c + 1) * bx); j++) {
          s += values[i * seqLen + j]!;
          n++;
        }
      }
      // 64 levels of the 256: steps no eye tells apart in a figure, and longer runs.
      const colour = g.hex(Math.min(255, Math.round(scaleIndex(s / n, h.max) / 4) * 4));
      if (colour !== runColour) {
        flush(c);
        runStart = c;
        runColour = colour;
      }
    }
    flush(cols);
  }
  const cells = [...byColour].map(([colour, d]) => `<path fill="${colour}" d="${d.join('')}"/>`);
  const bands: string[] = [];
  for (let c = 0; c < cols; c++)
    bands.push(`<rect x="${f(left + c * cw)}" y="58" width="${f(cw)}" height="${BAND}" fill="${CATEGORY_COLORS[h.categories[c * bx]!]}"/>`);
  for (let r = 0; r < rows; r++)
    bands.push(`<rect x="${g.axis}" y="${f(top + r * ch)}" width="${BAND}" height="${f(ch)}" fill="${CATEGORY_COLORS[h.categories[rowStart + r * by]!]}"/>`);
  return { cells, bands };
}

/** The r-band over each prior assistant answer: its two edges, row by row, as the inspector draws them. */
function rBandLines(h: SvgHeatmap, g: Geometry): string[] {
  const out: string[] = [];
  const b0 = h.band;
  if (!b0) return out;
  for (const p of b0.priors) {
    const rowsOf = diagonalBand(p, b0.answerRows, b0.radius);
    if (!rowsOf.length) continue;
    const edge = (x: (b: (typeof rowsOf)[number]) => number) =>
      rowsOf.map((b) => `${f(x(b))},${f(g.yOf(b0.answerRow + b.row))} ${f(x(b))},${f(g.yOf(b0.answerRow + b.row + 1))}`).join(' ');
    for (const pts of [edge((b) => g.xOf(b.from)), edge((b) => g.xOf(b.to + 1))])
      out.push(
        `<polyline points="${pts}" fill="none" stroke="#000" stroke-width="2"/><polyline points="${pts}" fill="none" stroke="${BAND_COLOR}" stroke-width="1"/>`,
      );
  }
  return out;
}

/** Axes: token positions, as the inspector numbers them. */
function axisTicks(h: SvgHeatmap, g: Geometry): string[] {
  const { rows: nRows, seqLen, rowStart } = h.attention;
  const ticks: string[] = [];
  for (const k of [0, 0.25, 0.5, 0.75, 1]) {
    const col = Math.round(k * (seqLen - 1));
    ticks.push(`<text x="${f(g.xOf(col) + g.cw / 2)}" y="${f(g.plotBottom + 14)}" font-size="10" text-anchor="middle">${col}</text>`);
  }
  for (const row of [0, nRows - 1])
    ticks.push(`<text x="${g.axis - 3}" y="${f(g.yOf(row) + Math.min(g.ch, 10))}" font-size="10" text-anchor="end">${rowStart + row}</text>`);
  ticks.push(
    `<text x="${f(g.left + (g.cols * g.cw) / 2)}" y="${f(g.plotBottom + 30)}" font-size="11" text-anchor="middle">key tokens: the whole context, in order (token #)</text>`,
  );
  ticks.push(`<text transform="translate(12 ${f(g.top + (g.rows * g.ch) / 2)}) rotate(-90)" font-size="11" text-anchor="middle">query tokens (#)</text>`);
  return ticks;
}

/** Legend: categories and the r-band, above the plot. */
function legendItems(h: SvgHeatmap): string[] {
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
  return legend;
}

/**
 * The heatmap as a standalone figure for slides and papers: title, legend (categories, r-band), the
 * cells with category bands on both axes, axes with token positions, and the colour scale. Cells are
 * drawn with crisp edges so viewers show no hairline seams between them.
 */
export function heatmapSvg(h: SvgHeatmap): string {
  const g = geometry(h);
  const { cells, bands } = cellsAndBands(h, g);
  const W = g.left + g.cols * g.cw + 12;
  // The colour scale: value t·max gets the colour the cells use (a square root), 0 … max.
  const scaleY = g.plotBottom + 42;
  const { left } = g;
  const stops = Array.from({ length: 11 }, (_, k) => `<stop offset="${k * 10}%" stop-color="${g.hex(scaleIndex((k / 10) * h.max, h.max))}"/>`).join('');
  const scale = `<defs><linearGradient id="il-scale">${stops}</linearGradient></defs><rect x="${left}" y="${f(scaleY)}" width="200" height="10" fill="url(#il-scale)"/><text x="${left}" y="${f(scaleY + 22)}" font-size="10">0</text><text x="${left + 200}" y="${f(scaleY + 22)}" font-size="10" text-anchor="end">${h.max.toFixed(3)}</text><text x="${left + 210}" y="${f(scaleY + 9)}" font-size="10">attention weight (√ scale; brighter = more)</text>`;
  const H = scaleY + 30;
  const note = g.bx > 1 || g.by > 1 ? ` (means over ${g.by}×${g.bx} blocks)` : '';
  const title = esc(`${h.title}${note}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W.toFixed(0)}" height="${H.toFixed(0)}" viewBox="0 0 ${f(W)} ${f(H)}" font-family="sans-serif"><title>${title}</title><rect width="100%" height="100%" fill="#fff"/><text x="0" y="18" font-size="13">${title}</text>${legendItems(h).join('')}<g class="cells" shape-rendering="crispEdges">${cells.join('')}</g><g class="bands" shape-rendering="crispEdges">${bands.join('')}</g>${rBandLines(h, g).join('')}${axisTicks(h, g).join('')}${scale}</svg>\n`;
}

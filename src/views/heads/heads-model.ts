/** What the layers × heads grid draws: one value per cell, the scale they share, and the difference of two grids. */
import { interpolateCividis, interpolateRdBu } from 'd3-scale-chromatic';
import type { LayerFigures } from '../../analysis/heads';
import type { Category } from '../../metrics/categories';

/** What the grid is coloured by: the diagonal ratio, or one category's share. */
export type HeadMetric = 'diagonal' | Category;

/** [layer][head] values of one grid. */
export type Cells = number[][];

export const cellsOf = (layers: readonly LayerFigures[], metric: HeadMetric): Cells =>
  layers.map((l) => l.perHead.map((h) => (metric === 'diagonal' ? h.diagonal : h.ratios[metric])));

/** The head mean of each layer (what paper 2 reads at the final layer), for the profile chart. */
export const meanOf = (layers: readonly LayerFigures[], metric: HeadMetric): number[] =>
  layers.map((l) => (metric === 'diagonal' ? l.diagonal : l.ratios[metric]));

/** b − a, cell by cell (grids of the same model: same shape). */
export const difference = (a: Cells, b: Cells): Cells => b.map((row, l) => row.map((v, h) => v - (a[l]?.[h] ?? 0)));

/** One colour scale for several grids: 0 to the largest value (shares and the diagonal are ≥ 0). */
export const sharedMax = (grids: readonly Cells[]): number => Math.max(1e-9, ...grids.flat(2));

/** The largest |value|, for a difference's scale centred on 0. */
export const largestChange = (d: Cells): number => Math.max(1e-9, ...d.flat().map(Math.abs));

/** A cell's colour: cividis from 0 to `max`; for a difference, red below 0 and blue above, white at 0 (RdBu). */
export const cellColour = (v: number, max: number, diverging: boolean): string =>
  diverging ? interpolateRdBu(0.5 + Math.max(-1, Math.min(1, v / max)) / 2) : interpolateCividis(Math.min(1, Math.max(0, v / max)));

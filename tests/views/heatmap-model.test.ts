import { describe, expect, it } from 'vitest';
import { diagonalRatio } from '../../src/metrics/inertia';
import { slab } from '../../src/metrics/slab';
import {
  categoryRuns,
  cellAt,
  clampViewport,
  fitViewport,
  followCell,
  heatmapPixels,
  openingView,
  squareAt,
  zoomAt,
} from '../../src/views/heatmap/heatmap-model';
import { diagonalBand } from '../../src/metrics/band';
import { colorLut, kthSmallest, scaleIndex, scaleMax } from '../../src/palette';

describe('heatmap scales and viewport', () => {
  it('cividis lookup table runs dark blue to yellow, and the √ scale maps 0, max/4 and max', () => {
    const lut = colorLut();
    const [r0, g0, b0] = Array.from(lut.slice(0, 3));
    expect(b0).toBeGreaterThan(Math.max(r0!, g0!)); // dark blue start
    expect(r0! + g0! + b0!).toBeLessThan(150);
    expect(lut[255 * 3]!).toBeGreaterThan(250); // red channel of the yellow end
    expect(scaleIndex(0, 0.5)).toBe(0);
    expect(scaleIndex(0.125, 0.5)).toBe(128); // √(1/4) = 0.5 → 127.5 → 128
    expect(scaleIndex(0.5, 0.5)).toBe(255);
    expect(scaleIndex(2, 0.5)).toBe(255);
  });
  it('takes the top of the scale outside the sink columns, from a quantile of the nonzero weights', () => {
    const v = [0.9, 0.05, 0.05, 0.7, 0.2, 0.1];
    expect(scaleMax(slab(v, 2, 3), 1, 1)).toBe(0.2);
    expect(scaleMax(slab(v, 2, 3), 1, 0)).toBe(0.05);
    // 1000 weights 1..1000 (and masked zeros): the 0.995-quantile is 995.
    const w = [...Array.from({ length: 1000 }, (_, i) => i + 1), ...Array(500).fill(0)];
    expect(scaleMax(slab(w, 1, 1500), 0)).toBe(995);
    expect(scaleMax(slab([0, 0], 1, 2), 0)).toBe(1);
    const px = heatmapPixels(slab(v, 2, 3), 0.2, colorLut());
    expect(px.length).toBe(24);
    expect(px[3]).toBe(255);
  });
  it('draws fast what the plain definitions give: pixels by scaleIndex, the quantile a sort gives, bands as runs', () => {
    const rand = (() => {
      let x = 7;
      return () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    })();
    const S = 300;
    const v = Float32Array.from({ length: 40 * S }, (_, k) => (k % S > 40 + Math.floor(k / S) ? 0 : rand() ** 3));
    v[5] = 0.2; // above the top: full colour
    const lut = colorLut();
    const px = heatmapPixels(slab(v, 40, S), 0.05, lut);
    for (let k = 0; k < v.length; k++) {
      const c = scaleIndex(v[k]!, 0.05) * 3;
      expect([px[k * 4], px[k * 4 + 1], px[k * 4 + 2], px[k * 4 + 3]]).toEqual([lut[c], lut[c + 1], lut[c + 2], 255]);
    }
    const xs = Float64Array.from({ length: 5001 }, () => Math.floor(rand() * 50)); // many ties
    const sorted = Float64Array.from(xs).sort();
    for (const k of [0, 1, 2500, 4975, 5000]) expect(kthSmallest(Float64Array.from(xs), k)).toBe(sorted[k]);
    expect(categoryRuns(['sink', 'sink', 'user', 'prior', 'prior', 'user'])).toEqual([
      { from: 0, to: 2, category: 'sink' },
      { from: 2, to: 3, category: 'user' },
      { from: 3, to: 5, category: 'prior' },
      { from: 5, to: 6, category: 'user' },
    ]);
  });
  it('zooms about the pointer, clamps to the matrix, and finds the cell under a point', () => {
    const fit = fitViewport(10, 100, 500, 100); // 5 px per column, 10 px per row
    expect(cellAt(fit, 12, 25, 10, 100)).toEqual({ row: 2, col: 2 });
    expect(cellAt(fit, -1, 5, 10, 100)).toBeNull();
    const z = zoomAt(fit, 2, 250, 50);
    expect(cellAt(z, 250, 50, 10, 100)).toEqual(cellAt(fit, 250, 50, 10, 100));
    expect(z.sx).toBe(10);
    const out = clampViewport(zoomAt(fit, 0.5, 0, 0), fit, 10, 100, 500, 100);
    expect(out).toEqual(fit);
    const panned = clampViewport({ ...z, tx: 100 }, fit, 10, 100, 500, 100);
    expect(panned.tx).toBe(0);
  });
  it('opens on a column in square cells, so a token-for-token copy runs at 45°', () => {
    const fit = fitViewport(10, 100, 500, 100); // 5 px per column, 10 px per row
    const sq = squareAt(fit, 40);
    expect(sq).toEqual({ sx: 10, sy: 10, tx: -380, ty: 0 });
    // Row i and column 40 + i sit on one 45° line.
    for (const i of [0, 3, 9]) expect(sq.tx + (40 + i) * sq.sx - (sq.ty + i * sq.sy)).toBe(sq.tx + 40 * sq.sx);
    expect(cellAt(sq, 20, 0, 10, 100)).toEqual({ row: 0, col: 40 });
    // Near the right edge the clamp keeps the matrix covering the view.
    expect(clampViewport(squareAt(fit, 95), fit, 10, 100, 500, 100).tx).toBe(500 - 100 * 10);
    expect(Math.abs(squareAt(fit, 1).tx)).toBe(0);
    // What a heatmap opens on: the fit, unless a lesson step asks, and then only when the fit is narrower.
    expect(openingView(fit, null, 40)).toBe(fit);
    expect(openingView(fit, 'last-prior', 40)).toEqual(sq);
    expect(openingView(fit, 'last-prior', undefined)).toBe(fit);
    const wide = fitViewport(10, 20, 500, 100); // 25 px per column, 10 per row: already wider than tall
    expect(openingView(wide, 'last-prior', 5)).toBe(wide);
  });

  it('moves a zoomed view the least that brings a selected cell into it', () => {
    const v = { sx: 10, sy: 10, tx: -200, ty: 0 }; // columns 20–69 of a 500 × 100 view
    expect(followCell(v, { row: 1, col: 30 }, 500, 100)).toBe(v); // in view: unchanged
    expect(followCell(v, { row: 1, col: 5 }, 500, 100).tx).toBe(-50); // left of it: the cell at the left edge
    const right = followCell(v, { row: 12, col: 80 }, 500, 100);
    expect(cellAt(right, 499, 99, 20, 100)).toEqual({ row: 12, col: 80 }); // right of and below: at the far corner
  });
  it('draws the r-band over exactly the cells the diagonal ratio sums', () => {
    const S = 40;
    const prior = { start: 10, length: 7 };
    const answerRows = 9;
    const r = 2;
    const rows = new Float64Array(answerRows * S).map((_, k) => ((k * 7919) % 13) / 1000);
    const band = diagonalBand(prior, answerRows, r);
    let inBand = 0;
    for (const b of band) for (let j = b.from; j <= b.to; j++) inBand += rows[b.row * S + j]!;
    expect(inBand / answerRows).toBeCloseTo(diagonalRatio(slab(rows, answerRows, S), [prior], r).total, 12);
    // Rows past the answer's end + r have no band.
    expect(band.map((b) => b.row)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(diagonalBand(prior, 12, 2).length).toBe(9);
    // The copy-aligned band, shifted: the cells the diagonal sums with that shift.
    const shifted = diagonalBand(prior, answerRows, r, -4);
    let inShifted = 0;
    for (const b of shifted) for (let j = b.from; j <= b.to; j++) inShifted += rows[b.row * S + j]!;
    expect(inShifted / answerRows).toBeCloseTo(diagonalRatio(slab(rows, answerRows, S), [prior], r, [-4]).total, 12);
    expect(shifted[0]!.row).toBe(2); // rows 0 and 1 centre before the answer's start (−4 ± 2 < 0)
  });
});

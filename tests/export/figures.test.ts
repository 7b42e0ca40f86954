import { describe, expect, it } from 'vitest';
import type { PolicyResult } from '../../src/analysis/analyze';
import { figuresCsv, figuresJson, perAnswerCsv, turnsCsv } from '../../src/export/figures';
import { heatmapSvg } from '../../src/export/heatmap-svg';
import { slab } from '../../src/metrics/slab';
import { BAND_COLOR, colorLut, scaleIndex } from '../../src/palette';

describe('exports', () => {
  const FROM = { model: 'acme/tiny@0123abc', revision: 'v2', backend: 'wasm', precision: 'q4', head: 'mean' as const };
  const result = {
    policy: 'clip:12:1',
    label: 'Clip-12→1',
    turn: 4,
    layer: 3,
    radius: 5,
    tokens: [
      { id: 1, text: 'a', category: 'sink', message: 0 },
      { id: 2, text: 'b', category: 'prior', message: 1 },
      { id: 3, text: 'c', category: 'current', message: 2 },
    ],
    messages: [
      { kind: 'system', generated: false },
      { kind: 'assistant', generated: false },
      { kind: 'current', generated: true },
    ],
    ratios: { sink: 0.5, system: 0, user: 0.1, prior: 0.25, current: 0.15 },
    diagonal: 0.125,
    diagonalCopyAligned: 0.2,
    diagonalPerAnswer: [{ message: 1, turn: 3, value: 0.125 }],
    copy: [{ message: 1, turn: 3, longestRun: 4, ngramOverlap: 0.5, shift: 2 }],
    cost: [
      { turn: 3, contextTokens: 10, prefilled: 10 },
      { turn: 4, contextTokens: 14, prefilled: 4 },
    ],
    attention: { layer: 3, mean: slab(new Float32Array([0.5, 0.25, 0.25]), 1, 3, 2), perHead: null },
    headsOff: ['0.4', '1.1'],
    headsOffBy: 'mean',
  } as unknown as PolicyResult;
  it('CSV: tidy tables, one kind of row per file (per policy, per prior assistant answer, per turn)', () => {
    const csv = figuresCsv([result], FROM).split('\n');
    expect(csv[0]).toBe(
      'policy,label,answer,turn,layer,radius,tokens,sink,system,user,prior,current,diagonal,diagonal_copy_aligned,context_tokens,prefilled,model,revision,backend,precision,heads_off,heads_off_by',
    );
    expect(csv[1]).toBe('clip:12:1,Clip-12→1,model,4,3,5,3,0.5,0,0.1,0.25,0.15,0.125,0.2,14,4,acme/tiny@0123abc,v2,wasm,q4,0.4 1.1,mean');
    expect(csv).toHaveLength(3); // the header, one row, the final newline
    expect(perAnswerCsv([result], FROM).split('\n')).toEqual([
      'policy,turn,prior_turn,diagonal,longest_copied_run,copy_offset,ngram_overlap,model,heads_off',
      'clip:12:1,4,3,0.125,4,2,0.5,acme/tiny@0123abc,0.4 1.1',
      '',
    ]);
    expect(turnsCsv([result], FROM).split('\n')).toEqual([
      'policy,turn,context_tokens,prefilled,model',
      'clip:12:1,3,10,10,acme/tiny@0123abc',
      'clip:12:1,4,14,4,acme/tiny@0123abc',
      '',
    ]);
  });
  it('compared models: each row names the model that scored it', () => {
    // A compared model keeps every head on: its rows say so (heads_off empty).
    const other = { ...result, slot: 1, label: 'Clip-12→1 · model B', headsOff: undefined } as PolicyResult;
    const fromOf = (r: PolicyResult) => (r.slot ? { ...FROM, model: 'acme/twin', precision: 'none' } : FROM);
    expect(
      perAnswerCsv([result, other], fromOf)
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',').slice(-2).join(',')),
    ).toEqual(['acme/tiny@0123abc,0.4 1.1', 'acme/twin,']);
    expect(
      turnsCsv([result, other], fromOf)
        .split('\n')
        .slice(1, 5)
        .map((l) => l.split(',').pop()),
    ).toEqual(['acme/tiny@0123abc', 'acme/tiny@0123abc', 'acme/twin', 'acme/twin']);
    expect(figuresCsv([result, other], fromOf).split('\n')[2]).toMatch(/,acme\/twin,v2,wasm,none,,$/);
    const doc = JSON.parse(figuresJson([result, other], fromOf));
    expect(doc.model).toBe('acme/tiny@0123abc');
    expect(doc.results.map((r: { model?: string }) => r.model)).toEqual([undefined, 'acme/twin']);
  });
  it('JSON leaves the attention arrays out', () => {
    const doc = JSON.parse(figuresJson([result], FROM));
    expect(doc).toMatchObject({ model: 'acme/tiny@0123abc', revision: 'v2', backend: 'wasm', precision: 'q4', head: 'mean' });
    expect(doc.results[0].answer).toBe('model'); // the model wrote the scored answer in the page
    expect(doc.results[0].attention).toBeUndefined();
    expect(doc.results[0].diagonal).toBe(0.125);
  });
  it('SVG: the cells in runs plus the bands, text escaped, blocks averaged above 256 cells', () => {
    const svg = heatmapSvg({
      attention: result.attention!.mean,
      max: 0.25,
      categories: result.tokens.map((t) => t.category),
      title: 'a < b & c',
      band: { priors: [{ start: 1, length: 1 }], radius: 5, answerRow: 0, answerRows: 1 },
    });
    const group = (name: string, doc = svg) => new RegExp(`<g class="${name}"[^>]*>(.*?)</g>`).exec(doc)![1]!;
    expect(group('cells').match(/M[\d.]+ [\d.]+h/g)!.length).toBeGreaterThanOrEqual(1); // one row × three keys, in runs of one colour
    expect(group('bands').match(/<rect /g)!.length).toBe(3 + 1);
    expect(svg).toContain('a &lt; b &amp; c');
    // A figure for slides: no seams, a legend, axes, the colour scale, the r-band's two edges.
    expect(svg).toContain('shape-rendering="crispEdges"');
    for (const name of ['sink (first 3 tokens)', 'prior assistant', 'r-band (r = 5)', 'key tokens', 'query tokens', 'attention weight', '0.250'])
      expect(svg).toContain(name);
    expect(svg.match(/<polyline /g)!.length).toBe(4);
    // The band's edges in a colour the attention scale never takes: far (in RGB) from every one of its 256 colours.
    expect(svg.match(new RegExp(`stroke="${BAND_COLOR}"`, 'g'))!.length).toBe(2);
    const band = [1, 3, 5].map((k) => parseInt(BAND_COLOR.slice(k, k + 2), 16));
    const lut = colorLut();
    const nearest = Math.min(...Array.from({ length: 256 }, (_, i) => Math.hypot(...band.map((v, c) => v - lut[i * 3 + c]!))));
    expect(nearest).toBeGreaterThan(120);
    const big = heatmapSvg({ attention: slab(new Float32Array(2 * 600).fill(0.001), 2, 600), max: 0.01, categories: Array(600).fill('user'), title: 't' });
    expect(big).toContain('means over 1×3 blocks');
    // One colour along each row: one run per row, both in one path.
    expect(group('cells', big).match(/<path /g)!.length).toBe(1);
    expect(group('cells', big).match(/M[\d.]+ [\d.]+h/g)!.length).toBe(2);
    expect(group('bands', big).match(/<rect /g)!.length).toBe(200 + 2);
  });
  it('SVG: runs of one colour are one rectangle of one path per colour, and cover exactly the cells, each in its own colour', () => {
    // A causal matrix of 2,030 tokens, as the full matrix of a long conversation: most weights tiny, a few large.
    const n = 2030;
    const data = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) data[i * n + j] = j < 3 ? 0.3 : (i * 31 + j * 17) % 97 === 0 ? 0.05 : 0.0004;
    const svg = heatmapSvg({ attention: slab(data, n, n), max: 0.1, categories: Array(n).fill('user'), title: 'long' });
    // A rect per cell wrote 4.6 MB for this matrix.
    expect(svg.length).toBeLessThan(1_000_000);
    const cells = /<g class="cells"[^>]*>(.*?)<\/g>/.exec(svg)![1]!;
    const runs = [...cells.matchAll(/<path fill="(#[0-9a-f]{6})" d="([^"]*)"\/>/g)].flatMap(([, fill, d]) =>
      [...d!.matchAll(/M([\d.]+) ([\d.]+)h([\d.]+)v[\d.]+h-[\d.]+z/g)].map((m) => ({ fill: fill!, x: Number(m[1]), y: Number(m[2]), w: Number(m[3]) })),
    );
    // Every row's runs tile its block columns, each run the colour of every block it covers (block means, √ scale, 64 levels).
    const b = Math.ceil(n / 256);
    const cols = Math.ceil(n / b);
    const cw = 640 / cols;
    const x0 = Math.min(...runs.map((r) => r.x));
    const lut = colorLut();
    const hex = (v: number) => {
      const k = Math.min(255, Math.round(scaleIndex(v, 0.1) / 4) * 4);
      return `#${[0, 1, 2].map((c) => lut[k * 3 + c]!.toString(16).padStart(2, '0')).join('')}`;
    };
    const ys = [...new Set(runs.map((r) => r.y))].sort((a, c) => a - c);
    expect(ys).toHaveLength(cols);
    for (const [rowIndex, y] of ys.entries()) {
      if (rowIndex % 37) continue; // every 37th row, checked cell by cell
      let c = 0;
      for (const run of runs.filter((r) => r.y === y).sort((a, z) => a.x - z.x)) {
        const from = Math.round((run.x - x0) / cw);
        const width = Math.round(run.w / cw);
        expect(from).toBe(c);
        for (let k = from; k < from + width; k++) {
          let s = 0;
          let cnt = 0;
          for (let i = rowIndex * b; i < Math.min(n, (rowIndex + 1) * b); i++)
            for (let j = k * b; j < Math.min(n, (k + 1) * b); j++) {
              s += data[i * n + j]!;
              cnt++;
            }
          expect(hex(s / cnt)).toBe(run.fill);
        }
        c = from + width;
      }
      expect(c).toBe(cols);
    }
  });
});

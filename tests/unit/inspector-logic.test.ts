import { describe, expect, it } from 'vitest';
import { changedChars } from '../../src/state/inspector/conversation-slice';
import type { PolicyResult } from '../../src/analysis/analyze';
import { figuresCsv, figuresJson, perAnswerCsv, roundsCsv } from '../../src/export/figures';
import { heatmapSvg } from '../../src/export/heatmap-svg';
import { diagonalRatio } from '../../src/metrics/inertia';
import { slab } from '../../src/metrics/slab';
import { focusOf, hoverReducer, NO_HOVER } from '../../src/state/hover-lock';
import { decodeView, DEFAULT_VIEW, encodeView, fromBase64Url, MAX_LINK_CONVERSATION, toBase64Url } from '../../src/state/url-state';
import { categoryRuns, cellAt, clampViewport, fitViewport, followCell, heatmapPixels, zoomAt } from '../../src/views/heatmap/heatmap-model';
import { diagonalBand } from '../../src/metrics/band';
import { colorLut, kthSmallest, scaleIndex, scaleMax } from '../../src/palette';

describe('hover lock', () => {
  const a = { row: 1, col: 2 };
  const b = { row: 3, col: 4 };
  it('follows the pointer until a click locks a cell, then ignores movement', () => {
    let s = hoverReducer(NO_HOVER, { type: 'move', at: a });
    expect(focusOf(s)).toEqual(a);
    s = hoverReducer(s, { type: 'click', at: a });
    expect(s.locked).toEqual(a);
    s = hoverReducer(s, { type: 'move', at: b });
    expect(focusOf(s)).toEqual(a);
    expect(s.hover).toEqual(b);
  });
  it('moves the lock on a click elsewhere; frees it on a second click, a click outside, or Escape', () => {
    let s = hoverReducer(hoverReducer(NO_HOVER, { type: 'click', at: a }), { type: 'click', at: b });
    expect(s.locked).toEqual(b);
    expect(hoverReducer(s, { type: 'click', at: { ...b } }).locked).toBeNull();
    expect(hoverReducer(s, { type: 'click', at: null }).locked).toBeNull();
    s = hoverReducer(s, { type: 'escape' });
    expect(s.locked).toBeNull();
    expect(focusOf(hoverReducer(s, { type: 'move', at: null }))).toBeNull();
  });
  it('returns the same state for a move to the same cell (no re-render)', () => {
    const s = hoverReducer(NO_HOVER, { type: 'move', at: a });
    expect(hoverReducer(s, { type: 'move', at: { ...a } })).toBe(s);
  });
});

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
  });
});

describe('the link', () => {
  it('round-trips every field, the conversation included', () => {
    const text = '[{"role":"user","content":"héllo ✓"},{"role":"assistant","content":"hi"}]';
    const view = {
      ...DEFAULT_VIEW,
      model: 'acme/tiny',
      revision: 'v2',
      hub: 'http://127.0.0.1:9/hub',
      backend: 'wasm' as const,
      compared: [{ model: 'acme/twin', revision: 'v1', quant: 'none' as const }],
      policies: ['clip:12:1', 'ao'],
      compare: true,
      turn: 3,
      head: 2,
      layer: 1,
      radius: 7,
    };
    const { query, fragment, conversationCarried } = encodeView(view, text, null);
    expect(conversationCarried).toBe(true);
    // The conversation is in the fragment, which the browser never sends to the page's server.
    expect(query).not.toContain('conv=');
    expect(fragment).toMatch(/^conv=/);
    const back = decodeView(`?${query}`, `#${fragment}`);
    expect(back.problems).toEqual([]);
    expect(back.view).toEqual({ ...view, conversation: { text } });
    expect(decodeView(`?${encodeView({ ...DEFAULT_VIEW, backend: 'webgpu' }, 'x', null).query}`).view.backend).toBe('webgpu');
    expect(decodeView('?backend=tpu').problems).toContain('backend=tpu is not auto, wasm or webgpu');
    // The weight precision of each model travels with the link, each compared model's with it.
    const three = [
      { model: 'demo', revision: 'main', quant: 'q8' as const },
      { model: 'acme/other', revision: 'v3', quant: 'none' as const },
      { model: 'demo-cpl', revision: 'main', quant: 'q4g128' as const },
    ];
    const q3 = encodeView({ ...DEFAULT_VIEW, quant: 'q4g128', compared: three }, null, null).query;
    expect(q3).toBe('model=demo&q=q4g128&policy=full&mb=demo&qb=q8&mc=acme%2Fother&mcrev=v3&md=demo-cpl&qd=q4g128');
    expect(decodeView(`?${q3}`).view).toMatchObject({ quant: 'q4g128', compared: three });
    expect(decodeView('?q=q3').problems).toEqual(['q=q3 is not none, q8, q4, q4g128']);
    // A compared model: an embedded model, or a Hub id with its revision (offered; the page loads it only on a click).
    expect(decodeView('?mb=acme/other&mbrev=v3').view.compared).toEqual([{ model: 'acme/other', revision: 'v3', quant: 'none' }]);
    expect(encodeView({ ...DEFAULT_VIEW, compared: [{ model: 'demo-cpl', revision: 'v3', quant: 'none' }] }, null, null).query).not.toContain('mbrev');
    // The slots are read in order: C without B is not a link this app writes.
    expect(decodeView('?mc=demo').view.compared).toEqual([]);
    expect(decodeView('?mb=<script>&mbrev=../x').problems).toEqual(['mb=<script> is not demo, demo-cpl or a Hub model id (owner/name)']);
    expect(decodeView('?mb=acme/x&mbrev=../x&qb=q2').problems).toEqual(['mbrev=../x is not a branch, tag or commit name', 'qb=q2 is not none, q8, q4, q4g128']);
  });
  it('names an unchanged example instead of carrying its text, and says when a conversation is too long', () => {
    expect(decodeView(`?${encodeView(DEFAULT_VIEW, 'x', 'maze').query}`).view.conversation).toEqual({ example: 'maze' });
    const long = 'a'.repeat(MAX_LINK_CONVERSATION);
    const e = encodeView(DEFAULT_VIEW, long, null);
    expect(e.conversationCarried).toBe(false);
    expect(e.query).not.toContain('conv=');
    expect(e.fragment).toBe('');
  });
  it('still reads a conversation from the query string of an older link', () => {
    const { fragment } = encodeView(DEFAULT_VIEW, 'hello', null);
    expect(decodeView(`?${fragment}`).view.conversation).toEqual({ text: 'hello' });
  });
  it('skips what it cannot read and names it', () => {
    const { view, problems } = decodeView('?policy=clip:3:5,bogus,ao&turn=0&head=x&r=inf&conv=%%%');
    expect(view.policies).toEqual(['ao']);
    expect(view.turn).toBeNull();
    expect(view.head).toBe('mean');
    expect(view.radius).toBe(Infinity);
    expect(problems.join('\n')).toMatch(/clip:3:5.*L < H/);
    expect(problems.join('\n')).toContain('unknown policy "bogus"');
    expect(problems.join('\n')).toContain('turn=0');
    expect(problems.join('\n')).toContain('conversation in the link is damaged');
  });
  it('base64url survives any UTF-8', () => {
    const s = 'ü\n"<b>"🙂 +/=';
    expect(fromBase64Url(toBase64Url(s))).toBe(s);
    expect(toBase64Url(s)).not.toMatch(/[+/=]/);
  });
});

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
    diagonalPerAnswer: [{ message: 1, round: 3, value: 0.125 }],
    copy: [{ message: 1, round: 3, longestRun: 4, ngramOverlap: 0.5, shift: 2 }],
    cost: [
      { round: 3, contextTokens: 10, prefilled: 10 },
      { round: 4, contextTokens: 14, prefilled: 4 },
    ],
    attention: { layer: 3, mean: slab(new Float32Array([0.5, 0.25, 0.25]), 1, 3, 2), perHead: null },
  } as unknown as PolicyResult;
  it('CSV: tidy tables, one kind of row per file (per policy, per prior assistant answer, per turn)', () => {
    const csv = figuresCsv([result], FROM).split('\n');
    expect(csv[0]).toBe(
      'policy,label,answer,turn,layer,radius,tokens,sink,system,user,prior,current,diagonal,diagonal_copy_aligned,context_tokens,prefilled,model,revision,backend,precision',
    );
    expect(csv[1]).toBe('clip:12:1,Clip-12→1,model,4,3,5,3,0.5,0,0.1,0.25,0.15,0.125,0.2,14,4,acme/tiny@0123abc,v2,wasm,q4');
    expect(csv).toHaveLength(3); // the header, one row, the final newline
    expect(perAnswerCsv([result], FROM).split('\n')).toEqual([
      'policy,turn,prior_turn,diagonal,longest_copied_run,copy_offset,ngram_overlap,model',
      'clip:12:1,4,3,0.125,4,2,0.5,acme/tiny@0123abc',
      '',
    ]);
    expect(roundsCsv([result], FROM).split('\n')).toEqual([
      'policy,turn,context_tokens,prefilled,model',
      'clip:12:1,3,10,10,acme/tiny@0123abc',
      'clip:12:1,4,14,4,acme/tiny@0123abc',
      '',
    ]);
  });
  it('compared models: each row names the model that scored it', () => {
    const other = { ...result, slot: 1, label: 'Clip-12→1 · model B' } as PolicyResult;
    const fromOf = (r: PolicyResult) => (r.slot ? { ...FROM, model: 'acme/twin', precision: 'none' } : FROM);
    expect(
      perAnswerCsv([result, other], fromOf)
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(',').pop()),
    ).toEqual(['acme/tiny@0123abc', 'acme/twin']);
    expect(
      roundsCsv([result, other], fromOf)
        .split('\n')
        .slice(1, 5)
        .map((l) => l.split(',').pop()),
    ).toEqual(['acme/tiny@0123abc', 'acme/tiny@0123abc', 'acme/twin', 'acme/twin']);
    expect(figuresCsv([result, other], fromOf).split('\n')[2]).toMatch(/,acme\/twin,v2,wasm,none$/);
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
  it('SVG: one rect per cell plus the bands, text escaped, blocks averaged above 256 cells', () => {
    const svg = heatmapSvg({
      attention: result.attention!.mean,
      max: 0.25,
      categories: result.tokens.map((t) => t.category),
      title: 'a < b & c',
      band: { priors: [{ start: 1, length: 1 }], radius: 5, answerRow: 0, answerRows: 1 },
    });
    const group = (name: string, doc = svg) => new RegExp(`<g class="${name}"[^>]*>(.*?)</g>`).exec(doc)![1]!;
    expect(group('cells').match(/<rect /g)!.length).toBe(3); // one row × three keys
    expect(group('bands').match(/<rect /g)!.length).toBe(3 + 1);
    expect(svg).toContain('a &lt; b &amp; c');
    // A figure for slides: no seams, a legend, axes, the colour scale, the r-band's two edges.
    expect(svg).toContain('shape-rendering="crispEdges"');
    for (const name of ['sink (first 3 tokens)', 'prior assistant', 'r-band (r = 5)', 'key tokens', 'query tokens', 'attention weight', '0.250'])
      expect(svg).toContain(name);
    expect(svg.match(/<polyline /g)!.length).toBe(4);
    const big = heatmapSvg({ attention: slab(new Float32Array(2 * 600).fill(0.001), 2, 600), max: 0.01, categories: Array(600).fill('user'), title: 't' });
    expect(big).toContain('means over 1×3 blocks');
    expect(group('cells', big).match(/<rect /g)!.length).toBe(2 * 200);
    expect(group('bands', big).match(/<rect /g)!.length).toBe(200 + 2);
  });
});

describe('a paste is scored at once, typing after a pause', () => {
  it('counts the characters between the common prefix and suffix', () => {
    expect(changedChars('hello world', 'hello world')).toBe(0);
    expect(changedChars('hello world', 'hello, world')).toBe(1);
    expect(changedChars('abc', 'aXYZc')).toBe(3);
    expect(changedChars('', 'x'.repeat(500))).toBe(500);
    expect(changedChars('aaaa', 'aa')).toBe(2);
  });
});

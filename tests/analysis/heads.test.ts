import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzePolicyLayers } from '../../src/analysis/analyze';
import { analyzeHeads } from '../../src/analysis/heads';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { CATEGORY_OF } from '../../src/context/apply';
import { applyPolicy } from '../../src/context/apply';
import { asRenderer, renderContext } from '../../src/context/render';
import { parsePolicy } from '../../src/context/policy';
import { selectTurn } from '../../src/conversation/turns';
import { CATEGORIES } from '../../src/metrics/categories';
import { categoryRatios, diagonalRatio } from '../../src/metrics/inertia';
import { headOf, slab } from '../../src/metrics/slab';
import { DEMO_MODEL_PATH } from '../../src/model/demo';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { referenceForward } from '../../src/model/graph/reference';
import { openModel } from '../../src/runtime/open-model';
import { FAMILY_CASES } from '../helpers/family-cases';
import { MAZE_TEXT } from '../helpers/maze';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

const TOL = 1e-5;
const maze = parseConversation(MAZE_TEXT).conversation!;

/**
 * Every layer and head in one pass: the graph reduces each layer's attention to each head's category shares
 * and diagonal per prior answer. Against the float64 reference forward (its attention at every layer, read
 * by the same metric functions) within 1e-5, and against the analysis that fetches every layer's rows.
 */
describe('every layer and head in one pass (head-figure graphs)', () => {
  // One case of each family: the first the family list has.
  const oneEach = FAMILY_CASES.filter(([, o], i) => FAMILY_CASES.findIndex(([, x]) => x.family === o.family) === i);
  for (const [name, opts] of oneEach) {
    it(`${name}: each layer's and head's shares and diagonal equal the float64 reference's`, async () => {
      const files = tinyModelFiles(opts);
      const m = await openModel(memorySource(files), { headFigures: true, inspectLayers: 'all' });
      const got = await analyzeHeads(m, maze, 'full', { radius: 5 });
      // The reference: the same rendering, the attention of every layer in float64.
      const r = renderContext(asRenderer(m.tokenizer), applyPolicy(maze, selectTurn(maze), parsePolicy('full')));
      const cur = r.contentSpans[r.messages.length - 1]!;
      const priors = r.messages.flatMap((msg, k) => (CATEGORY_OF[msg.kind] === 'prior' ? [r.contentSpans[k]!] : []));
      const { spec } = m.checkpoint;
      const weights = resolveWeights(spec, m.checkpoint);
      expect(got.map((l) => l.layer)).toEqual(Array.from({ length: spec.numLayers }, (_, l) => l));
      for (const layer of got) {
        const ref = await referenceForward(spec, weights, r.ids, layer.layer);
        const S = r.ids.length;
        const rows = new Float32Array(spec.numHeads * cur.length * S);
        for (let h = 0; h < spec.numHeads; h++) {
          for (let i = 0; i < cur.length; i++)
            rows.set(ref.attention.subarray((h * S + cur.start + i) * S, (h * S + cur.start + i + 1) * S), (h * cur.length + i) * S);
        }
        const all = slab(rows, cur.length, S, cur.start, spec.numHeads);
        for (let h = 0; h < spec.numHeads; h++) {
          const head = headOf(all, h);
          const want = categoryRatios(head, r.categories);
          const d = diagonalRatio(head, priors, 5);
          for (const c of CATEGORIES) expect(Math.abs(layer.perHead[h]!.ratios[c] - want[c]), `layer ${layer.layer} head ${h} ${c}`).toBeLessThanOrEqual(TOL);
          expect(Math.abs(layer.perHead[h]!.diagonal - d.total)).toBeLessThanOrEqual(TOL);
          d.perAnswer.forEach((v, p) => expect(Math.abs(layer.perHead[h]!.diagonalPerAnswer[p]! - v)).toBeLessThanOrEqual(TOL));
        }
      }
      await m.session.release();
    });
  }

  it('on the demo model: every layer equals the analysis that fetches its rows, head mean and each head', async () => {
    const conv = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!;
    const m = await openModel(dirSource(DEMO_MODEL_PATH), { headFigures: true, inspectLayers: 'all' });
    const layers = Array.from({ length: m.checkpoint.spec.numLayers }, (_, l) => l);
    for (const policy of ['full', 'clip:12:1']) {
      const got = await analyzeHeads(m, conv, policy);
      const want = await analyzePolicyLayers(m, conv, policy, layers);
      for (const w of want) {
        const g = got[w.layer]!;
        for (const c of CATEGORIES) expect(Math.abs(g.ratios[c] - w.ratios[c])).toBeLessThanOrEqual(TOL);
        expect(Math.abs(g.diagonal - w.diagonal)).toBeLessThanOrEqual(TOL);
        w.perHead.forEach((h, k) => {
          expect(Math.abs(g.perHead[k]!.diagonal - h.diagonal)).toBeLessThanOrEqual(TOL);
          for (const c of CATEGORIES) expect(Math.abs(g.perHead[k]!.ratios[c] - h.ratios[c])).toBeLessThanOrEqual(TOL);
        });
        w.diagonalPerAnswer.forEach((d, p) => expect(Math.abs(g.diagonalPerAnswer[p]! - d.value)).toBeLessThanOrEqual(TOL));
      }
    }
    await m.session.release();
  });
});

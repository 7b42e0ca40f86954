import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint';
import { buildGraph } from '../../src/model/graph';
import { referenceForward } from '../../src/model/reference';
import { resolveWeights } from '../../src/model/weights';
import { ModelSession } from '../../src/runtime/ort-runtime';
import { maxAbsDiff } from '../helpers/compare';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

/** onnxruntime-node runs the same graph (the bench's CPU reference): it must compute the same numbers. */
describe('the native runtime (onnxruntime-node) against the float64 reference', () => {
  it('logits, attention and KV-cache decoding within 1e-4', async () => {
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'qwen2', heads: 4, kvHeads: 2, seed: 5 })));
    const { spec } = ckpt;
    const weights = resolveWeights(spec, ckpt);
    const session = await ModelSession.create(buildGraph(spec, weights, { kvCache: true }), spec, { prefer: ['native'] });
    expect(session.report.backend).toBe('native');
    expect(session.report.threads).toBeNull();
    const S = 23;
    const V = spec.vocabSize;
    const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % V);
    const ref = referenceForward(spec, weights, ids);
    const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
    expect(maxAbsDiff(out.logits!.data, ref.logits)).toBeLessThanOrEqual(1e-4);
    expect(maxAbsDiff(out.attention[0]!.perHead!, ref.attention)).toBeLessThanOrEqual(1e-4);
    let step = await session.forward({ ids: ids.slice(0, 20), layers: [], keepCache: true });
    for (let t = 20; t < S; t++) {
      step = await session.forward({ ids: [ids[t]!], layers: [], keepCache: true, past: step.present! });
      expect(maxAbsDiff(step.logits!.data, ref.logits.subarray(t * V, (t + 1) * V))).toBeLessThanOrEqual(1e-4);
    }
    await session.release();
  });

  it("beside it, wasm runs on every core (at most 8), not on ORT's default of half of them", async () => {
    const { cpus } = await import('node:os');
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', seed: 6 })));
    const session = await ModelSession.create(buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt)), ckpt.spec, { prefer: ['wasm'] });
    expect(session.report.backend).toBe('wasm');
    expect(session.report.threads).toBe(Math.min(8, cpus().length));
    await session.release();
  });
});

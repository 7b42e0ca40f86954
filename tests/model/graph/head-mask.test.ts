import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { buildGraph } from '../../../src/model/graph/graph';
import { referenceForward } from '../../../src/model/graph/reference';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { maxAbsDiff } from '../../helpers/compare';
import { FAMILY_CASES } from '../../helpers/family-cases';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles } from '../../helpers/tiny-model';

const TOL = 1e-4;

/**
 * Switching heads off: head_mask multiplies each head's output before o_proj. The graph with some heads
 * zeroed equals the float64 reference forward with the same heads' outputs zeroed, in every layer's
 * attention (a head switched off in layer 0 changes what layer 1 reads) and in the logits; every head on
 * equals no mask at all.
 */
describe('head_mask: heads switched off, against the float64 reference with the same heads zeroed (Node wasm)', () => {
  for (const [name, opts] of FAMILY_CASES) {
    it(name, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const { spec } = ckpt;
      const weights = resolveWeights(spec, ckpt);
      const last = spec.numLayers - 1;
      const graph = buildGraph(spec, weights, { inspectLayers: [0, last] });
      const session = await ModelSession.create(graph, spec);
      const S = 19;
      const ids = Array.from({ length: S }, (_, i) => (i * 31 + 7) % spec.vocabSize);
      // Off: the first head of layer 0 and the last of the final layer (a model of one head keeps it in layer 0).
      const mask = new Float32Array(spec.numLayers * spec.numHeads).fill(1);
      if (spec.numHeads > 1) mask[0] = 0;
      mask[last * spec.numHeads + spec.numHeads - 1] = 0;
      const req = { ids, attnRows: [0, S] as [number, number], logitRows: [0, S] as [number, number], perHead: true };
      const off = await session.forward({ ...req, headMask: mask });
      const on = await session.forward({ ...req, headMask: new Float32Array(mask.length).fill(1) });
      const plain = await session.forward(req);
      for (const layer of [0, last]) {
        const ref = await referenceForward(spec, weights, ids, layer, mask);
        expect(maxAbsDiff(off.attention.find((a) => a.layer === layer)!.perHead!.data, ref.attention)).toBeLessThanOrEqual(TOL);
        if (layer === last) expect(maxAbsDiff(off.logits!.data, ref.logits)).toBeLessThanOrEqual(TOL);
      }
      // The mask really changes the model, and all ones is the model itself.
      expect(maxAbsDiff(off.logits!.data, plain.logits!.data)).toBeGreaterThan(1e-6);
      expect(maxAbsDiff(on.logits!.data, plain.logits!.data)).toBe(0);
      await expect(session.forward({ ...req, headMask: new Float32Array(3) })).rejects.toThrow(/a head mask has \d+ values/);
      await session.release();
    });
  }

  it('fused attention (GroupQueryAttention) in the layers not inspected takes the mask too', async () => {
    const opts = FAMILY_CASES.find(([, o]) => o.family === 'llama' && (o.heads ?? 0) >= 4)?.[1] ?? FAMILY_CASES[0]![1];
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ ...opts, layers: 3 })));
    const { spec } = ckpt;
    const weights = resolveWeights(spec, ckpt);
    const last = spec.numLayers - 1;
    const graph = buildGraph(spec, weights, { inspectLayers: [last], attention: 'fused' });
    const session = await ModelSession.create(graph, spec);
    const ids = Array.from({ length: 13 }, (_, i) => (i * 17 + 3) % spec.vocabSize);
    const mask = new Float32Array(spec.numLayers * spec.numHeads).fill(1);
    mask[spec.numHeads + 1] = 0; // layer 1, fused when the head size allows it
    const got = await session.forward({ ids, attnRows: [0, ids.length], logitRows: [0, ids.length], perHead: true, headMask: mask });
    const ref = await referenceForward(spec, weights, ids, last, mask);
    expect(maxAbsDiff(got.logits!.data, ref.logits)).toBeLessThanOrEqual(TOL);
    expect(maxAbsDiff(got.attention[0]!.perHead!.data, ref.attention)).toBeLessThanOrEqual(TOL);
    await session.release();
  });
});

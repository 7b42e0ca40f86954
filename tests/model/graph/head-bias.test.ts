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
 * Mean ablation in head-figure graphs: each head's mean output over the pass's tokens is an output
 * (head_out_mean_l{L}), and head_bias adds a constant to each head's output after the mask. A pass with some
 * heads' mask at 0 and their own mean as the bias equals the float64 reference forward doing the same, in
 * every layer's attention and the logits; the means equal the reference's, every layer.
 */
describe('mean ablation: head means out, head_bias in, against the float64 reference (Node wasm)', () => {
  const oneEach = FAMILY_CASES.filter(([, o], i) => FAMILY_CASES.findIndex(([, x]) => x.family === o.family) === i);
  for (const [name, opts] of oneEach) {
    it(name, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const { spec } = ckpt;
      const weights = resolveWeights(spec, ckpt);
      const last = spec.numLayers - 1;
      const session = await ModelSession.create(buildGraph(spec, weights, { inspectLayers: [0, last], headFigures: true }), spec);
      const S = 17;
      const ids = Array.from({ length: S }, (_, i) => (i * 29 + 3) % spec.vocabSize);
      const req = { ids, attnRows: [0, S] as [number, number], logitRows: [0, S] as [number, number], perHead: true };
      const plain = await session.forward({ ...req, headOutputMeans: true });
      const ref0 = await referenceForward(spec, weights, ids, last);
      expect(maxAbsDiff(plain.headOutputMeans!, ref0.headOutputMeans)).toBeLessThan(TOL);
      // The first head of layer 0 replaced by its own mean output.
      const mask = new Float32Array(spec.numLayers * spec.numHeads).fill(1);
      mask[0] = 0;
      const bias = new Float32Array(spec.numLayers * spec.numHeads * spec.headDim);
      bias.set(plain.headOutputMeans!.subarray(0, spec.headDim), 0);
      const ablated = await session.forward({ ...req, headMask: mask, headBias: bias });
      for (const layer of [0, last]) {
        const ref = await referenceForward(spec, weights, ids, layer, mask, bias);
        expect(maxAbsDiff(ablated.attention.find((a) => a.layer === layer)!.perHead!.data, ref.attention), `layer ${layer}`).toBeLessThan(TOL);
        if (layer === last) expect(maxAbsDiff(ablated.logits!.data, ref.logits)).toBeLessThan(TOL * 10);
      }
      // The final layer reads something else than with the head on (layer 0's own attention is computed before).
      if (spec.numLayers > 1)
        expect(
          maxAbsDiff(ablated.attention.find((a) => a.layer === last)!.perHead!.data, plain.attention.find((a) => a.layer === last)!.perHead!.data),
        ).toBeGreaterThan(1e-6);
      await session.release();
    });
  }
});

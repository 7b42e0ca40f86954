import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { buildGraph, buildSegments, summarizeGraphs } from '../../../src/model/graph/graph';
import { layersPerSegment, WEBGPU_SEGMENT_PLAN } from '../../../src/model/memory/memory';
import { referenceForward } from '../../../src/model/graph/reference';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { BENCH_MODELS } from '../../helpers/bench-shapes';
import { maxAbsDiff } from '../../helpers/compare';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles } from '../../helpers/tiny-model';

const TOL = 1e-4;

describe('a model split into segments (one onnxruntime session per group of layers)', () => {
  it("gives the whole graph's logits, attention and KV cache (3 layers as 1 + 1 + 1 and 2 + 1, Node wasm)", async () => {
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'qwen3', dtype: 'BF16', layers: 3, heads: 4, kvHeads: 2, seed: 31 })));
    const { spec } = ckpt;
    const weights = resolveWeights(spec, ckpt);
    const S = 21;
    const V = spec.vocabSize;
    const ids = Array.from({ length: S }, (_, i) => (i * 29 + 3) % V);
    const inspect = [0, 2];
    for (const per of [1, 2]) {
      const graphs = buildSegments(spec, weights, { inspectLayers: inspect, kvCache: true }, per);
      expect(graphs.map((g) => g.layers)).toEqual(
        per === 1
          ? [
              [0, 1],
              [1, 2],
              [2, 3],
            ]
          : [
              [0, 2],
              [2, 3],
            ],
      );
      // The segments together list what the whole graph lists.
      const whole = buildGraph(spec, weights, { inspectLayers: inspect, kvCache: true });
      expect(summarizeGraphs(graphs).outputNames).toEqual(whole.outputNames);
      const session = await ModelSession.create(graphs, spec);
      expect(session.report.segments).toBe(graphs.length);
      const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      let worst = 0;
      for (const layer of inspect) {
        const ref = await referenceForward(spec, weights, ids, layer);
        worst = Math.max(worst, maxAbsDiff(out.attention.find((a) => a.layer === layer)!.perHead!.data, ref.attention));
        if (layer === 2) worst = Math.max(worst, maxAbsDiff(out.logits!.data, ref.logits));
      }
      // Prefill, then one token at a time from the cache the segments return.
      const ref = await referenceForward(spec, weights, ids, 2);
      let step = await session.forward({ ids: ids.slice(0, 13), layers: [], keepCache: true });
      for (let t = 13; t < S; t++) {
        step = await session.forward({ ids: [ids[t]!], layers: [], keepCache: true, past: step.present! });
        expect(step.present!.tensors.size).toBe(2 * spec.numLayers);
        worst = Math.max(worst, maxAbsDiff(step.logits!.data, ref.logits.subarray(t * V, (t + 1) * V)));
      }
      console.log(`${graphs.length} segments: max |Δ| logits, attention, decode logits ${worst.toExponential(2)}`);
      expect(worst).toBeLessThanOrEqual(TOL);
      await session.release();
    }
  });

  it('a segment is named by its layers; a bad range is refused', async () => {
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', layers: 2, seed: 32 })));
    const weights = resolveWeights(ckpt.spec, ckpt);
    expect(() => buildGraph(ckpt.spec, weights, { layers: [1, 3] })).toThrow('layers [1, 3) is not a segment of layers 0..1');
    expect(buildGraph(ckpt.spec, weights, { layers: [0, 1] }).outputNames[0]).toBe('hidden_out');
  });

  it("layersPerSegment keeps one segment's explicit attention at 4,096 tokens near 2 GiB", () => {
    const spec = (name: string) => {
      const o = BENCH_MODELS[name]!;
      return { numLayers: o.layers!, numHeads: o.heads!, hiddenSize: o.hidden!, intermediateSize: o.intermediate! } as Parameters<typeof layersPerSegment>[0];
    };
    const explicit = { attention: 'explicit' as const, computeDtype: 'fp32' as const };
    // 135M: 9 heads × 4,096² × 4 B = 604 MB per score tensor, four of them per layer: one layer per segment.
    expect(layersPerSegment(spec('135m'), explicit)).toBe(1);
    expect(layersPerSegment(spec('demo'), explicit)).toBe(1);
    // A 1,024-token plan: 16× less per layer, so 13 of the 135M's layers fit in 2 GiB (4 × 37.7 MB + MLP).
    expect(layersPerSegment(spec('135m'), explicit, { ...WEBGPU_SEGMENT_PLAN, tokens: 1024 })).toBe(
      Math.floor(2 ** 31 / (4 * 9 * 1024 * 1024 * 4 + 1024 * (3 * 1536 + 4 * 576) * 4)),
    );
    // Fused layers hold no [S × S] scores, only the MLP's and projections' 4,096 × 6,912 floats (113 MB).
    expect(layersPerSegment(spec('135m'), { ...explicit, attention: 'fused' })).toBe(18);
  });
});

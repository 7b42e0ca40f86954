import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { chooseComputeDtype } from '../../../src/model/precision/compute-dtype';
import { buildGraph } from '../../../src/model/graph/graph';
import { referenceForward } from '../../../src/model/graph/reference';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { maxAbsDiff } from '../../helpers/compare';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../../helpers/tiny-model';

describe('choosing the compute dtype', () => {
  const half = { weightDtypes: ['BF16'], webgpu: true, adapterHasF16: true };
  it('picks fp16 only for half-precision weights on WebGPU with shader-f16', () => {
    expect(chooseComputeDtype('auto', half).dtype).toBe('fp16');
    expect(chooseComputeDtype('auto', { ...half, weightDtypes: ['F16'] }).dtype).toBe('fp16');
  });
  it('says why it stays in fp32', () => {
    expect(chooseComputeDtype('auto', { ...half, adapterHasF16: false })).toEqual({ dtype: 'fp32', reason: 'fp32: the WebGPU adapter lacks shader-f16' });
    expect(chooseComputeDtype('auto', { ...half, webgpu: false, adapterHasF16: null })).toEqual({ dtype: 'fp32', reason: 'fp32: not running on WebGPU' });
    expect(chooseComputeDtype('auto', { ...half, weightDtypes: ['BF16', 'F32'] }).reason).toBe('fp32: the checkpoint is stored in F32');
    expect(chooseComputeDtype('fp16', { ...half, webgpu: false })).toEqual({ dtype: 'fp16', reason: 'fp16: asked for' });
  });
});

/**
 * The fp16 graph cannot run on this machine's WebGPU adapter (SwiftShader has no shader-f16), but
 * onnxruntime's wasm EP runs the same graph: its structure is checked here against the float64
 * reference, with tolerances of fp16 arithmetic (a wrong cast or a wrong op is off by O(1), not 1e-3).
 */
describe('fp16 compute against the float64 reference on Node wasm', () => {
  const CASES: [string, TinyOptions][] = [
    ['llama F16 GQA', { family: 'llama', dtype: 'F16', heads: 4, kvHeads: 2, seed: 41 }],
    ['qwen3 BF16 tied', { family: 'qwen3', dtype: 'BF16', tie: true, heads: 6, kvHeads: 2, headDim: 12, seed: 42 }],
    ['qwen2 F16 bias', { family: 'qwen2', dtype: 'F16', seed: 43 }],
  ];
  for (const [name, opts] of CASES) {
    it(name, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const weights = resolveWeights(ckpt.spec, ckpt);
      const graph = buildGraph(ckpt.spec, weights, { computeDtype: 'fp16' });
      expect(graph.computeDtype).toBe('fp16');
      const session = await ModelSession.create(graph, ckpt.spec);
      const S = 40;
      const ids = Array.from({ length: S }, (_, i) => (i * 53 + 7) % 259);
      const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      await session.release();
      const ref = await referenceForward(ckpt.spec, weights, ids);
      const scale = Math.max(1, ...Array.from(ref.logits, Math.abs));
      expect(maxAbsDiff(out.logits!.data, ref.logits)).toBeLessThanOrEqual(4e-3 * scale);
      expect(maxAbsDiff(out.attention[0]!.perHead!.data, ref.attention)).toBeLessThanOrEqual(1e-2);
      // Softmax runs in fp32, so the rows still sum to 1 as tightly as in the fp32 graph.
      const mean = out.attention[0]!.mean.data;
      for (let i = 0; i < S; i++) {
        expect(Math.abs(mean.slice(i * S, (i + 1) * S).reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(1e-5);
        for (let j = i + 1; j < S; j++) expect(mean[i * S + j]).toBe(0);
      }
    });
  }
});

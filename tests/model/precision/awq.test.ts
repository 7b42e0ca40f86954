import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { buildGraph } from '../../../src/model/graph/graph';
import { planBackend, planDtype } from '../../../src/model/memory/load-plan';
import { WASM_LIMITS } from '../../../src/model/memory/memory';
import { referenceForward } from '../../../src/model/graph/reference';
import { readBytes } from '../../../src/model/checkpoint/tensor-bytes';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { awqModelFiles, withDequantized } from '../../helpers/awq-checkpoint';
import { maxAbsDiff } from '../../helpers/compare';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../../helpers/tiny-model';

const CASES: [string, TinyOptions, number][] = [
  ['llama GQA rep 2, untied, groups of 16', { family: 'llama', heads: 4, kvHeads: 2, seed: 31 }, 16],
  ['qwen2 with q/k/v bias, tied, groups of 16', { family: 'qwen2', heads: 4, kvHeads: 2, tie: true, seed: 32 }, 16],
  ['qwen3 q/k norm, head_dim 16, groups of 32', { family: 'qwen3', heads: 4, kvHeads: 2, headDim: 16, seed: 33, hidden: 64, intermediate: 96 }, 32],
];

describe('published AWQ checkpoints (GEMM, 4-bit) run packed in MatMulNBits', () => {
  for (const [name, o, group] of CASES) {
    it(`${name}: equals the float64 reference on the test's own dequantization`, async () => {
      const { files, dequantized } = awqModelFiles(o, group);
      const ckpt = await loadCheckpoint(memorySource(files));
      expect(ckpt.spec.awq).toEqual({ bits: 4, groupSize: group });
      const weights = resolveWeights(ckpt.spec, ckpt);
      const q = weights.layers[0]!.q!;
      expect(q.packed?.groupSize).toBe(group);
      expect(q.shape).toEqual([ckpt.spec.numHeads * ckpt.spec.headDim, ckpt.spec.hiddenSize]);
      // The loader's own dequantization (what the reference reads) is the test's.
      for (const [n, d] of dequantized) {
        const t = [...ckpt.tensors.values()].find((x) => x.name === n)!;
        expect(maxAbsDiff(new Float32Array((await readBytes(t.data)).slice().buffer), Float32Array.from(d))).toBe(0);
      }
      const graph = buildGraph(ckpt.spec, weights, { inspectLayers: [0, ckpt.spec.numLayers - 1] });
      expect(graph.weightStorage).toContain("AWQ's 4 bits as published");
      // The packed weights enter the graph at half a byte each: no dequantized copy.
      const packedFiles = graph.externalData.filter((f) => f.data.byteLength === (q.shape[0]! * q.shape[1]!) / 2);
      expect(packedFiles.length).toBeGreaterThan(0);
      const session = await ModelSession.create(graph, ckpt.spec);
      const S = 19;
      const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % ckpt.spec.vocabSize);
      const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      const ref = withDequantized(weights, dequantized);
      for (const layer of [0, ckpt.spec.numLayers - 1]) {
        const r = await referenceForward(ckpt.spec, ref, ids, layer);
        expect(maxAbsDiff(out.attention.find((a) => a.layer === layer)!.perHead!.data, r.attention)).toBeLessThanOrEqual(1e-4);
        if (layer === ckpt.spec.numLayers - 1) expect(maxAbsDiff(out.logits!.data, r.logits)).toBeLessThanOrEqual(1e-4);
      }
      await session.release();
    });
  }

  it('is planned at its packed size, before any weight is read', async () => {
    const { files } = awqModelFiles(CASES[0]![1], 16);
    const ckpt = await loadCheckpoint(memorySource(files));
    const plain = await loadCheckpoint(memorySource(tinyModelFiles({ ...CASES[0]![1], dtype: 'F16' })));
    const plan = (c: typeof ckpt) =>
      planBackend(
        { spec: c.spec, dtypes: new Map([...c.tensors].map(([n, t]) => [n, planDtype(t)])), holdsFileBytes: false, plannedTokens: 128, computeDtype: 'fp32' },
        WASM_LIMITS,
      );
    const [a, p] = [plan(ckpt), plan(plain)];
    // Linear layers at 4 bits (plus a scale and zero per 16) against fp32: far less; embedding and head as before.
    expect(a.weights).toBeLessThan(p.weights);
    // Each packed [N, K] matrix: N·K/2 bytes of weights, a 4-byte scale and a 4-bit zero point per 16 (rows padded to a byte).
    const packed = [...ckpt.tensors.values()].filter((t) => t.packed).map((t) => t.shape as [number, number]);
    const held = packed.reduce((sum, [N, K]) => sum + (N * K) / 2 + N * (K / 16) * 4 + N * Math.ceil(K / 16 / 2), 0);
    const fp32 = packed.reduce((sum, [N, K]) => sum + 4 * N * K, 0);
    expect(p.weights - a.weights).toBe(fp32 - held);
  });

  it('refuses what it does not read, naming the field', async () => {
    const base = JSON.parse(new TextDecoder().decode(awqModelFiles(CASES[0]![1], 16).files.get('config.json')!));
    const load = (q: Record<string, unknown>) => {
      const { files } = awqModelFiles(CASES[0]![1], 16);
      files.set('config.json', new TextEncoder().encode(JSON.stringify({ ...base, quantization_config: { ...base.quantization_config, ...q } })));
      return loadCheckpoint(memorySource(files));
    };
    await expect(load({ quant_method: 'gptq' })).rejects.toThrow('config.json (quantization_config.quant_method): quant_method "gptq" is not read');
    await expect(load({ version: 'gemv' })).rejects.toThrow('(quantization_config.version): AWQ version "gemv" packs its weights another way');
    await expect(load({ group_size: 100 })).rejects.toThrow('(quantization_config.group_size): group_size 100 is not read');
    await expect(load({ group_size: 32 })).rejects.toThrow(/qzeros.*shape \[2,4\] is not \[1, 4\]/);
    // I32 tensors without AWQ: named.
    const { files } = awqModelFiles(CASES[0]![1], 16);
    const { quantization_config: _, ...plainCfg } = base;
    files.set('config.json', new TextEncoder().encode(JSON.stringify(plainCfg)));
    await expect(loadCheckpoint(memorySource(files))).rejects.toThrow(/qweight.*dtype I32 is read only as AWQ's packed weights.*no quantization_config/);
  });
});

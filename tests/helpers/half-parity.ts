import { expect } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { buildGraph, type GraphOptions } from '../../src/model/graph/graph';
import { referenceForward } from '../../src/model/graph/reference';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { ModelSession } from '../../src/runtime/ort-runtime';
import { maxAbsDiff } from './compare';
import { memorySource } from './memory-source';
import { tinyModelFiles, type TinyOptions } from './tiny-model';

/** Half-precision checkpoints the 'half' storage must run exactly as the float64 reference does. */
export const HALF_CASES: [string, TinyOptions][] = [
  ['llama BF16 tied (embedding rows gathered from the kept matrix)', { family: 'llama', dtype: 'BF16', tie: true, heads: 4, kvHeads: 2, seed: 31 }],
  ['qwen3 BF16 untied, q/k norm', { family: 'qwen3', dtype: 'BF16', heads: 6, kvHeads: 2, headDim: 12, seed: 32 }],
  [
    'gemma3_text BF16 tied, (1+w) norms, sliding layer',
    {
      family: 'gemma3_text',
      dtype: 'BF16',
      tie: true,
      layers: 2,
      heads: 4,
      kvHeads: 1,
      headDim: 16,
      seed: 33,
      config: { layer_types: ['sliding_attention', 'full_attention'], sliding_window: 5 },
    },
  ],
  ['qwen2 F16 with biases', { family: 'qwen2', dtype: 'F16', heads: 4, kvHeads: 2, seed: 34 }],
];

/** Runs one case with the given graph options and checks logits and the last layer's attention against the reference. */
export async function halfParity(opts: TinyOptions, graph: GraphOptions): Promise<{ dLogits: number; dAttn: number; storage: string }> {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
  const weights = resolveWeights(ckpt.spec, ckpt);
  const built = buildGraph(ckpt.spec, weights, graph);
  const session = await ModelSession.create(built, ckpt.spec);
  const S = 23;
  const ids = Array.from({ length: S }, (_, i) => (i * 41 + 5) % ckpt.spec.vocabSize);
  const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
  await session.release();
  const ref = await referenceForward(ckpt.spec, weights, ids);
  const dLogits = maxAbsDiff(out.logits!.data, ref.logits);
  const dAttn = maxAbsDiff(out.attention[0]!.perHead!.data, ref.attention);
  expect(dLogits).toBeLessThanOrEqual(1e-4);
  expect(dAttn).toBeLessThanOrEqual(1e-4);
  return { dLogits, dAttn, storage: built.weightStorage };
}

import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../../src/model/config/config';
import { estimatePass, memoryProblem, WASM_LIMITS } from '../../../src/model/memory/memory';

// SmolLM2-135M's shape: 30 layers, hidden 576, 9/3 heads, MLP 1536, vocab 49152, tied.
const spec = normalizeConfig({
  model_type: 'llama',
  hidden_size: 576,
  intermediate_size: 1536,
  num_hidden_layers: 30,
  num_attention_heads: 9,
  num_key_value_heads: 3,
  vocab_size: 49152,
  rms_norm_eps: 1e-5,
  rope_theta: 100000,
  tie_word_embeddings: true,
  max_position_embeddings: 8192,
});
const explicit = { computeDtype: 'fp32' as const, attention: 'explicit' as const, inspectLayers: [29] };
const fused = { ...explicit, attention: 'fused' as const };
const pass = (tokens: number) => ({ tokens, attnRows: 64, fetchedLayers: 1, perHead: true, logitRows: 0 });

describe('memory estimate of one pass', () => {
  it('counts weights, the attention scores and the fetched rows by hand', () => {
    const e = estimatePass(spec, fused, pass(2048));
    const params = 134_515_008; // SmolLM2-135M's parameter count
    expect(e.weights).toBe(params * 4);
    const scores = 9 * 2048 * 2048 * 4;
    const mlp = 2048 * (3 * 1536 + 4 * 576) * 4;
    const cache = 2 * 30 * 3 * 2048 * 64 * 4;
    const fetched = 64 * 2048 * 4 * 10;
    expect(e.activations).toBe(3 * scores + mlp + cache + fetched); // the inspected layer is explicit
    expect(e.largestTensor).toBe(scores);
    expect(e.total).toBe(e.weights + e.activations);
  });

  it('refuses what does not fit, naming the size, the limit and how many tokens would fit', () => {
    expect(memoryProblem(spec, fused, pass(4096), WASM_LIMITS)).toBeNull();
    const msg = memoryProblem(spec, fused, pass(16384), WASM_LIMITS)!;
    expect(msg).toMatch(
      /^16,384 tokens need about \d+\.\d\d GiB of memory \(weights 0\.50 GiB, activations \d+\.\d\d GiB\), more than the 3\.50 GiB wasm can use\. Try fewer tokens \(up to about [\d,]+ fit\), or WebGPU, or a smaller model\.$/,
    );
    const fit = Number(/up to about ([\d,]+)/.exec(msg)![1]!.replace(/,/g, ''));
    expect(memoryProblem(spec, fused, pass(fit), WASM_LIMITS)).toBeNull();
    expect(memoryProblem(spec, fused, pass(fit + 1), WASM_LIMITS)).not.toBeNull();
  });

  it("on WebGPU the bound is the adapter's largest buffer", () => {
    const gpu = { backend: 'webgpu' as const, totalBytes: null, maxBufferBytes: 2 ** 30 };
    expect(memoryProblem(spec, fused, pass(4096), gpu)).toBeNull(); // 9 × 4096² × 4 B = 0.56 GiB
    expect(memoryProblem(spec, fused, pass(8192), gpu)).toMatch(
      /one 2\.25 GiB tensor, more than the 1\.00 GiB this WebGPU adapter allows in one buffer\. Try fewer tokens \(up to about 5,461 fit\), or a smaller model\./,
    );
  });
});

describe('a session refuses a pass that would not fit', () => {
  it('throws MemoryLimitError with the message, before running anything', async () => {
    const { loadCheckpoint } = await import('../../../src/model/checkpoint/checkpoint');
    const { buildGraph } = await import('../../../src/model/graph/graph');
    const { resolveWeights } = await import('../../../src/model/checkpoint/weights');
    const { MemoryLimitError, ModelSession } = await import('../../../src/runtime/ort-runtime');
    const { memorySource } = await import('../../helpers/memory-source');
    const { tinyModelFiles } = await import('../../helpers/tiny-model');
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', seed: 3 })));
    const session = await ModelSession.create(buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt)), ckpt.spec);
    expect(session.report.limits.totalBytes).toBe(3.5 * 2 ** 30);
    const ids = Array.from({ length: 40_000 }, (_, i) => i % ckpt.spec.vocabSize);
    const err = await session.forward({ ids, layers: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemoryLimitError);
    expect((err as Error).message).toMatch(
      /^40,000 tokens need about .* more than the 3\.50 GiB wasm can use\. Try fewer tokens \(up to about [\d,]+ fit\), or WebGPU, or a smaller model\.$/,
    );
    // The session still works.
    expect((await session.forward({ ids: ids.slice(0, 8), layers: [] })).logits!.rows).toBe(1);
    await session.release();
  });
});

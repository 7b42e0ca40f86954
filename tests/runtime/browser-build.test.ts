import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { buildGraph } from '../../src/model/graph/graph';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { castsBf16, configureRuntime, ModelSession } from '../../src/runtime/ort-runtime';
import { HALF_CASES, halfParity } from '../helpers/half-parity';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

// onnxruntime-web's WebGPU build (the one the page's WebGPU sessions use, with their CPU kernels), loaded in
// Node. One thread: its threaded build fetches its worker script, which Node's fetch cannot read from a path.
await configureRuntime({ nodeBuild: 'webgpu', numThreads: 1 });

describe("onnxruntime-web's WebGPU build, on its wasm provider", () => {
  it('has no BF16 Cast, so BF16 matrices cannot be kept as stored', async () => {
    expect(castsBf16('wasm')).toBe(false);
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(HALF_CASES[0]![1])));
    const built = buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt), { weightStorage: 'half', keptBf16: 'bf16' });
    // If a release adds the kernel, this fails and castsBf16 can say yes.
    await expect(ModelSession.create(built, ckpt.spec)).rejects.toThrow(/Could not find an implementation for Cast/);
  });
  for (const [name, opts] of HALF_CASES) {
    it(`${name}: 'half' storage as the app builds it here matches the reference`, async () => {
      const r = await halfParity(opts, { weightStorage: 'half', keptBf16: castsBf16('wasm') ? 'bf16' : 'fp16' });
      console.log(`${name}: max |Δ| logits ${r.dLogits.toExponential(2)}, attention ${r.dAttn.toExponential(2)}; ${r.storage}`);
    });
  }
});

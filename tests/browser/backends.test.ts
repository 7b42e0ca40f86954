import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { referenceForward } from '../../src/model/graph/reference';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import type { HarnessResult } from './harness';
import { startAppServer } from '../helpers/app-server';
import { launchChromium } from '../helpers/chromium';
import { maxAbsDiff } from '../helpers/compare';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../helpers/tiny-model';
import { awqModelFiles, withDequantized } from '../helpers/awq-checkpoint';
import { dequantizedWeights } from '../helpers/quant-reference';
import { schemeOf, type Quant } from '../../src/model/precision/quantize';

const MODELS: Record<string, TinyOptions> = {
  'acme/qwen3-gqa-bf16': { family: 'qwen3', dtype: 'BF16', tie: true, heads: 6, kvHeads: 2, headDim: 12, seed: 21 },
  'acme/llama3-rope-f16': {
    family: 'llama',
    dtype: 'F16',
    heads: 4,
    kvHeads: 2,
    sharded: true,
    seed: 22,
    ropeScaling: { rope_type: 'llama3', factor: 4, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 },
  },
  // Sliding windows (Or, LessOrEqual), GeGLU and softcap (Tanh), local and global rotary tables.
  'acme/gemma3-sliding-bf16': {
    family: 'gemma3_text',
    dtype: 'BF16',
    tie: true,
    layers: 3,
    heads: 4,
    kvHeads: 1,
    headDim: 16,
    seed: 23,
    config: {
      layer_types: ['sliding_attention', 'full_attention', 'sliding_attention'],
      sliding_window: 9,
      query_pre_attn_scalar: 24,
      rope_local_base_freq: 100,
      final_logit_softcapping: 5,
    },
  },
  // Fused projections split by sizes, partial rotary, LongRoPE.
  'acme/phi3-partial-rope': {
    family: 'phi3',
    heads: 4,
    kvHeads: 2,
    seed: 24,
    config: {
      partial_rotary_factor: 0.5,
      original_max_position_embeddings: 16,
      max_position_embeddings: 64,
      rope_scaling: { type: 'longrope', short_factor: [1, 1.5], long_factor: [2, 5] },
    },
  },
};
const IDS = Array.from({ length: 40 }, (_, i) => (i * 53 + 7) % 259);
const TOL = 1e-4;

async function harnessPage(browser: Browser, url: string, hideWebGpu = false): Promise<Page> {
  const page = await browser.newPage();
  if (hideWebGpu) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }));
  await page.goto(`${url}/tests/browser/harness.html`);
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 120_000 });
  return page;
}

function run(page: Page, hub: string, repo: string, prefer: string[], quant = 'none'): Promise<HarnessResult> {
  return page.evaluate(([h, r, p, ids, q]) => (window as unknown as { harness: { run: Function } }).harness.run(h, r, p, ids, q), [
    hub,
    repo,
    prefer,
    IDS,
    quant,
  ] as const);
}

/**
 * Quantized weights in the browser: q8, q4 and q4g128 made as the weights are read, and a published AWQ checkpoint,
 * each against the float64 reference on the same dequantized weights (tests/model/precision/quant-parity.test.ts and
 * awq.test.ts run every family on Node wasm; quant-parity.test.ts on native too).
 */
const AWQ = awqModelFiles({ family: 'llama', heads: 4, kvHeads: 2, seed: 25 }, 16);
const QUANTIZED: [string, Quant, ('webgpu' | 'wasm')[]][] = [
  ['acme/llama3-rope-f16', 'q4', ['webgpu', 'wasm']],
  ['acme/qwen3-gqa-bf16', 'q8', ['webgpu', 'wasm']],
  ['acme/qwen3-gqa-bf16', 'q4g128', ['webgpu', 'wasm']],
  ['acme/llama-awq', 'none', ['webgpu', 'wasm']],
];

describe('the graph in Chromium, WebGPU and wasm, against the float64 reference', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let page: Page;
  const repos: Record<string, Map<string, Uint8Array>> = {
    ...Object.fromEntries(Object.entries(MODELS).map(([k, o]) => [k, tinyModelFiles(o)])),
    'acme/llama-awq': AWQ.files,
  };

  beforeAll(async () => {
    app = await startAppServer(repos);
    browser = await launchChromium();
    page = await harnessPage(browser, app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  for (const repo of Object.keys(MODELS)) {
    for (const backend of ['webgpu', 'wasm'] as const) {
      it(`${repo} on ${backend}`, async () => {
        const prefer = backend === 'webgpu' ? ['webgpu', 'wasm'] : ['wasm'];
        const got = await run(page, app.hub, repo, prefer);
        // The backend that ran, and why it fell back if it did: part of the test's report.
        console.log(
          `${repo}: asked ${prefer.join('→')}, ran ${got.backend}${got.fallbackReason ? ` (fallback: ${got.fallbackReason})` : ''}; ${got.dtypeReason}`,
        );
        expect(got.backend, got.fallbackReason ?? '').toBe(backend);
        // SwiftShader has no shader-f16: the half-precision checkpoints must still compute in fp32 there.
        expect(got.dtypeReason).toBe(backend === 'webgpu' ? 'fp32: the WebGPU adapter lacks shader-f16' : 'fp32: not running on WebGPU');
        const ckpt = await loadCheckpoint(memorySource(repos[repo]!));
        const ref = await referenceForward(ckpt.spec, resolveWeights(ckpt.spec, ckpt), IDS);
        const dLogits = maxAbsDiff(got.logits, ref.logits);
        const dAttn = maxAbsDiff(got.perHead, ref.attention);
        // The last positions again, one token at a time from the KV cache.
        const V = ckpt.spec.vocabSize;
        const dDecode = maxAbsDiff(got.decodeLogits, ref.logits.subarray((IDS.length - got.decodeSteps) * V));
        // WebGPU runs one session per layer here (model/memory/memory.ts layersPerSegment), handing the hidden state on.
        expect(got.segments).toBe(backend === 'webgpu' ? ckpt.spec.numLayers : 1);
        console.log(
          `  ${got.attention} attention, ${got.segments} segment(s); max |Δ| logits ${dLogits.toExponential(2)}, attention ${dAttn.toExponential(2)}, decode logits ${dDecode.toExponential(2)}, forward ${got.ms.toFixed(0)} ms`,
        );
        expect(dLogits).toBeLessThanOrEqual(TOL);
        expect(dDecode).toBeLessThanOrEqual(TOL);
        expect(dAttn).toBeLessThanOrEqual(TOL);
        const S = IDS.length;
        for (let i = 0; i < S; i++) {
          const sum = got.mean.slice(i * S, (i + 1) * S).reduce((a, b) => a + b, 0);
          expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-5);
          for (let j = i + 1; j < S; j++) expect(got.mean[i * S + j]).toBe(0);
        }
      });
    }
  }

  for (const [repo, quant, backends] of QUANTIZED) {
    for (const backend of backends) {
      it(`${repo} ${quant === 'none' ? '(AWQ as published)' : `at ${quant}`} on ${backend}`, async () => {
        const got = await run(page, app.hub, repo, backend === 'webgpu' ? ['webgpu', 'wasm'] : ['wasm'], quant);
        expect(got.backend, got.fallbackReason ?? '').toBe(backend);
        const ckpt = await loadCheckpoint(memorySource(repos[repo]!));
        const weights = resolveWeights(ckpt.spec, ckpt);
        const deq = quant === 'none' ? withDequantized(weights, AWQ.dequantized) : await dequantizedWeights(weights, schemeOf(quant));
        const ref = await referenceForward(ckpt.spec, deq, IDS);
        const [dLogits, dAttn] = [maxAbsDiff(got.logits, ref.logits), maxAbsDiff(got.perHead, ref.attention)];
        console.log(`${repo} ${quant} on ${backend}: max |Δ| logits ${dLogits.toExponential(2)}, attention ${dAttn.toExponential(2)}`);
        expect(dLogits).toBeLessThanOrEqual(TOL);
        expect(dAttn).toBeLessThanOrEqual(TOL);
        expect(maxAbsDiff(got.decodeLogits, ref.logits.subarray((IDS.length - got.decodeSteps) * ckpt.spec.vocabSize))).toBeLessThanOrEqual(TOL);
      });
    }
  }

  it('falls back to wasm and says why when the browser has no WebGPU', async () => {
    const noGpu = await harnessPage(browser, app.url, true);
    const got = await run(noGpu, app.hub, 'acme/qwen3-gqa-bf16', ['webgpu', 'wasm']);
    expect(got.backend).toBe('wasm');
    expect(got.fallbackReason).toBe('this browser exposes no WebGPU (navigator.gpu is missing)');
    await noGpu.close();
  });
});

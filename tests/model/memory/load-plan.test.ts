import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeConfig } from '../../../src/model/config/config';
import { describeFits, noFitMessage, planBackend, planPrecisions } from '../../../src/model/memory/load-plan';
import { quantizedBytes, schemeOf } from '../../../src/model/precision/quantize';
import { WASM_LIMITS } from '../../../src/model/memory/memory';
import { parameterCount, tensorPlan } from '../../../src/model/checkpoint/weights';
import { prepareModel } from '../../../src/runtime/open-model';
import { shippedFiles } from '../../helpers/real-tokenizers';
import type { VirtualFile } from '../../helpers/hub-server';
import { virtualCheckpoint, virtualSource } from '../../helpers/virtual-checkpoint';
import { cutConfig } from '../../../scripts/rehearse/build-model';

/** The memory plan of real models in BF16, against figures worked out by hand. */
const spec = (m: string) => normalizeConfig(JSON.parse(readFileSync(`tests/fixtures/real-models/${m}/config.json`, 'utf8')));
const input = (m: string, holdsFileBytes = false) => {
  const s = spec(m);
  return { spec: s, dtypes: new Map(tensorPlan(s).map((t) => [t.name, 'BF16'])), holdsFileBytes, plannedTokens: 1024, computeDtype: 'fp32' as const };
};
const GiB = 2 ** 30;
const native = { backend: 'native' as const, totalBytes: 20 * GiB, maxBufferBytes: null };
const swiftshader = { backend: 'webgpu' as const, totalBytes: null, maxBufferBytes: GiB };

describe('the load plan', () => {
  it('SmolLM2-135M on wasm: fp32 weights without prepacking (over 256 MiB of fp32), ~10% and 64 MiB beside them', () => {
    const p = planBackend(input('HuggingFaceTB--SmolLM2-135M-Instruct'), WASM_LIMITS);
    expect(p).toMatchObject({ backend: 'wasm', storage: 'compute', prepack: false, problem: null, weights: 134_515_008 * 4 });
    expect(p.held).toBeCloseTo(134_515_008 * 4 * 1.1 + 64 * 2 ** 20, 0);
    expect(p.maxTokens).toBeGreaterThan(1024);
    // Native prepacks whatever fits: 55% more beside the weights.
    const n = planBackend(input('HuggingFaceTB--SmolLM2-135M-Instruct'), native);
    expect(n).toMatchObject({ storage: 'compute', prepack: true });
    expect(n.held).toBeCloseTo(134_515_008 * 4 * 1.55 + 64 * 2 ** 20, 0);
  });

  it('Phi-4-mini cut to 2 layers: refused on wasm before loading, its 200k × 3,072 embedding over the 2 GiB one tensor may have there', () => {
    const cut = normalizeConfig(cutConfig(JSON.parse(readFileSync('tests/fixtures/real-models/microsoft--Phi-4-mini-instruct/config.json', 'utf8')), 2));
    const p = planBackend(
      { spec: cut, dtypes: new Map(tensorPlan(cut).map((t) => [t.name, 'BF16'])), holdsFileBytes: false, plannedTokens: 1024, computeDtype: 'fp32' },
      WASM_LIMITS,
    );
    // As the rehearsal found it: onnxruntime-web failed in session creation with "SafeInt … Integer overflow".
    expect(p.problem).toBe(
      "needs about 4.05 GiB (weights 1.52 GiB in half precision) even for a 128-token pass, more than the 3.50 GiB wasm can use; in full precision, one 2.29 GiB tensor, more than the 2.00 GiB onnxruntime's wasm build can hold in one tensor (its sizes are 32-bit)",
    );
    expect(200_064 * 3072 * 4).toBeGreaterThan(2 ** 31);
  });

  it('a browser holds the files it read until the session is made: their bytes count as transient', () => {
    const p = planBackend(input('Qwen--Qwen2.5-0.5B-Instruct', true), WASM_LIMITS);
    const embed = 151_936 * 896 * 4;
    expect(p.transient).toBe(494_032_768 * 2 + embed); // the BF16 file, and the largest tensor widened
  });

  it('TinyLlama on wasm keeps its matrices in half precision: fp32 would not leave room for a pass', () => {
    const p = planBackend(input('TinyLlama--TinyLlama-1.1B-Chat-v1.0'), WASM_LIMITS);
    expect(p).toMatchObject({ storage: 'half', problem: null });
    const s = spec('TinyLlama--TinyLlama-1.1B-Chat-v1.0');
    const norms = tensorPlan(s)
      .filter((t) => t.shape.length === 1)
      .reduce((n, t) => n + t.shape[0]!, 0);
    expect(p.weights).toBe((parameterCount(s) - norms) * 2 + norms * 4);
  });

  it('Llama-3.1-8B: refused on wasm, half precision on a 20 GiB native runtime; the message says what would fit', () => {
    const wasm = planBackend(input('meta-llama--Llama-3.1-8B-Instruct'), WASM_LIMITS);
    expect(wasm.problem).toMatch(
      /^needs about \d+\.\d\d GiB \(weights 14\.96 GiB in half precision\) even for a 128-token pass, more than the 3\.50 GiB wasm can use$/,
    );
    expect(planBackend(input('meta-llama--Llama-3.1-8B-Instruct'), native)).toMatchObject({ storage: 'half', problem: null });
    const msg = noFitMessage(spec('meta-llama--Llama-3.1-8B-Instruct'), [wasm], 'Llama-3.1-8B');
    expect(msg).toBe(
      `Llama-3.1-8B cannot be loaded here, and nothing was downloaded: wasm: ${wasm.problem}. Try WebGPU (in a browser with a GPU), or the command line with --backend native, or a smaller model.`,
    );
  });

  it("WebGPU: a tensor must fit one of the adapter's buffers (Qwen3-1.7B's fp32 embedding is 1.16 GiB)", () => {
    const p = planBackend(input('Qwen--Qwen3-1.7B', true), swiftshader);
    expect(p.problem).toBe('one 1.16 GiB tensor, more than the 1.00 GiB this WebGPU adapter allows in one buffer');
    const ok = planBackend(input('Qwen--Qwen3-0.6B', true), swiftshader);
    expect(ok.problem).toBeNull();
    // Its [heads × S × S] scores must fit a buffer too: 16 × S² × 4 bytes ≤ 1 GiB → S ≤ 4,096.
    expect(ok.maxTokens).toBe(4096);
  });
});

describe('the load plan at q8, q4 and q4g128', () => {
  const more = (m: string) => normalizeConfig(JSON.parse(readFileSync(`tests/fixtures/more-models/${m}/config.json`, 'utf8')));
  const bf16 = (s: ReturnType<typeof spec>) => new Map(tensorPlan(s).map((t) => [t.name, 'BF16']));
  const gpu = { backend: 'webgpu' as const, totalBytes: null, maxBufferBytes: null };

  it('a matrix at q4g128 holds 4 bits a weight, an fp32 scale and a 4-bit zero point per 128 (hand-computed)', () => {
    // 896 × 4,864: 38 blocks of 128 per row; zero points two to a byte (19 bytes a row).
    expect(quantizedBytes(896, 4864, schemeOf('q4g128'))).toEqual({ packed: (896 * 4864) / 2, scales: 896 * 38 * 4, zeros: 896 * 19 });
    expect(quantizedBytes(896, 4864, schemeOf('q4'))).toEqual({ packed: (896 * 4864) / 2, scales: 896 * 152 * 4, zeros: 896 * 76 });
  });

  it('Qwen3-4B-Instruct-2507 fits wasm for 1,024 tokens at q4g128; at q4 for fewer, at q8 and full precision not at all', () => {
    const s = more('Qwen--Qwen3-4B-Instruct-2507');
    const fits = planPrecisions({ spec: s, dtypes: bf16(s), holdsFileBytes: true, plannedTokens: 1024, computeDtype: 'fp32' }, [WASM_LIMITS]);
    const at = (q: string) => fits.find((f) => f.quant === q)!;
    expect(at('none').fits).toBe(false);
    expect(at('q4g128')).toMatchObject({ fits: true });
    expect(at('q4g128').maxTokens).toBeGreaterThanOrEqual(1024);
    expect(at('q4').maxTokens).toBeLessThan(at('q4g128').maxTokens!);
    expect(describeFits(fits)).toEqual([
      'wasm: fits at q4 (3.75 GiB, passes up to about 792 tokens), q4g128 (3.32 GiB, passes up to about 1,169 tokens); at full precision and q8 it does not',
    ]);
  });

  it('Llama-3.1-8B and Qwen3-8B at q4g128: within 6 GiB of GPU memory at 2,048 tokens on a WebGPU adapter with shader-f16', () => {
    for (const m of ['meta-llama--Llama-3.1-8B-Instruct', 'Qwen--Qwen3-8B']) {
      const s = spec(m);
      const p = planBackend({ spec: s, dtypes: bf16(s), holdsFileBytes: true, plannedTokens: 2048, computeDtype: 'fp16', quant: 'q4g128' }, gpu);
      expect(p.problem).toBeNull();
      expect(p.weights + p.overhead).toBeLessThanOrEqual(6 * GiB);
      // q4 (blocks of 32) holds 0.094 byte more per weight of every matrix: over 6 GiB for both.
      const q4 = planBackend({ spec: s, dtypes: bf16(s), holdsFileBytes: true, plannedTokens: 2048, computeDtype: 'fp16', quant: 'q4' }, gpu);
      expect(q4.weights + q4.overhead).toBeGreaterThan(6 * GiB);
    }
  });
});

describe('preparing a real model reads no weight', () => {
  it('Gemma 3 1B with the shipped Gemma 3 tokenizer: its one image token past vocab_size is noted, not refused; a few hundred KB read of 2 GB', async () => {
    const config = JSON.parse(readFileSync('tests/fixtures/real-models/google--gemma-3-1b-it/config.json', 'utf8'));
    const { json, config: tok } = shippedFiles('gemma3');
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const { source, bytesRead } = virtualSource(
      new Map<string, Uint8Array | VirtualFile>([
        ['config.json', enc(config)],
        ['tokenizer.json', enc(json)],
        ['tokenizer_config.json', enc(tok)],
        ['model.safetensors', virtualCheckpoint(config)],
      ]),
    );
    const p = await prepareModel(source, { prefer: ['wasm'] });
    expect(p.checkpoint.spec.notes.join(' ')).toContain('tokenizer.json adds 1 special token past vocab_size (262,144)');
    expect(p.plans[0]).toMatchObject({ backend: 'wasm', storage: 'half', problem: null });
    const small = ['config.json', 'tokenizer.json', 'tokenizer_config.json'].reduce(
      (n, f) => n + enc(f === 'config.json' ? config : f === 'tokenizer.json' ? json : tok).byteLength,
      0,
    );
    expect(bytesRead() - small).toBeLessThan(100_000); // the safetensors header only
  });
});

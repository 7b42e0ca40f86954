import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeConfig, type ModelSpec } from '../../../src/model/config/config';
import { parameterCount } from '../../../src/model/checkpoint/weights';

/**
 * The real config.json of the 19 chat models the rehearsal covers (tests/fixtures/real-models, with
 * SOURCES.md saying where each came from). Each is accepted, and its tensor plan gives the parameter
 * count the model's Hub page states (safetensors total): an independent check of every family's
 * tensor list. Then the figures each family's normalization computes, by hand.
 */
const DIR = 'tests/fixtures/real-models';
const spec = (m: string): ModelSpec => normalizeConfig(JSON.parse(readFileSync(`${DIR}/${m}/config.json`, 'utf8')));

const PARAMETERS: Record<string, number> = {
  'HuggingFaceTB--SmolLM2-135M-Instruct': 134_515_008,
  'HuggingFaceTB--SmolLM2-360M-Instruct': 361_821_120,
  'HuggingFaceTB--SmolLM3-3B': 3_075_098_624,
  'Qwen--Qwen2.5-0.5B-Instruct': 494_032_768,
  'Qwen--Qwen2.5-1.5B-Instruct': 1_543_714_304,
  'Qwen--Qwen3-0.6B': 596_049_920,
  'Qwen--Qwen3-1.7B': 1_720_574_976,
  'Qwen--Qwen3-8B': 8_190_735_360,
  'TinyLlama--TinyLlama-1.1B-Chat-v1.0': 1_100_048_384,
  'allenai--OLMo-2-0425-1B-Instruct': 1_484_916_736,
  'google--gemma-3-1b-it': 999_885_952,
  'google--gemma-3-270m-it': 268_098_176,
  'ibm-granite--granite-3.3-2b-instruct': 2_533_539_840,
  'meta-llama--Llama-3.1-8B-Instruct': 8_030_261_248,
  'meta-llama--Llama-3.2-1B-Instruct': 1_235_814_400,
  'meta-llama--Llama-3.2-3B-Instruct': 3_212_749_824,
  'microsoft--Phi-3.5-mini-instruct': 3_821_079_552,
  'microsoft--Phi-4-mini-instruct': 3_836_021_760,
  'mistralai--Mistral-7B-Instruct-v0.3': 7_248_023_552,
};

describe('the 19 real configs', () => {
  it('are all here, accepted, with the parameter counts their Hub pages state', () => {
    const models = readdirSync(DIR)
      .filter((d) => d.includes('--'))
      .sort();
    expect(models).toEqual(Object.keys(PARAMETERS).sort());
    for (const m of models) expect([m, parameterCount(spec(m))]).toEqual([m, PARAMETERS[m]]);
  });

  it('Gemma 3: 5 sliding layers of 512 keys to 1 global, local rope 10,000, √hidden in bf16, 1/√query_pre_attn_scalar', () => {
    const s = spec('google--gemma-3-1b-it');
    expect(s.layers.map((l, i) => (l.window === null ? i : -1)).filter((i) => i >= 0)).toEqual([5, 11, 17, 23]);
    expect(new Set(s.layers.filter((l) => l.window !== null).map((l) => `${l.window}:${l.rope}`))).toEqual(new Set(['512:1']));
    expect(s.ropes.map((r) => r.theta)).toEqual([1_000_000, 10_000]);
    expect(s.embeddingScale).toBe(34); // √1152 = 33.94, held in bfloat16 (torch_dtype)
    expect(s.attentionScale).toBe(1 / 16);
    expect([s.norms, s.normOffset, s.activation, s.qkNorm, s.tieWordEmbeddings]).toEqual(['sandwich', 1, 'gelu_tanh', 'head', true]);
  });

  it('Phi-3.5 and Phi-4: fused projections, LongRoPE with attention factor √(1 + ln 32 / ln 4096), partial rotary 0.75', () => {
    const p35 = spec('microsoft--Phi-3.5-mini-instruct');
    const p4 = spec('microsoft--Phi-4-mini-instruct');
    for (const s of [p35, p4]) {
      expect(s.ropes[0]!.scaling.type).toBe('longrope');
      expect((s.ropes[0]!.scaling as { attentionFactor: number }).attentionFactor).toBeCloseTo(Math.sqrt(1 + Math.log(32) / Math.log(4096)), 12);
      expect([s.fusedQkv, s.fusedGateUp]).toEqual([true, true]);
    }
    expect([p35.headDim, p35.ropes[0]!.rotaryDim]).toEqual([96, 96]);
    expect([p4.headDim, p4.ropes[0]!.rotaryDim]).toEqual([128, 96]);
  });

  it('SmolLM3: every fourth layer without RoPE; Granite: its four multipliers; OLMo 2: post-norms', () => {
    const sm = spec('HuggingFaceTB--SmolLM3-3B');
    expect(sm.layers.map((l, i) => (l.rope === null ? i : -1)).filter((i) => i >= 0)).toEqual([3, 7, 11, 15, 19, 23, 27, 31, 35]);
    expect(sm.tieWordEmbeddings).toBe(true); // the config omits it; SmolLM3's default
    const g = spec('ibm-granite--granite-3.3-2b-instruct');
    expect([g.embeddingScale, g.attentionScale, g.residualScale, g.logitScale]).toEqual([12, 0.015625, 0.22, 1 / 8]);
    const o = spec('allenai--OLMo-2-0425-1B-Instruct');
    expect([o.norms, o.qkNorm]).toEqual(['post', 'projection']);
  });

  it('Mistral v0.3 and Qwen2.5 attend to every earlier token (sliding_window null; use_sliding_window false)', () => {
    for (const m of ['mistralai--Mistral-7B-Instruct-v0.3', 'Qwen--Qwen2.5-0.5B-Instruct']) expect(spec(m).layers.every((l) => l.window === null)).toBe(true);
  });
});

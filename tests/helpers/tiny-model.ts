import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Family } from '../../src/model/config/config';
import type { FloatDtype } from '../../src/model/checkpoint/checkpoint';
import { writeSafetensors } from '../../src/model/checkpoint/safetensors';
import { randomTensors } from './random-checkpoint';
import { TINY_VOCAB, tinyTokenizerConfig, tinyTokenizerJson } from './tiny-tokenizer';

/** Options of a tiny random-weight checkpoint written in Hugging Face layout by the tests themselves. */
export interface TinyOptions {
  family: Family;
  dtype?: FloatDtype;
  tie?: boolean;
  layers?: number;
  hidden?: number;
  heads?: number;
  kvHeads?: number;
  /** Explicit head_dim (config field), else hidden / heads. */
  headDim?: number;
  intermediate?: number;
  vocab?: number;
  ropeScaling?: Record<string, unknown>;
  attentionBias?: boolean;
  mlpBias?: boolean;
  /** Any other config.json fields (the family's own: multipliers, windows, NoPE layers…), written as given. */
  config?: Record<string, unknown>;
  /** Write two shards and model.safetensors.index.json. */
  sharded?: boolean;
  seed?: number;
  /** A tensor written as NaN throughout (a broken checkpoint). */
  poison?: string;
}

const ARCHITECTURES: Record<Family, string> = {
  llama: 'LlamaForCausalLM',
  mistral: 'MistralForCausalLM',
  qwen2: 'Qwen2ForCausalLM',
  qwen3: 'Qwen3ForCausalLM',
  granite: 'GraniteForCausalLM',
  smollm3: 'SmolLM3ForCausalLM',
  olmo2: 'Olmo2ForCausalLM',
  gemma3_text: 'Gemma3ForCausalLM',
  phi3: 'Phi3ForCausalLM',
};

export function tinyConfig(o: TinyOptions): Record<string, unknown> {
  const heads = o.heads ?? 4;
  return {
    architectures: [ARCHITECTURES[o.family]],
    model_type: o.family,
    vocab_size: o.vocab ?? TINY_VOCAB,
    hidden_size: o.hidden ?? 32,
    intermediate_size: o.intermediate ?? 48,
    num_hidden_layers: o.layers ?? 2,
    num_attention_heads: heads,
    num_key_value_heads: o.kvHeads ?? heads,
    ...(o.headDim !== undefined && { head_dim: o.headDim }),
    ...(o.family === 'gemma3_text' ? { hidden_activation: 'gelu_pytorch_tanh' } : { hidden_act: 'silu' }),
    rms_norm_eps: 1e-6,
    rope_theta: 10000,
    rope_scaling: o.ropeScaling ?? null,
    max_position_embeddings: 512,
    tie_word_embeddings: o.tie ?? false,
    ...(o.attentionBias !== undefined && { attention_bias: o.attentionBias }),
    ...(o.mlpBias !== undefined && { mlp_bias: o.mlpBias }),
    bos_token_id: null,
    eos_token_id: 257,
    torch_dtype: { F32: 'float32', F16: 'float16', BF16: 'bfloat16' }[o.dtype ?? 'F32'],
    ...o.config,
  };
}

/** Every file of the checkpoint, by file name. */
export function tinyModelFiles(o: TinyOptions): Map<string, Uint8Array> {
  const cfg = tinyConfig(o);
  const tensors = [...randomTensors(cfg, o.dtype ?? 'F32', o.seed ?? 1)];
  if (o.poison) {
    const t = tensors.find((x) => x.name === o.poison);
    if (!t) throw new Error(`no tensor ${o.poison} to poison`);
    t.bytes = new Uint8Array(t.bytes.byteLength).fill(0xff); // all-ones bits: NaN in F32, F16 and BF16
  }
  const files = new Map<string, Uint8Array>();
  const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v, null, 2));
  files.set('config.json', json(cfg));
  files.set('tokenizer.json', json(tinyTokenizerJson()));
  files.set('tokenizer_config.json', json(tinyTokenizerConfig()));
  if (o.sharded) {
    const cut = Math.ceil(tensors.length / 2);
    const shards = [tensors.slice(0, cut), tensors.slice(cut)];
    const weightMap: Record<string, string> = {};
    shards.forEach((shard, i) => {
      const name = `model-0000${i + 1}-of-00002.safetensors`;
      files.set(name, writeSafetensors(shard));
      for (const t of shard) weightMap[t.name] = name;
    });
    files.set('model.safetensors.index.json', json({ metadata: {}, weight_map: weightMap }));
  } else {
    files.set('model.safetensors', writeSafetensors(tensors));
  }
  return files;
}

export function writeTinyModel(dir: string, o: TinyOptions): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of tinyModelFiles(o)) writeFileSync(join(dir, name), bytes);
  return dir;
}

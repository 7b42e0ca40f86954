import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { f32ToBf16, f32ToF16 } from '../../src/model/dtype';
import { writeSafetensors, type SafetensorsDtype } from '../../src/model/safetensors';
import { mulberry32 } from '../../src/util/random';
import { TINY_VOCAB, tinyTokenizerConfig, tinyTokenizerJson } from './tiny-tokenizer';

/** Options of a tiny random-weight checkpoint written in Hugging Face layout by the tests themselves. */
export interface TinyOptions {
  family: 'llama' | 'qwen2' | 'qwen3';
  dtype?: SafetensorsDtype;
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
  /** Write two shards and model.safetensors.index.json. */
  sharded?: boolean;
  seed?: number;
}

/** mulberry32 + Box–Muller: deterministic normal samples. */
function normals(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

function encode(values: Float32Array, dtype: SafetensorsDtype): Uint8Array {
  if (dtype === 'F32') return new Uint8Array(values.buffer);
  const conv = dtype === 'F16' ? f32ToF16 : f32ToBf16;
  const out = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = conv(values[i]!);
  return new Uint8Array(out.buffer);
}

export function tinyConfig(o: TinyOptions): Record<string, unknown> {
  const heads = o.heads ?? 4;
  return {
    architectures: [{ llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM' }[o.family]],
    model_type: o.family,
    vocab_size: o.vocab ?? TINY_VOCAB,
    hidden_size: o.hidden ?? 32,
    intermediate_size: o.intermediate ?? 48,
    num_hidden_layers: o.layers ?? 2,
    num_attention_heads: heads,
    num_key_value_heads: o.kvHeads ?? heads,
    ...(o.headDim !== undefined && { head_dim: o.headDim }),
    hidden_act: 'silu',
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
  };
}

/** Every file of the checkpoint, by file name. */
export function tinyModelFiles(o: TinyOptions): Map<string, Uint8Array> {
  const cfg = tinyConfig(o);
  const D = cfg.hidden_size as number;
  const H = cfg.num_attention_heads as number;
  const KV = cfg.num_key_value_heads as number;
  const Dh = o.headDim ?? D / H;
  const I = cfg.intermediate_size as number;
  const V = cfg.vocab_size as number;
  const dtype = o.dtype ?? 'F32';
  const randn = normals(o.seed ?? 1);
  const tensors: { name: string; dtype: SafetensorsDtype; shape: number[]; bytes: Uint8Array }[] = [];
  // Gains chosen so attention is peaked and layers matter: a test with near-uniform attention proves little.
  const add = (name: string, shape: number[], std: number, mean = 0) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = mean + std * randn();
    tensors.push({ name, dtype, shape, bytes: encode(values, dtype) });
  };
  const qkvBias = o.family === 'qwen2' || o.attentionBias === true;
  add('model.embed_tokens.weight', [V, D], 1);
  for (let l = 0; l < (cfg.num_hidden_layers as number); l++) {
    const p = `model.layers.${l}.`;
    add(`${p}input_layernorm.weight`, [D], 0.1, 1);
    add(`${p}self_attn.q_proj.weight`, [H * Dh, D], 2 / Math.sqrt(D));
    add(`${p}self_attn.k_proj.weight`, [KV * Dh, D], 2 / Math.sqrt(D));
    add(`${p}self_attn.v_proj.weight`, [KV * Dh, D], 1 / Math.sqrt(D));
    add(`${p}self_attn.o_proj.weight`, [D, H * Dh], 1 / Math.sqrt(H * Dh));
    if (qkvBias) {
      add(`${p}self_attn.q_proj.bias`, [H * Dh], 0.2);
      add(`${p}self_attn.k_proj.bias`, [KV * Dh], 0.2);
      add(`${p}self_attn.v_proj.bias`, [KV * Dh], 0.2);
    }
    if (o.family !== 'qwen2' && o.attentionBias) add(`${p}self_attn.o_proj.bias`, [D], 0.2);
    if (o.family === 'qwen3') {
      add(`${p}self_attn.q_norm.weight`, [Dh], 0.3, 1.5);
      add(`${p}self_attn.k_norm.weight`, [Dh], 0.3, 1.5);
    }
    add(`${p}post_attention_layernorm.weight`, [D], 0.1, 1);
    add(`${p}mlp.gate_proj.weight`, [I, D], 1 / Math.sqrt(D));
    add(`${p}mlp.up_proj.weight`, [I, D], 1 / Math.sqrt(D));
    add(`${p}mlp.down_proj.weight`, [D, I], 1 / Math.sqrt(I));
    if (o.mlpBias) {
      add(`${p}mlp.gate_proj.bias`, [I], 0.2);
      add(`${p}mlp.up_proj.bias`, [I], 0.2);
      add(`${p}mlp.down_proj.bias`, [D], 0.2);
    }
  }
  add('model.norm.weight', [D], 0.1, 1);
  if (!o.tie) add('lm_head.weight', [V, D], 1 / Math.sqrt(D));

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

import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { buildGraph } from '../../src/model/graph/graph';
import { parseSafetensors, writeSafetensors } from '../../src/model/checkpoint/safetensors';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../helpers/tiny-model';

const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const dec = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b));

function files(opts: Partial<TinyOptions> = {}, edit?: (f: Map<string, Uint8Array>) => void) {
  const f = tinyModelFiles({ family: 'llama', ...opts });
  edit?.(f);
  return f;
}
function withConfig(patch: Record<string, unknown>, opts: Partial<TinyOptions> = {}) {
  return files(opts, (f) => f.set('config.json', enc({ ...dec(f.get('config.json')!), ...patch })));
}
async function loadAll(f: Map<string, Uint8Array>) {
  const ckpt = await loadCheckpoint(memorySource(f));
  return buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt));
}
const fails = (f: Map<string, Uint8Array>) => expect(loadAll(f)).rejects;

describe('clear errors for bad model folders', () => {
  it('names an unsupported model_type', async () => {
    await fails(withConfig({ model_type: 'gpt2' })).toThrow(
      'config.json (model_type): model_type "gpt2" is not supported (llama, mistral, qwen2, qwen3, granite, smollm3, olmo2, gemma3_text, phi3 are)',
    );
    await fails(withConfig({ model_type: 'gemma3', text_config: null })).toThrow(
      'config.json (text_config): model_type "gemma3" is an image-and-text model, but there is no text_config object to read its text model from',
    );
    await fails(withConfig({ model_type: 'mistral3', text_config: { hidden_size: -4 } })).toThrow(
      'config.json (text_config.hidden_size): must be a positive integer, got -4',
    );
  });
  it('names an unsupported rope scaling type', async () => {
    await fails(withConfig({ rope_scaling: { rope_type: 'ntk-by-parts', factor: 4 } })).toThrow(
      'config.json (rope_scaling.rope_type): rope type "ntk-by-parts" is not supported (default, linear, llama3, dynamic, yarn, longrope are)',
    );
    await fails(withConfig({ rope_scaling: { rope_type: 'longrope', short_factor: [1], long_factor: [1, 2] } }, { family: 'phi3' })).toThrow(
      'config.json (rope_scaling.short_factor): must be a list of 4 numbers',
    );
  });
  it('names a missing llama3 rope field', async () => {
    await fails(withConfig({ rope_scaling: { rope_type: 'llama3', factor: 8, high_freq_factor: 4, original_max_position_embeddings: 8192 } })).toThrow(
      'config.json (rope_scaling.low_freq_factor): is missing',
    );
  });
  it('names unsupported activation, bad numbers, and bad head counts', async () => {
    await fails(withConfig({ hidden_act: 'gelu' })).toThrow('config.json (hidden_act)');
    await fails(withConfig({ rms_norm_eps: -1 })).toThrow('config.json (rms_norm_eps): must be greater than 0, got -1');
    await fails(withConfig({ rope_theta: 0 })).toThrow('config.json (rope_theta): must be greater than 0, got 0');
    await fails(withConfig({ rope_scaling: { type: 'linear', factor: -2 } })).toThrow('config.json (rope_scaling.factor): must be greater than 0');
    await fails(withConfig({ sliding_window: 0 }, { family: 'mistral' })).toThrow('config.json (sliding_window): must be a positive integer');
    await fails(withConfig({ no_rope_layers: [1, 2] }, { family: 'smollm3' })).toThrow(
      'config.json (no_rope_layers): must list at least 2 entries, each 1 (RoPE) or 0 (NoPE)',
    );
    await fails(withConfig({ layer_types: ['full_attention'] }, { family: 'gemma3_text' })).toThrow('config.json (layer_types): must list 2 entries');
    await fails(withConfig({ num_key_value_heads: 3 })).toThrow('config.json (num_key_value_heads): 4 attention heads are not a multiple of 3');
    await fails(withConfig({ hidden_size: 'big' })).toThrow('config.json (hidden_size): must be a number');
  });
  it('reports invalid JSON with line and column', async () => {
    await fails(files({}, (f) => f.set('config.json', enc('{\n  "model_type": "llama",\n  oops\n}')))).toThrow(
      /config\.json: invalid JSON at line 3, column 3/,
    );
  });
  it('names missing files', async () => {
    await fails(files({}, (f) => f.delete('config.json'))).toThrow('config.json: is missing from test files');
    await fails(files({}, (f) => f.delete('model.safetensors'))).toThrow('model.safetensors: is missing from test files');
    await fails(files({ sharded: true }, (f) => f.delete('model-00002-of-00002.safetensors'))).toThrow('model-00002-of-00002.safetensors: is missing');
  });
  it('names a shard that lacks a tensor the index places there', async () => {
    await fails(
      files({ sharded: true }, (f) => {
        const idx = dec(f.get('model.safetensors.index.json')!);
        idx.weight_map['model.norm.weight'] = 'model-00001-of-00002.safetensors';
        f.set('model.safetensors.index.json', enc(idx));
      }),
    ).toThrow('model-00001-of-00002.safetensors (model.norm.weight): does not contain model.norm.weight');
  });
  it('detects a truncated weights file', async () => {
    await fails(files({}, (f) => f.set('model.safetensors', f.get('model.safetensors')!.slice(0, -100)))).toThrow(
      /model\.safetensors \(.+\): data ends at byte \d+ but the file holds \d+ bytes of data \(truncated\)/,
    );
    await fails(files({}, (f) => f.set('model.safetensors', f.get('model.safetensors')!.slice(0, 20)))).toThrow(
      /model\.safetensors: header length \d+ exceeds the file size 20/,
    );
  });
  it('detects a header that lies about sizes, and unsupported dtypes', async () => {
    const lie = writeSafetensors([{ name: 'model.norm.weight', dtype: 'F32', shape: [64], bytes: new Uint8Array(4 * 32) }]);
    await fails(files({}, (f) => f.set('model.safetensors', lie))).toThrow(
      'model.safetensors (model.norm.weight): data_offsets span 128 bytes but F32[64] needs 256',
    );
    const i8 = new TextEncoder().encode(JSON.stringify({ x: { dtype: 'I8', shape: [2], data_offsets: [0, 2] } }));
    const bytes = new Uint8Array(8 + i8.length + 2);
    new DataView(bytes.buffer).setBigUint64(0, BigInt(i8.length), true);
    bytes.set(i8, 8);
    await fails(files({}, (f) => f.set('model.safetensors', bytes))).toThrow(
      'model.safetensors (x): dtype "I8" is not supported (F32, F16, BF16 are; I32 for AWQ\'s packed weights)',
    );
  });
  it('names a missing or misshapen tensor', async () => {
    const drop = (name: string) => (f: Map<string, Uint8Array>) => {
      // Rebuild the file without one tensor.
      const kept = [...parseSafetensors('model.safetensors', f.get('model.safetensors')!).values()].filter((t) => t.name !== name);
      f.set('model.safetensors', writeSafetensors(kept));
    };
    await fails(files({}, drop('lm_head.weight'))).toThrow('model.safetensors (lm_head.weight): tensor lm_head.weight is missing');
    await fails(withConfig({ intermediate_size: 40 })).toThrow('model.safetensors (model.layers.0.mlp.gate_proj.weight): shape [48,32] does not match [40,32]');
  });
  it('refuses a layer the model does not have', async () => {
    const ckpt = await loadCheckpoint(memorySource(files()));
    expect(() => buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt), { inspectLayers: [2] })).toThrow(
      'layer 2 cannot be inspected: the model has layers 0..1',
    );
  });
  it('names a tokenizer without a chat template', async () => {
    const f = files({}, (f) => {
      const cfg = dec(f.get('tokenizer_config.json')!);
      delete cfg.chat_template;
      f.set('tokenizer_config.json', enc(cfg));
    });
    await expect(ChatTokenizer.load(memorySource(f))).rejects.toThrow('tokenizer_config.json (chat_template): has no chat template');
    await expect(ChatTokenizer.load(memorySource(files({}, (f) => f.delete('tokenizer.json'))))).rejects.toThrow('tokenizer.json: is missing');
  });
});

import type { Cfg } from './config-fields';
import type { Family } from './config';

/**
 * Image-and-text checkpoints whose text model is a family we build: Gemma 3 4B/12B/27B (`gemma3`) and
 * Mistral Small 3.1/3.2 (`mistral3`). Their config.json nests the text model's settings in `text_config`,
 * leaving out those at transformers' defaults, and their weights prefix the text model's names; the vision
 * tower and projector beside them are never read (their bytes are neither fetched nor planned for).
 */
export type Multimodal = 'gemma3' | 'mistral3';

/**
 * The text config class's defaults (transformers' Gemma3TextConfig and MistralConfig `__init__`), for the
 * fields a wrapper's text_config leaves out (gemma-3-4b-it's lists 6 of them).
 */
const TEXT_DEFAULTS: Record<Multimodal, { family: Family; defaults: Cfg }> = {
  gemma3: {
    family: 'gemma3_text',
    defaults: {
      vocab_size: 262_208,
      hidden_size: 2304,
      intermediate_size: 9216,
      num_hidden_layers: 26,
      num_attention_heads: 8,
      num_key_value_heads: 4,
      head_dim: 256,
      hidden_activation: 'gelu_pytorch_tanh',
      max_position_embeddings: 131_072,
      rms_norm_eps: 1e-6,
      tie_word_embeddings: true,
      rope_theta: 1_000_000,
      attention_bias: false,
      query_pre_attn_scalar: 256,
      sliding_window: 4096,
      final_logit_softcapping: null,
      rope_scaling: null,
      rope_local_base_freq: 10_000,
      sliding_window_pattern: 6,
      bos_token_id: 2,
      eos_token_id: 1,
    },
  },
  mistral3: {
    family: 'mistral',
    defaults: {
      vocab_size: 32_000,
      hidden_size: 4096,
      intermediate_size: 14_336,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      hidden_act: 'silu',
      max_position_embeddings: 4096 * 32,
      rms_norm_eps: 1e-6,
      tie_word_embeddings: false,
      rope_theta: 10_000,
      sliding_window: 4096,
      bos_token_id: 1,
      eos_token_id: 2,
    },
  },
};

export function isMultimodal(modelType: unknown): modelType is Multimodal {
  return modelType === 'gemma3' || modelType === 'mistral3';
}

/** The text model's config: defaults, then the wrapper's dtype and token ids, then text_config itself. */
export function textConfigOf(kind: Multimodal, cfg: Cfg, text: Cfg): Cfg {
  const { family, defaults } = TEXT_DEFAULTS[kind];
  const outer: Cfg = {};
  for (const k of ['torch_dtype', 'dtype', 'eos_token_id', 'bos_token_id', 'tie_word_embeddings']) if (cfg[k] != null) outer[k] = cfg[k];
  return { ...defaults, ...outer, ...text, model_type: family };
}

/**
 * A wrapper's tensor name as the text model's (`model.layers.0…`, `lm_head.weight`), or null for the vision
 * tower and projector. Both layouts transformers has written: `language_model.model.*` (checkpoints up to
 * 4.51) and `model.language_model.*` (from 4.52, with `lm_head` at the top).
 */
export function textTensorName(name: string): string | null {
  for (const [from, to] of [
    ['language_model.model.', 'model.'],
    ['model.language_model.', 'model.'],
    ['language_model.lm_head.', 'lm_head.'],
    ['lm_head.', 'lm_head.'],
  ] as const) {
    if (name.startsWith(from)) return to + name.slice(from.length);
  }
  return null;
}

import type { TinyOptions } from './tiny-model';

/** Every family and option the builder claims, each against the float64 reference. */
export const FAMILY_CASES: [string, TinyOptions][] = [
  ['llama F32 untied MHA', { family: 'llama', seed: 1 }],
  [
    'llama F32 tied GQA rep 2, llama3 rope scaling',
    {
      family: 'llama',
      tie: true,
      heads: 4,
      kvHeads: 2,
      seed: 2,
      // original_max 64 puts the 4 frequencies of head_dim 8 in all three llama3 regimes.
      ropeScaling: { rope_type: 'llama3', factor: 4, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 },
    },
  ],
  ['llama F16 with attention and mlp bias, sharded', { family: 'llama', dtype: 'F16', attentionBias: true, mlpBias: true, sharded: true, seed: 3 }],
  ['llama BF16 linear rope scaling, 3 layers', { family: 'llama', dtype: 'BF16', layers: 3, ropeScaling: { type: 'linear', factor: 2 }, seed: 4 }],
  ['qwen2 F32 q/k/v bias GQA rep 2', { family: 'qwen2', heads: 4, kvHeads: 2, seed: 5 }],
  ['qwen2 F16 tied GQA rep 4', { family: 'qwen2', dtype: 'F16', tie: true, heads: 4, kvHeads: 1, seed: 6 }],
  [
    'qwen3 BF16 tied q/k norm, head_dim 12 ≠ hidden/heads, GQA rep 3',
    { family: 'qwen3', dtype: 'BF16', tie: true, heads: 6, kvHeads: 2, headDim: 12, seed: 7 },
  ],
  ['qwen3 F32 untied MHA', { family: 'qwen3', seed: 8 }],
  [
    'qwen2 sliding window 5 from layer 1 (use_sliding_window, max_window_layers)',
    { family: 'qwen2', heads: 4, kvHeads: 2, seed: 9, config: { use_sliding_window: true, sliding_window: 5, max_window_layers: 1 } },
  ],
  [
    'llama YaRN rope (factor 4, original 16)',
    { family: 'llama', heads: 4, kvHeads: 2, seed: 10, ropeScaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 16 } },
  ],
  [
    'llama dynamic NTK rope (23 tokens past max_position_embeddings 8)',
    { family: 'llama', seed: 11, ropeScaling: { rope_type: 'dynamic', factor: 2 }, config: { max_position_embeddings: 8 } },
  ],
  [
    'mistral BF16 sliding window 7 in every layer, head_dim 12, GQA rep 2',
    { family: 'mistral', dtype: 'BF16', heads: 4, kvHeads: 2, headDim: 12, seed: 12, config: { sliding_window: 7 } },
  ],
  [
    'granite F32 tied: embedding, attention, residual and logits multipliers',
    {
      family: 'granite',
      tie: true,
      heads: 4,
      kvHeads: 2,
      seed: 13,
      config: { embedding_multiplier: 12, attention_multiplier: 0.3, residual_multiplier: 0.22, logits_scaling: 8 },
    },
  ],
  [
    'smollm3 NoPE layers (no_rope_layers [1,1,0]), tied by default',
    { family: 'smollm3', layers: 3, heads: 4, kvHeads: 2, seed: 14, config: { no_rope_layers: [1, 1, 0], tie_word_embeddings: undefined } },
  ],
  [
    'smollm3 sliding NoPE layers (use_sliding_window, window 6, interval 2)',
    { family: 'smollm3', layers: 4, heads: 4, kvHeads: 2, seed: 15, config: { no_rope_layer_interval: 2, use_sliding_window: true, sliding_window: 6 } },
  ],
  ['olmo2 BF16 post-norms, q/k norm over the whole projection, GQA rep 2', { family: 'olmo2', dtype: 'BF16', heads: 4, kvHeads: 2, seed: 16 }],
  [
    'gemma3_text BF16 tied: (1+w) norms, GeGLU, sandwich norms, √hidden, query_pre_attn_scalar, local/global rope, window 5, softcap',
    {
      family: 'gemma3_text',
      dtype: 'BF16',
      tie: true,
      layers: 3,
      heads: 4,
      kvHeads: 1,
      headDim: 16,
      seed: 17,
      config: {
        layer_types: ['sliding_attention', 'sliding_attention', 'full_attention'],
        sliding_window: 5,
        query_pre_attn_scalar: 24,
        rope_local_base_freq: 100,
        rope_scaling: { rope_type: 'linear', factor: 2 },
        final_logit_softcapping: 5,
      },
    },
  ],
  [
    'gemma3_text F32 sliding pattern 2 (no layer_types)',
    { family: 'gemma3_text', layers: 4, heads: 4, kvHeads: 2, headDim: 8, seed: 18, config: { sliding_window_pattern: 2, sliding_window: 4 } },
  ],
  [
    'phi3 fused qkv and gate_up, partial rotary 0.5, LongRoPE long factors (23 > 8 tokens)',
    {
      family: 'phi3',
      heads: 4,
      kvHeads: 2,
      seed: 19,
      config: {
        partial_rotary_factor: 0.5,
        original_max_position_embeddings: 8,
        max_position_embeddings: 64,
        rope_scaling: { type: 'longrope', short_factor: [1, 1.5], long_factor: [2, 5] },
      },
    },
  ],
  [
    'phi3 BF16 tied, LongRoPE short factors (23 ≤ 32), sliding window 9',
    {
      family: 'phi3',
      dtype: 'BF16',
      tie: true,
      seed: 20,
      config: {
        original_max_position_embeddings: 32,
        max_position_embeddings: 256,
        sliding_window: 9,
        rope_scaling: { type: 'longrope', short_factor: [1, 1.2, 1.4, 1.6], long_factor: [3, 4, 5, 6] },
      },
    },
  ],
];

/** Families the graph builder knows, keyed by the config's `model_type`, each ported from its modeling_*.py. */
export const FAMILIES = ['llama', 'mistral', 'qwen2', 'qwen3', 'granite', 'smollm3', 'olmo2', 'gemma3_text', 'phi3'] as const;
export type Family = (typeof FAMILIES)[number];

/** One decoder layer's attention: which rotary embedding (null: none, SmolLM3's NoPE layers) and its window. */
export interface LayerSpec {
  /** Index into ModelSpec.ropes, or null when this layer does not rotate q and k. */
  rope: number | null;
  /** Keys a query sees in a sliding-window layer, itself included (q − W < k ≤ q), or null: all earlier keys. */
  window: number | null;
}

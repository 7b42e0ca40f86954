import { ModelError } from './errors';

/** Families the graph builder knows, keyed by the config's `model_type`. */
export type Family = 'llama' | 'qwen2' | 'qwen3';
const FAMILIES: readonly Family[] = ['llama', 'qwen2', 'qwen3'];

export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositionEmbeddings: number };

/**
 * The one normalized description of a checkpoint. Everything downstream (weights, graph, reference,
 * UI) reads this, never config.json, so each HF spelling quirk is handled here once.
 */
export interface ModelSpec {
  family: Family;
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  rmsNormEps: number;
  ropeTheta: number;
  ropeScaling: RopeScaling;
  maxPositionEmbeddings: number;
  tieWordEmbeddings: boolean;
  /** q/k/v projections carry a bias (Qwen2 always; Llama/Qwen3 when `attention_bias`). */
  qkvBias: boolean;
  /** o_proj carries a bias (Llama/Qwen3 `attention_bias`; never Qwen2). */
  oBias: boolean;
  mlpBias: boolean;
  /** Per-head RMSNorm of q and k before RoPE (Qwen3). */
  qkNorm: boolean;
  bosTokenId: number | null;
  eosTokenIds: number[];
}

const FILE = 'config.json';

function num(cfg: Record<string, unknown>, field: string, fallback?: number): number {
  const v = cfg[field];
  if (v === undefined || v === null) {
    if (fallback !== undefined) return fallback;
    throw new ModelError(FILE, 'is missing', field);
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ModelError(FILE, `must be a number, got ${JSON.stringify(v)}`, field);
  return v;
}

function posInt(cfg: Record<string, unknown>, field: string, fallback?: number): number {
  const v = num(cfg, field, fallback);
  if (!Number.isInteger(v) || v <= 0) throw new ModelError(FILE, `must be a positive integer, got ${v}`, field);
  return v;
}

function ropeScaling(cfg: Record<string, unknown>): RopeScaling {
  // Transformers ≥ 4.5x writes `rope_parameters` (type under `rope_type`); older configs `rope_scaling`.
  const field = cfg.rope_scaling != null ? 'rope_scaling' : 'rope_parameters';
  const raw = cfg[field] as Record<string, unknown> | null | undefined;
  if (raw == null) return { type: 'default' };
  if (typeof raw !== 'object') throw new ModelError(FILE, 'must be an object', field);
  const type = raw.rope_type ?? raw.type ?? 'default';
  const sub = (key: string, fallback?: number) => num(raw, key, fallback);
  try {
    if (type === 'default') return { type: 'default' };
    if (type === 'linear') return { type: 'linear', factor: sub('factor') };
    if (type === 'llama3') {
      return {
        type: 'llama3',
        factor: sub('factor'),
        lowFreqFactor: sub('low_freq_factor'),
        highFreqFactor: sub('high_freq_factor'),
        originalMaxPositionEmbeddings: sub('original_max_position_embeddings'),
      };
    }
  } catch (e) {
    if (e instanceof ModelError) throw new ModelError(FILE, e.detail, `${field}.${e.field}`);
    throw e;
  }
  throw new ModelError(FILE, `rope type "${String(type)}" is not supported (default, linear, llama3 are)`, `${field}.rope_type`);
}

/** Validates config.json and turns it into a ModelSpec, or throws a ModelError naming the field. */
export function normalizeConfig(cfg: Record<string, unknown>): ModelSpec {
  const modelType = cfg.model_type;
  if (typeof modelType !== 'string' || !FAMILIES.includes(modelType as Family)) {
    throw new ModelError(FILE, `model_type ${JSON.stringify(modelType)} is not supported (${FAMILIES.join(', ')} are)`, 'model_type');
  }
  const family = modelType as Family;
  const act = cfg.hidden_act ?? 'silu';
  if (act !== 'silu') throw new ModelError(FILE, `activation ${JSON.stringify(act)} is not supported (silu is)`, 'hidden_act');
  if (cfg.use_sliding_window === true) {
    throw new ModelError(FILE, 'sliding-window attention is not supported yet', 'use_sliding_window');
  }
  const partial = cfg.partial_rotary_factor ?? (cfg.rope_parameters as Record<string, unknown> | undefined)?.partial_rotary_factor;
  if (partial !== undefined && partial !== 1 && partial !== 1.0) {
    throw new ModelError(FILE, `partial rotary embeddings (${String(partial)}) are not supported`, 'partial_rotary_factor');
  }
  const hiddenSize = posInt(cfg, 'hidden_size');
  const numHeads = posInt(cfg, 'num_attention_heads');
  const numKvHeads = posInt(cfg, 'num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) {
    throw new ModelError(FILE, `${numHeads} attention heads are not a multiple of ${numKvHeads} key/value heads`, 'num_key_value_heads');
  }
  const headDim = posInt(cfg, 'head_dim', hiddenSize / numHeads);
  if (headDim % 2 !== 0) throw new ModelError(FILE, `head_dim ${headDim} must be even for rotary embeddings`, 'head_dim');
  const attentionBias = cfg.attention_bias === true;
  const ropeParams = cfg.rope_parameters as Record<string, unknown> | undefined;
  const eos = cfg.eos_token_id;
  return {
    family,
    vocabSize: posInt(cfg, 'vocab_size'),
    hiddenSize,
    intermediateSize: posInt(cfg, 'intermediate_size'),
    numLayers: posInt(cfg, 'num_hidden_layers'),
    numHeads,
    numKvHeads,
    headDim,
    rmsNormEps: num(cfg, 'rms_norm_eps', 1e-6),
    ropeTheta: num(cfg, 'rope_theta', typeof ropeParams?.rope_theta === 'number' ? ropeParams.rope_theta : 10000),
    ropeScaling: ropeScaling(cfg),
    maxPositionEmbeddings: posInt(cfg, 'max_position_embeddings', 2048),
    tieWordEmbeddings: cfg.tie_word_embeddings === true,
    qkvBias: family === 'qwen2' || attentionBias,
    oBias: family !== 'qwen2' && attentionBias,
    mlpBias: cfg.mlp_bias === true,
    qkNorm: family === 'qwen3',
    bosTokenId: typeof cfg.bos_token_id === 'number' ? cfg.bos_token_id : null,
    eosTokenIds: Array.isArray(eos) ? eos.filter((e): e is number => typeof e === 'number') : typeof eos === 'number' ? [eos] : [],
  };
}

/** Number of parameters the spec implies (lm_head counted only when untied). */
export function parameterCount(s: ModelSpec): number {
  const q = s.numHeads * s.headDim;
  const kv = s.numKvHeads * s.headDim;
  const attn = s.hiddenSize * (q + 2 * kv) + q * s.hiddenSize + (s.qkvBias ? q + 2 * kv : 0) + (s.oBias ? s.hiddenSize : 0) + (s.qkNorm ? 2 * s.headDim : 0);
  const mlp = 3 * s.hiddenSize * s.intermediateSize + (s.mlpBias ? 2 * s.intermediateSize + s.hiddenSize : 0);
  const layer = attn + mlp + 2 * s.hiddenSize;
  const embed = s.vocabSize * s.hiddenSize;
  return embed + s.numLayers * layer + s.hiddenSize + (s.tieWordEmbeddings ? 0 : embed);
}

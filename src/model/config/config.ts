import { bool, CONFIG_FILE, has, posInt, positive, type Cfg } from './config-fields';
import { ModelError } from '../errors';
import { isMultimodal, textConfigOf, type Multimodal } from './multimodal';
import type { AwqConfig } from '../precision/awq';
import type { Rope, RopeScaling } from './rope-config';
import { FAMILIES, type Family, type LayerSpec } from './family';
import { layersOf, ropesOf } from './layer-spec';

export type { Rope, RopeScaling };

export { FAMILIES, type Family, type LayerSpec } from './family';

/**
 * The one normalized description of a checkpoint. Everything downstream (weights, graph, reference,
 * UI) reads this, never config.json, so each HF spelling quirk is handled here once.
 */
export interface ModelSpec {
  family: Family;
  /** An image-and-text checkpoint whose text model this is (model/config/multimodal.ts): its weights are renamed, its vision tower never read. */
  multimodal?: Multimodal;
  /** A published AWQ checkpoint's quantization (model/precision/awq.ts): its linear layers run packed, as stored. */
  awq?: AwqConfig;
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  rmsNormEps: number;
  maxPositionEmbeddings: number;
  tieWordEmbeddings: boolean;
  /** q/k/v projections carry a bias (Qwen2 always; others when `attention_bias`). */
  qkvBias: boolean;
  /** o_proj carries a bias (`attention_bias`; never Qwen2). */
  oBias: boolean;
  mlpBias: boolean;
  /** RMSNorm of q and k before RoPE: per head over head_dim (Qwen3, Gemma 3) or over the whole projection (OLMo 2). */
  qkNorm: 'none' | 'head' | 'projection';
  /**
   * Where the layer norms sit. pre: input_layernorm before attention, post_attention_layernorm before the
   * MLP (Llama). post: norms of each branch's output, inside the residual (OLMo 2). sandwich: both (Gemma 3).
   */
  norms: 'pre' | 'post' | 'sandwich';
  /** Gemma's RMSNorm scales by (1 + weight): weights are stored zero-centred. */
  normOffset: 0 | 1;
  /** The MLP's gate activation: SiLU, or GELU with the tanh approximation (gelu_pytorch_tanh). */
  activation: 'silu' | 'gelu_tanh';
  /** Phi-3 stores q, k, v as one qkv_proj and gate, up as one gate_up_proj. */
  fusedQkv: boolean;
  fusedGateUp: boolean;
  /** Multiplies q·kᵀ: head_dim^-½, Granite's attention_multiplier, Gemma's query_pre_attn_scalar^-½. */
  attentionScale: number;
  /** Multiplies the looked-up embeddings (Granite's embedding_multiplier; Gemma's √hidden in the checkpoint's dtype). */
  embeddingScale: number;
  /** Multiplies each branch's output before the residual add (Granite's residual_multiplier). */
  residualScale: number;
  /** Multiplies the logits (Granite: 1 / logits_scaling). */
  logitScale: number;
  /** Gemma's final_logit_softcapping: logits = c·tanh(logits / c); null: none. */
  finalSoftcap: number | null;
  ropes: Rope[];
  layers: LayerSpec[];
  bosTokenId: number | null;
  eosTokenIds: number[];
  /** What the normalization decided where a config is silent or differs from transformers' newest reading, for the model panel. */
  notes: string[];
}

/** Per-family architecture, from each modeling_*.py (notes on each: docs/models.md). */
interface FamilyTraits {
  qkvBias: (cfg: Cfg) => boolean;
  oBias: (cfg: Cfg) => boolean;
  qkNorm: ModelSpec['qkNorm'];
  norms: ModelSpec['norms'];
  tieDefault: boolean;
  epsDefault: number;
}

const attentionBias = (cfg: Cfg) => bool(cfg, 'attention_bias', false);
const LLAMA: FamilyTraits = { qkvBias: attentionBias, oBias: attentionBias, qkNorm: 'none', norms: 'pre', tieDefault: false, epsDefault: 1e-6 };
const TRAITS: Record<Family, FamilyTraits> = {
  llama: LLAMA,
  granite: LLAMA,
  // Mistral has no biases at all (modeling_mistral.py).
  mistral: { ...LLAMA, qkvBias: () => false, oBias: () => false },
  qwen2: { ...LLAMA, qkvBias: () => true, oBias: () => false },
  qwen3: { ...LLAMA, qkNorm: 'head' },
  smollm3: { ...LLAMA, tieDefault: true },
  olmo2: { ...LLAMA, qkNorm: 'projection', norms: 'post', epsDefault: 1e-5 },
  gemma3_text: { ...LLAMA, qkNorm: 'head', norms: 'sandwich', tieDefault: true },
  phi3: { ...LLAMA, epsDefault: 1e-5 },
};

/** Rounds x to the nearest value of a dtype (round to nearest even), as a torch buffer cast to it. */
function roundTo(x: number, dtype: string): number {
  const f = Math.fround(x);
  if (dtype === 'bfloat16') {
    const u = new Uint32Array(new Float32Array([f]).buffer)[0]!;
    return new Float32Array(new Uint32Array([((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) << 16]).buffer)[0]!;
  }
  if (dtype === 'float16') {
    const e = Math.floor(Math.log2(Math.abs(f)));
    const step = 2 ** (e - 10);
    return Math.round(f / step) * step;
  }
  return f;
}

/** An image-and-text model whose text model is a supported family: that model, read from text_config. */
function multimodalSpec(modelType: Multimodal, cfg: Cfg, weightsDtype: string | undefined): ModelSpec {
  const text = cfg.text_config;
  if (!text || typeof text !== 'object' || Array.isArray(text))
    throw new ModelError(
      CONFIG_FILE,
      `model_type "${modelType}" is an image-and-text model, but there is no text_config object to read its text model from`,
      'text_config',
    );
  let spec: ModelSpec;
  try {
    spec = normalizeConfig(textConfigOf(modelType, cfg, text as Cfg), weightsDtype);
  } catch (e) {
    if (e instanceof ModelError && e.field) throw new ModelError(e.file, e.detail, `text_config.${e.field}`);
    throw e;
  }
  spec.notes.unshift(
    `an image-and-text model (model_type "${modelType}"): its text model (${spec.family}) is read from text_config, with transformers' defaults for what it leaves out; the vision tower is never read, so images are not part of the analysis`,
  );
  return { ...spec, multimodal: modelType };
}

/**
 * Validates config.json and turns it into a ModelSpec, or throws a ModelError naming the field.
 * `weightsDtype`: the dtype the checkpoint's tensors are stored in, for a config that does not say.
 */
export function normalizeConfig(cfg: Cfg, weightsDtype?: string): ModelSpec {
  const modelType = cfg.model_type;
  if (isMultimodal(modelType)) return multimodalSpec(modelType, cfg, weightsDtype);
  if (typeof modelType !== 'string' || !(FAMILIES as readonly string[]).includes(modelType)) {
    throw new ModelError(CONFIG_FILE, `model_type ${JSON.stringify(modelType)?.slice(0, 60)} is not supported (${FAMILIES.join(', ')} are)`, 'model_type');
  }
  const family = modelType as Family;
  const t = TRAITS[family];
  const notes: string[] = [];
  const actField = family === 'gemma3_text' && has(cfg, 'hidden_activation') ? 'hidden_activation' : 'hidden_act';
  const act = cfg[actField] ?? (family === 'gemma3_text' ? 'gelu_pytorch_tanh' : 'silu');
  const activation = act === 'silu' ? 'silu' : act === 'gelu_pytorch_tanh' && family === 'gemma3_text' ? 'gelu_tanh' : null;
  if (!activation)
    throw new ModelError(CONFIG_FILE, `activation ${JSON.stringify(act)?.slice(0, 40)} is not supported (silu is; gelu_pytorch_tanh for Gemma 3)`, actField);

  const hiddenSize = posInt(cfg, 'hidden_size');
  const numHeads = posInt(cfg, 'num_attention_heads');
  const numKvHeads = posInt(cfg, 'num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) {
    throw new ModelError(CONFIG_FILE, `${numHeads} attention heads are not a multiple of ${numKvHeads} key/value heads`, 'num_key_value_heads');
  }
  // head_dim when given, else the family's default (Gemma 3: 256, Qwen3: 128), else hidden / heads.
  const defaultHeadDim = family === 'gemma3_text' ? 256 : family === 'qwen3' ? 128 : null;
  if (!has(cfg, 'head_dim') && defaultHeadDim === null && hiddenSize % numHeads !== 0) {
    throw new ModelError(CONFIG_FILE, `hidden_size ${hiddenSize} is not divisible by ${numHeads} heads, and there is no head_dim`, 'num_attention_heads');
  }
  const headDim = posInt(cfg, 'head_dim', defaultHeadDim ?? hiddenSize / numHeads);
  if (headDim % 2 !== 0) throw new ModelError(CONFIG_FILE, `head_dim ${headDim} must be even for rotary embeddings`, 'head_dim');
  const numLayers = posInt(cfg, 'num_hidden_layers');
  const maxPos = posInt(cfg, 'max_position_embeddings', 2048);

  const { ropes, localRope } = ropesOf(cfg, family, headDim, maxPos);
  const layers = layersOf(cfg, family, numLayers, maxPos, localRope, notes);

  const granite = family === 'granite';
  const declared = typeof cfg.torch_dtype === 'string' ? cfg.torch_dtype : typeof cfg.dtype === 'string' ? cfg.dtype : null;
  const weightDtype = declared ?? weightsDtype ?? 'float32';
  const attentionScale = granite
    ? positive(cfg, 'attention_multiplier', 1)
    : family === 'gemma3_text'
      ? positive(cfg, 'query_pre_attn_scalar', 256) ** -0.5
      : headDim ** -0.5;
  if (family === 'gemma3_text')
    notes.push(
      `embeddings × √${hiddenSize} held in ${weightDtype} (${declared ? 'config.json torch_dtype' : weightsDtype ? 'the dtype the weights are stored in: config.json has no torch_dtype' : 'config.json has no torch_dtype'}), as transformers does: ${+roundTo(Math.sqrt(hiddenSize), weightDtype).toFixed(4)}`,
    );
  if (family === 'gemma3_text' && has(cfg, 'attn_logit_softcapping'))
    notes.push('attn_logit_softcapping is not applied: Gemma 3 never passes it to attention (modeling_gemma3.py)');
  const eos = cfg.eos_token_id;
  return {
    family,
    vocabSize: posInt(cfg, 'vocab_size'),
    hiddenSize,
    intermediateSize: posInt(cfg, 'intermediate_size'),
    numLayers,
    numHeads,
    numKvHeads,
    headDim,
    rmsNormEps: positive(cfg, 'rms_norm_eps', t.epsDefault),
    maxPositionEmbeddings: maxPos,
    tieWordEmbeddings: bool(cfg, 'tie_word_embeddings', t.tieDefault),
    qkvBias: t.qkvBias(cfg),
    oBias: t.oBias(cfg),
    mlpBias: family === 'mistral' || family === 'gemma3_text' || family === 'phi3' ? false : bool(cfg, 'mlp_bias', false),
    qkNorm: t.qkNorm,
    norms: t.norms,
    normOffset: family === 'gemma3_text' ? 1 : 0,
    activation,
    fusedQkv: family === 'phi3',
    fusedGateUp: family === 'phi3',
    attentionScale,
    // Gemma 3: √hidden held as an fp32 buffer, cast to the weights' dtype when it multiplies (modeling_gemma3.py).
    embeddingScale: granite ? positive(cfg, 'embedding_multiplier', 1) : family === 'gemma3_text' ? roundTo(Math.sqrt(hiddenSize), weightDtype) : 1,
    residualScale: granite ? positive(cfg, 'residual_multiplier', 1) : 1,
    logitScale: granite ? 1 / positive(cfg, 'logits_scaling', 1) : 1,
    finalSoftcap: family === 'gemma3_text' && has(cfg, 'final_logit_softcapping') ? positive(cfg, 'final_logit_softcapping') : null,
    ropes,
    layers,
    bosTokenId: typeof cfg.bos_token_id === 'number' ? cfg.bos_token_id : null,
    eosTokenIds: Array.isArray(eos) ? eos.filter((e): e is number => typeof e === 'number') : typeof eos === 'number' ? [eos] : [],
    notes,
  };
}

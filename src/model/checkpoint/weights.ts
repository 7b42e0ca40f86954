import type { ModelSpec } from '../config/config';
import { INDEX_FILE, SINGLE_FILE, type Checkpoint, type StoredTensor } from './checkpoint';
import { ModelError } from '../errors';

/**
 * One decoder layer's tensors by role, in HF layout ([out, in] for linear weights). Which are present
 * follows the spec: fused qkv / gate_up (Phi-3) instead of q, k, v / gate, up; norms by placement.
 */
export interface LayerWeights {
  /** Before attention (input_layernorm); absent in OLMo 2. */
  attnInNorm?: StoredTensor;
  /** On attention's output (post_attention_layernorm of OLMo 2 and Gemma 3). */
  attnOutNorm?: StoredTensor;
  /** Before the MLP (Llama's post_attention_layernorm, Gemma's pre_feedforward_layernorm). */
  mlpInNorm?: StoredTensor;
  /** On the MLP's output (post_feedforward_layernorm of OLMo 2 and Gemma 3). */
  mlpOutNorm?: StoredTensor;
  q?: StoredTensor;
  k?: StoredTensor;
  v?: StoredTensor;
  qkv?: StoredTensor;
  o: StoredTensor;
  qBias?: StoredTensor;
  kBias?: StoredTensor;
  vBias?: StoredTensor;
  oBias?: StoredTensor;
  qNorm?: StoredTensor;
  kNorm?: StoredTensor;
  gate?: StoredTensor;
  up?: StoredTensor;
  gateUp?: StoredTensor;
  down: StoredTensor;
  gateBias?: StoredTensor;
  upBias?: StoredTensor;
  downBias?: StoredTensor;
}

export interface ModelWeights {
  embed: StoredTensor;
  layers: LayerWeights[];
  norm: StoredTensor;
  /** The output projection [vocab, hidden]: the embedding itself when tied. */
  lmHead: StoredTensor;
}

export type TensorRole = keyof LayerWeights | 'embed' | 'norm' | 'lmHead';

/** A tensor the spec implies: its HF name, shape, and role. */
export interface PlannedTensor {
  name: string;
  shape: number[];
  role: TensorRole;
  /** Its layer, or null for the embedding, the final norm and lm_head. */
  layer: number | null;
}

/**
 * Every tensor a checkpoint of this spec holds, by HF name: the one list that resolving a checkpoint,
 * counting parameters and writing random-weight checkpoints (tests, the rehearsal) all read.
 */
export function tensorPlan(spec: ModelSpec): PlannedTensor[] {
  const D = spec.hiddenSize;
  const q = spec.numHeads * spec.headDim;
  const kv = spec.numKvHeads * spec.headDim;
  const I = spec.intermediateSize;
  const out: PlannedTensor[] = [{ name: 'model.embed_tokens.weight', shape: [spec.vocabSize, D], role: 'embed', layer: null }];
  for (let l = 0; l < spec.numLayers; l++) {
    const p = `model.layers.${l}.`;
    const a = `${p}self_attn.`;
    const m = `${p}mlp.`;
    const add = (name: string, shape: number[], role: keyof LayerWeights) => out.push({ name, shape, role, layer: l });
    if (spec.norms !== 'post') add(`${p}input_layernorm.weight`, [D], 'attnInNorm');
    if (spec.norms === 'pre') add(`${p}post_attention_layernorm.weight`, [D], 'mlpInNorm');
    if (spec.norms !== 'pre') add(`${p}post_attention_layernorm.weight`, [D], 'attnOutNorm');
    if (spec.norms === 'sandwich') add(`${p}pre_feedforward_layernorm.weight`, [D], 'mlpInNorm');
    if (spec.norms !== 'pre') add(`${p}post_feedforward_layernorm.weight`, [D], 'mlpOutNorm');
    if (spec.fusedQkv) add(`${a}qkv_proj.weight`, [q + 2 * kv, D], 'qkv');
    else {
      add(`${a}q_proj.weight`, [q, D], 'q');
      add(`${a}k_proj.weight`, [kv, D], 'k');
      add(`${a}v_proj.weight`, [kv, D], 'v');
    }
    add(`${a}o_proj.weight`, [D, q], 'o');
    if (spec.qkvBias) {
      add(`${a}q_proj.bias`, [q], 'qBias');
      add(`${a}k_proj.bias`, [kv], 'kBias');
      add(`${a}v_proj.bias`, [kv], 'vBias');
    }
    if (spec.oBias) add(`${a}o_proj.bias`, [D], 'oBias');
    if (spec.qkNorm !== 'none') {
      const [qn, kn] = spec.qkNorm === 'head' ? [spec.headDim, spec.headDim] : [q, kv];
      add(`${a}q_norm.weight`, [qn], 'qNorm');
      add(`${a}k_norm.weight`, [kn], 'kNorm');
    }
    if (spec.fusedGateUp) add(`${m}gate_up_proj.weight`, [2 * I, D], 'gateUp');
    else {
      add(`${m}gate_proj.weight`, [I, D], 'gate');
      add(`${m}up_proj.weight`, [I, D], 'up');
    }
    add(`${m}down_proj.weight`, [D, I], 'down');
    if (spec.mlpBias) {
      add(`${m}gate_proj.bias`, [I], 'gateBias');
      add(`${m}up_proj.bias`, [I], 'upBias');
      add(`${m}down_proj.bias`, [D], 'downBias');
    }
  }
  out.push({ name: 'model.norm.weight', shape: [D], role: 'norm', layer: null });
  if (!spec.tieWordEmbeddings) out.push({ name: 'lm_head.weight', shape: [spec.vocabSize, D], role: 'lmHead', layer: null });
  return out;
}

/** Number of parameters the spec implies (lm_head counted only when untied). */
export function parameterCount(spec: ModelSpec): number {
  return tensorPlan(spec).reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
}

/**
 * Finds every tensor the spec needs under its HF name and checks its shape, so a checkpoint that
 * does not match its config fails here naming the tensor, not inside onnxruntime.
 */
export function resolveWeights(spec: ModelSpec, ckpt: Checkpoint): ModelWeights {
  const sharded = ckpt.weightFiles.length > 1 || ckpt.weightFiles[0]?.name !== SINGLE_FILE;
  const get = (p: PlannedTensor): StoredTensor => {
    const t = ckpt.tensors.get(p.name);
    if (!t) throw new ModelError(sharded ? INDEX_FILE : SINGLE_FILE, `tensor ${p.name} is missing (config.json implies it)`, p.name);
    if (t.shape.length !== p.shape.length || t.shape.some((d, i) => d !== p.shape[i])) {
      throw new ModelError(t.file, `shape [${t.shape}] does not match [${p.shape}] implied by config.json`, p.name);
    }
    return t;
  };
  const layers: Partial<Record<keyof LayerWeights, StoredTensor>>[] = Array.from({ length: spec.numLayers }, () => ({}));
  let embed: StoredTensor | null = null;
  let norm: StoredTensor | null = null;
  let lmHead: StoredTensor | null = null;
  for (const p of tensorPlan(spec)) {
    const t = get(p);
    if (p.layer !== null) layers[p.layer]![p.role as keyof LayerWeights] = t;
    else if (p.role === 'embed') embed = t;
    else if (p.role === 'norm') norm = t;
    else lmHead = t;
  }
  return { embed: embed!, layers: layers as LayerWeights[], norm: norm!, lmHead: lmHead ?? embed! };
}

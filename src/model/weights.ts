import type { ModelSpec } from './config';
import type { Checkpoint, StoredTensor } from './checkpoint';
import { ModelError } from './errors';

/** One decoder layer's tensors, in HF layout ([out, in] for linear weights). */
export interface LayerWeights {
  inputNorm: StoredTensor;
  q: StoredTensor; k: StoredTensor; v: StoredTensor; o: StoredTensor;
  qBias?: StoredTensor; kBias?: StoredTensor; vBias?: StoredTensor; oBias?: StoredTensor;
  qNorm?: StoredTensor; kNorm?: StoredTensor;
  postNorm: StoredTensor;
  gate: StoredTensor; up: StoredTensor; down: StoredTensor;
  gateBias?: StoredTensor; upBias?: StoredTensor; downBias?: StoredTensor;
}

export interface ModelWeights {
  embed: StoredTensor;
  layers: LayerWeights[];
  norm: StoredTensor;
  /** The output projection [vocab, hidden]: the embedding itself when tied. */
  lmHead: StoredTensor;
}

/**
 * Finds every tensor the spec needs under its HF name and checks its shape, so a checkpoint that
 * does not match its config fails here naming the tensor, not inside onnxruntime.
 */
export function resolveWeights(spec: ModelSpec, ckpt: Checkpoint): ModelWeights {
  const get = (name: string, shape: number[]): StoredTensor => {
    const t = ckpt.tensors.get(name);
    if (!t) throw new ModelError('model.safetensors', `tensor ${name} is missing (config.json implies it)`, name);
    if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) {
      throw new ModelError(t.file, `shape [${t.shape}] does not match [${shape}] implied by config.json`, name);
    }
    return t;
  };
  const D = spec.hiddenSize;
  const qDim = spec.numHeads * spec.headDim;
  const kvDim = spec.numKvHeads * spec.headDim;
  const I = spec.intermediateSize;
  const layers: LayerWeights[] = [];
  for (let l = 0; l < spec.numLayers; l++) {
    const p = `model.layers.${l}.`;
    const a = `${p}self_attn.`;
    const m = `${p}mlp.`;
    layers.push({
      inputNorm: get(`${p}input_layernorm.weight`, [D]),
      q: get(`${a}q_proj.weight`, [qDim, D]),
      k: get(`${a}k_proj.weight`, [kvDim, D]),
      v: get(`${a}v_proj.weight`, [kvDim, D]),
      o: get(`${a}o_proj.weight`, [D, qDim]),
      ...(spec.qkvBias && {
        qBias: get(`${a}q_proj.bias`, [qDim]),
        kBias: get(`${a}k_proj.bias`, [kvDim]),
        vBias: get(`${a}v_proj.bias`, [kvDim]),
      }),
      ...(spec.oBias && { oBias: get(`${a}o_proj.bias`, [D]) }),
      ...(spec.qkNorm && { qNorm: get(`${a}q_norm.weight`, [spec.headDim]), kNorm: get(`${a}k_norm.weight`, [spec.headDim]) }),
      postNorm: get(`${p}post_attention_layernorm.weight`, [D]),
      gate: get(`${m}gate_proj.weight`, [I, D]),
      up: get(`${m}up_proj.weight`, [I, D]),
      down: get(`${m}down_proj.weight`, [D, I]),
      ...(spec.mlpBias && {
        gateBias: get(`${m}gate_proj.bias`, [I]),
        upBias: get(`${m}up_proj.bias`, [I]),
        downBias: get(`${m}down_proj.bias`, [D]),
      }),
    });
  }
  const embed = get('model.embed_tokens.weight', [spec.vocabSize, D]);
  const lmHead = spec.tieWordEmbeddings ? embed : get('lm_head.weight', [spec.vocabSize, D]);
  return { embed, layers, norm: get('model.norm.weight', [D]), lmHead };
}

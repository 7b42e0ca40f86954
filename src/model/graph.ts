import type { ModelSpec } from './config';
import type { StoredTensor } from './checkpoint';
import type { ComputeDtype } from './compute-dtype';
import { toFloat16Bytes, toFloat32 } from './dtype';
import { ModelError } from './errors';
import { mapBytes } from './tensor-bytes';
import { HIDDEN_OUT, INPUT, LOGITS, attnMeanName, attnRowsName, pastKeyName, pastValueName, presentKeyName, presentValueName } from './graph-io';
import { DT, FloatAttr, GraphBuilder, type ExternalFile } from './onnx-builder';
import type { LayerWeights, ModelWeights } from './weights';

export interface GraphOptions {
  /** Layers whose attention rows become outputs. Default: the final layer. */
  inspectLayers?: number[];
  /** Default fp32. fp16 keeps RMSNorm and softmax in fp32, as transformers does in half precision. */
  computeDtype?: ComputeDtype;
  /** Past/present key-values as inputs/outputs, for generation (graph-io.ts). */
  kvCache?: boolean;
  /**
   * 'fused': layers not inspected run com.microsoft GroupQueryAttention (no [S × S] scores in
   * memory); inspected layers stay explicit. Default 'explicit' (every layer MatMul→Softmax→MatMul).
   */
  attention?: 'explicit' | 'fused';
  /**
   * The layers [first, end) this graph runs: one segment of the model (default: all). A segment after
   * layer 0 starts from `hidden_in`; one that ends before the last layer returns `hidden_out`.
   */
  layers?: [number, number];
}

export interface BuiltGraph {
  /** The serialized ModelProto (graph only; weights are in externalData). */
  model: Uint8Array;
  externalData: ExternalFile[];
  inspectLayers: number[];
  /** The dtype the graph computes in. Attention outputs and logits are fp32 either way. */
  computeDtype: ComputeDtype;
  /** How the checkpoint's weights were stored in the graph, for the loader's report. */
  weightStorage: string;
  outputNames: string[];
  kvCache: boolean;
  attention: 'explicit' | 'fused';
  /** Why fused attention was not used where it was asked for. */
  attentionNote: string | null;
  /** The layers [first, end) it runs. */
  layers: [number, number];
}

/** Smallest float32, used as the additive mask value exactly as HF does (torch.finfo(float32).min). */
const MASK_VALUE = -3.4028234663852886e38;

/**
 * Builds the decoder as an ONNX graph (batch 1, dynamic sequence length), following modeling_llama.py /
 * modeling_qwen2.py / modeling_qwen3.py. Activations are 2-D [seq, hidden] so every projection is one
 * Gemm with transB=1 on HF's [out, in] weight: no transposed copies of the weights.
 */
export function buildGraph(spec: ModelSpec, weights: ModelWeights, options: GraphOptions = {}): BuiltGraph {
  const asked = options.inspectLayers ?? [spec.numLayers - 1];
  for (const l of asked) {
    if (!Number.isInteger(l) || l < 0 || l >= spec.numLayers) {
      throw new ModelError('config.json', `layer ${l} cannot be inspected: the model has layers 0..${spec.numLayers - 1}`, 'num_hidden_layers');
    }
  }
  const [first, end] = options.layers ?? [0, spec.numLayers];
  if (!(Number.isInteger(first) && Number.isInteger(end) && 0 <= first && first < end && end <= spec.numLayers)) {
    throw new RangeError(`layers [${first}, ${end}) is not a segment of layers 0..${spec.numLayers - 1}`);
  }
  const inSegment = (l: number) => l >= first && l < end;
  const isFirst = first === 0;
  const isLast = end === spec.numLayers;
  const inspect = asked.filter(inSegment);
  const dtype = options.computeDtype ?? 'fp32';
  const half = dtype === 'fp16';
  const T = half ? DT.FLOAT16 : DT.FLOAT;
  const g = new GraphBuilder();
  const storage = new Set<string>();
  /** Casts between the compute dtype and fp32 (no-ops in an fp32 graph). */
  const toF32 = (x: string) => (half ? g.op('Cast', [x], { to: DT.FLOAT }) : x);
  const toT = (x: string) => (half ? g.op('Cast', [x], { to: T }) : x);

  const stored = new Map<string, string>();
  /**
   * A checkpoint tensor in the compute dtype, added once (a tied lm_head reuses the embedding's).
   * fp32 graph: F32 as is; F16 kept in half precision and Cast at load (ORT folds it); BF16 widened here.
   * fp16 graph: F16 as is; BF16 and F32 narrowed here.
   */
  const weight = (t: StoredTensor): string => {
    const known = stored.get(t.name);
    if (known) return known;
    const n = t.shape.reduce((a, b) => a * b, 1);
    let value: string;
    if (half) {
      storage.add(t.dtype === 'F16' ? 'F16 weights used as is' : `${t.dtype} weights narrowed to fp16`);
      const data = t.dtype === 'F16' ? t.data : mapBytes(t.data, 2 * n, (raw) => toFloat16Bytes(t.dtype, raw));
      value = g.external(t.name, DT.FLOAT16, t.shape, data);
    } else if (t.dtype === 'F16') {
      storage.add('F16 weights stored as fp16, cast to fp32 at load');
      value = g.op('Cast', [g.external(`${t.name}.f16`, DT.FLOAT16, t.shape, t.data)], { to: DT.FLOAT });
    } else {
      storage.add(t.dtype === 'BF16' ? 'BF16 weights widened to fp32' : 'F32 weights');
      const data = t.dtype === 'F32' ? t.data : mapBytes(t.data, 4 * n, (raw) => new Uint8Array(toFloat32(t.dtype, raw).buffer));
      value = g.external(t.name, DT.FLOAT, t.shape, data);
    }
    stored.set(t.name, value);
    return value;
  };

  const D = spec.hiddenSize;
  const H = spec.numHeads;
  const KV = spec.numKvHeads;
  const Dh = spec.headDim;
  const rep = H / KV;
  const eps = g.float([spec.rmsNormEps], [], 'eps');

  /** HF's RMSNorm: normalize in fp32, back to the compute dtype, then scale by the weight. */
  const rmsNorm = (x: string, w: string) => {
    const x32 = toF32(x);
    const ms = g.op('ReduceMean', [g.op('Mul', [x32, x32])], { axes: [-1], keepdims: 1 });
    return g.op('Mul', [toT(g.op('Div', [x32, g.op('Sqrt', [g.op('Add', [ms, eps])])])), w]);
  };
  const linear = (x: string, w: StoredTensor, b?: StoredTensor) => g.op('Gemm', b ? [x, weight(w), weight(b)] : [x, weight(w)], { transB: 1 });

  const cache = options.kvCache === true;
  // onnxruntime's GroupQueryAttention needs head_size % 8 == 0; other models keep explicit attention.
  const fusable = spec.headDim % 8 === 0;
  const fused = options.attention === 'fused' && fusable;
  // Positions and the causal mask, derived from the sequence length (and the past length with a cache).
  const ids = isFirst ? g.op('Reshape', [INPUT.ids, g.int64([-1])]) : '';
  const seqLen = g.op('Gather', [g.op('Shape', [isFirst ? ids : INPUT.hidden]), g.int64([0], [])], { axis: 0 });
  const past = cache ? g.op('Gather', [g.op('Shape', [pastKeyName(first)]), g.int64([2], [])], { axis: 0 }) : g.int64([0], []);
  const total = g.op('Add', [past, seqLen]);
  const keyPos = g.op('Range', [g.int64([0], []), total, g.int64([1], [])]);
  const queryPos = g.op('Range', [past, total, g.int64([1], [])]);
  const future = g.op('Greater', [g.op('Unsqueeze', [keyPos, g.int64([0])]), g.op('Unsqueeze', [queryPos, g.int64([1])])]); // [S,P+S]: key after query
  // GroupQueryAttention's own bookkeeping: int32 total length and index of the last key.
  const total32 = fused ? g.op('Cast', [total], { to: DT.INT32 }) : '';
  const seqlensK = fused ? g.op('Reshape', [g.op('Sub', [total32, g.op('Cast', [g.int64([1], [])], { to: DT.INT32 })]), g.int64([1])]) : '';
  const maskValue = g.float([MASK_VALUE], [], 'mask_value');
  const scale = g.float([1 / Math.sqrt(Dh)], [], 'scale');
  const cos = toT(INPUT.cos);
  const sin = toT(INPUT.sin);

  /** x [n, S, Dh] → x*cos + rotate_half(x)*sin, with rotate_half(x) = cat(-x2, x1). */
  const rope = (x: string) => {
    const [x1, x2] = g.opN('Split', [x], 2, { axis: -1 });
    const rotated = g.op('Concat', [g.op('Neg', [x2!]), x1!], { axis: -1 });
    return g.op('Add', [g.op('Mul', [x, cos]), g.op('Mul', [rotated, sin])]);
  };

  const attention = (layer: number, L: LayerWeights, h: string) => {
    let q = g.op('Reshape', [linear(h, L.q, L.qBias), g.int64([-1, H, Dh])]); // [S,H,Dh]
    let k = g.op('Reshape', [linear(h, L.k, L.kBias), g.int64([-1, KV, Dh])]);
    const v = g.op('Reshape', [linear(h, L.v, L.vBias), g.int64([-1, KV, Dh])]);
    if (L.qNorm && L.kNorm) {
      q = rmsNorm(q, weight(L.qNorm)); // Qwen3: per-head RMSNorm before RoPE
      k = rmsNorm(k, weight(L.kNorm));
    }
    q = rope(g.op('Transpose', [q], { perm: [1, 0, 2] })); // [H,S,Dh]
    k = rope(g.op('Transpose', [k], { perm: [1, 0, 2] })); // [KV,S,Dh]
    if (fused && !inspect.includes(layer)) {
      // Fused: RoPE (and Qwen3's q/k norm) already applied; GQA is causal, groups heads as HF repeat_kv does.
      const bsh = (x: string, n: number) => g.op('Reshape', [g.op('Transpose', [x], { perm: [1, 0, 2] }), g.int64([1, -1, n * Dh])]);
      const vb = g.op('Reshape', [v, g.int64([1, -1, KV * Dh])]);
      const pasts = cache ? [pastKeyName(layer), pastValueName(layer)] : ['', ''];
      const presents = cache ? [presentKeyName(layer), presentValueName(layer)] : [`gqa_present_k_l${layer}`, `gqa_present_v_l${layer}`];
      const [out] = g.opN('GroupQueryAttention', [bsh(q, H), bsh(k, KV), vb, ...pasts, seqlensK, total32], [`gqa_out_l${layer}`, ...presents], {
        num_heads: H,
        kv_num_heads: KV,
        scale: new FloatAttr(1 / Math.sqrt(Dh)),
      }, 'com.microsoft');
      return linear(g.op('Reshape', [out!, g.int64([-1, H * Dh])]), L.o, L.oBias);
    }
    let vAll = v; // [S,KV,Dh] until the cache is joined
    if (cache) {
      // Keys/values of earlier tokens (already rotated) come first; present = past ++ new.
      const kAll = g.op('Concat', [g.op('Squeeze', [pastKeyName(layer), g.int64([0])]), k], { axis: 1 }); // [KV,P+S,Dh]
      g.op('Unsqueeze', [kAll, g.int64([0])], {}, presentKeyName(layer));
      k = kAll;
      const vNew = g.op('Transpose', [v], { perm: [1, 0, 2] });
      const vCat = g.op('Concat', [g.op('Squeeze', [pastValueName(layer), g.int64([0])]), vNew], { axis: 1 });
      g.op('Unsqueeze', [vCat, g.int64([0])], {}, presentValueName(layer));
      vAll = g.op('Transpose', [vCat], { perm: [1, 0, 2] }); // back to [P+S,KV,Dh]
    }
    // GQA as a broadcast MatMul: query head h = kv*rep + r reads key/value head kv (HF repeat_kv), no copies.
    const q4 = g.op('Reshape', [q, g.int64([KV, rep, -1, Dh])]);
    const kT = g.op('Unsqueeze', [g.op('Transpose', [k], { perm: [0, 2, 1] }), g.int64([1])]); // [KV,1,Dh,S]
    const scores = g.op('Mul', [toF32(g.op('MatMul', [q4, kT])), scale]); // [KV,rep,S,S], fp32 from here
    const probs = g.op('Softmax', [g.op('Where', [future, maskValue, scores])], { axis: -1 }); // fp32, as HF
    if (inspect.includes(layer)) {
      const rows = g.op('Slice', [probs, INPUT.attnStart, INPUT.attnEnd, g.int64([2])]); // [KV,rep,Q,S]
      const shape = g.op('Concat', [g.int64([H]), g.op('Shape', [rows], { start: 2 })], { axis: 0 });
      g.op('Reshape', [rows, shape], {}, attnRowsName(layer));
      g.op('ReduceMean', [attnRowsName(layer)], { axes: [0], keepdims: 0 }, attnMeanName(layer));
    }
    const v4 = g.op('Unsqueeze', [g.op('Transpose', [vAll], { perm: [1, 0, 2] }), g.int64([1])]); // [KV,1,P+S,Dh]
    const ctx = g.op('Reshape', [g.op('MatMul', [toT(probs), v4]), g.int64([H, -1, Dh])]); // [H,S,Dh]
    const merged = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [1, 0, 2] }), g.int64([-1, H * Dh])]);
    return linear(merged, L.o, L.oBias);
  };

  let x = isFirst ? g.op('Gather', [weight(weights.embed), ids], { axis: 0 }) : INPUT.hidden; // [S,D]
  weights.layers.forEach((L, layer) => {
    if (!inSegment(layer)) return;
    x = g.op('Add', [x, attention(layer, L, rmsNorm(x, weight(L.inputNorm)))]);
    const h = rmsNorm(x, weight(L.postNorm));
    const gate = linear(h, L.gate, L.gateBias);
    const act = g.op('Mul', [g.op('Mul', [gate, g.op('Sigmoid', [gate])]), linear(h, L.up, L.upBias)]); // silu(gate) * up
    x = g.op('Add', [x, linear(act, L.down, L.downBias)]);
  });
  if (isLast) {
    const final = g.op('Slice', [rmsNorm(x, weight(weights.norm)), INPUT.logitStart, INPUT.logitEnd, g.int64([0])]);
    const head = [final, weight(weights.lmHead)]; // tied: the embedding's own initializer
    if (half) g.op('Cast', [g.op('Gemm', head, { transB: 1 })], { to: DT.FLOAT }, LOGITS);
    else g.op('Gemm', head, { transB: 1 }, LOGITS);
  } else {
    g.op('Identity', [x], {}, HIDDEN_OUT);
  }

  const outputs: { name: string; type: number; dims: (number | string)[] }[] = [
    isLast ? { name: LOGITS, type: DT.FLOAT, dims: ['logit_rows', spec.vocabSize] } : { name: HIDDEN_OUT, type: T, dims: ['seq', D] },
    ...inspect.flatMap((l) => [
      { name: attnRowsName(l), type: DT.FLOAT, dims: [H, 'attn_rows', 'seq'] },
      { name: attnMeanName(l), type: DT.FLOAT, dims: ['attn_rows', 'seq'] },
    ]),
  ];
  const kvDims = (len: string) => [1, KV, len, Dh];
  if (cache) {
    for (let l = first; l < end; l++) {
      outputs.push({ name: presentKeyName(l), type: T, dims: kvDims('total') }, { name: presentValueName(l), type: T, dims: kvDims('total') });
    }
  }
  const i64 = (name: string) => ({ name, type: DT.INT64, dims: [1] });
  const model = g.encode(
    [
      isFirst ? { name: INPUT.ids, type: DT.INT64, dims: [1, 'seq'] } : { name: INPUT.hidden, type: T, dims: ['seq', D] },
      { name: INPUT.cos, type: DT.FLOAT, dims: ['seq', Dh] },
      { name: INPUT.sin, type: DT.FLOAT, dims: ['seq', Dh] },
      i64(INPUT.attnStart), i64(INPUT.attnEnd), i64(INPUT.logitStart), i64(INPUT.logitEnd),
      ...(cache ? Array.from({ length: end - first }, (_, i) => [{ name: pastKeyName(first + i), type: T, dims: kvDims('past') }, { name: pastValueName(first + i), type: T, dims: kvDims('past') }]).flat() : []),
    ],
    outputs,
  );
  return {
    model,
    externalData: g.externalFiles,
    inspectLayers: inspect,
    computeDtype: dtype,
    weightStorage: [...storage].join('; '),
    outputNames: outputs.map((o) => o.name),
    kvCache: cache,
    attention: fused ? 'fused' : 'explicit',
    attentionNote: options.attention === 'fused' && !fusable ? `explicit attention in every layer: onnxruntime's GroupQueryAttention needs a head size divisible by 8, not ${spec.headDim}` : null,
    layers: [first, end],
  };
}

/** The model as consecutive segments of at most `perSegment` layers; runtime/ort-runtime.ts chains them. */
export function buildSegments(spec: ModelSpec, weights: ModelWeights, options: Omit<GraphOptions, 'layers'>, perSegment: number): BuiltGraph[] {
  const n = Math.max(1, Math.floor(perSegment));
  const out: BuiltGraph[] = [];
  for (let a = 0; a < spec.numLayers; a += n) out.push(buildGraph(spec, weights, { ...options, layers: [a, Math.min(spec.numLayers, a + n)] }));
  return out;
}

/** What a model's graph computes, whole or in segments: for reports, the CLI and the runtime. */
export interface GraphSummary extends Pick<BuiltGraph, 'inspectLayers' | 'computeDtype' | 'weightStorage' | 'outputNames' | 'kvCache' | 'attention' | 'attentionNote'> {
  segments: number;
  /** The serialized graphs' bytes, weights not included. */
  bytes: number;
  externalFiles: number;
}

export function summarizeGraphs(graphs: BuiltGraph[]): GraphSummary {
  const last = graphs[graphs.length - 1]!;
  return {
    inspectLayers: graphs.flatMap((g) => g.inspectLayers),
    computeDtype: last.computeDtype,
    weightStorage: [...new Set(graphs.flatMap((g) => g.weightStorage.split('; ')))].join('; '),
    // As a whole graph lists them; the segments' hidden_out stays between segments.
    outputNames: [
      LOGITS,
      ...graphs.flatMap((g) => g.inspectLayers.flatMap((l) => [attnRowsName(l), attnMeanName(l)])),
      ...(last.kvCache ? Array.from({ length: last.layers[1] }, (_, l) => [presentKeyName(l), presentValueName(l)]).flat() : []),
    ],
    kvCache: last.kvCache,
    attention: last.attention,
    attentionNote: last.attentionNote,
    segments: graphs.length,
    bytes: graphs.reduce((s, g) => s + g.model.byteLength, 0),
    externalFiles: graphs.reduce((s, g) => s + g.externalData.length, 0),
  };
}

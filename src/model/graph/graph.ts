import type { ModelSpec } from '../config/config';
import type { StoredTensor } from '../checkpoint/checkpoint';
import type { ComputeDtype } from '../precision/compute-dtype';
import { ModelError } from '../errors';
import {
  HIDDEN_OUT,
  INPUT,
  LOGITS,
  attnMeanName,
  attnRowsName,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
  ropeCosName,
  ropeSinName,
} from './graph-io';
import { GraphWeights } from './graph-weights';
import { DT, FloatAttr, GraphBuilder, type ExternalFile } from './onnx-builder';
import type { Quant } from '../precision/quantize';
import type { LayerWeights, ModelWeights } from '../checkpoint/weights';

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
  /**
   * fp32 graphs only. 'compute' (default): weights widened to fp32 at load. 'half': F16/BF16 matrices
   * kept as stored and widened where used, every pass (half the weights' memory; slower passes).
   */
  weightStorage?: 'compute' | 'half';
  /**
   * 'half' storage of BF16 matrices: 'bf16' (default) as stored, or 'fp16' for a runtime with no BF16 Cast
   * (onnxruntime-web's WebGPU build): exact for |w| in fp16's normal range, rounded to within 3e-8 below it;
   * a weight beyond ±65,504 is refused by name.
   */
  keptBf16?: 'bf16' | 'fp16';
  /** 'q8' / 'q4': linear layers, head and embedding quantized as read (model/precision/quantize.ts). Default 'none'. */
  quant?: Quant;
  /** Rows per slice of a quantized matrix (default SLICE_ROWS; tests make it small to slice a tiny vocabulary). */
  quantSliceRows?: number;
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
  /** The weights' precision: 'none' (the checkpoint's own), or quantized. */
  quant: Quant;
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
 * Builds the decoder as an ONNX graph (batch 1, dynamic sequence length), following each family's
 * modeling_*.py (see ModelSpec for what differs between them). Activations are 2-D [seq, hidden] so
 * every projection is one Gemm with transB=1 on HF's [out, in] weight: no transposed copies of the weights.
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
  const W = new GraphWeights(g, half, options.weightStorage === 'half', options.keptBf16 ?? 'bf16', options.quant ?? 'none', options.quantSliceRows);
  /** Casts between the compute dtype and fp32 (no-ops in an fp32 graph). */
  const toF32 = (x: string) => (half ? g.op('Cast', [x], { to: DT.FLOAT }) : x);
  const toT = (x: string) => (half ? g.op('Cast', [x], { to: T }) : x);
  /** A scalar in the compute dtype. */
  const scalarT = (v: number) => toT(g.float([v], []));

  const D = spec.hiddenSize;
  const H = spec.numHeads;
  const KV = spec.numKvHeads;
  const Dh = spec.headDim;
  const rep = H / KV;
  const eps = g.float([spec.rmsNormEps], [], 'eps');
  // Gemma (1 + w) and OLMo 2 multiply by the weight in fp32, then cast; Llama casts, then multiplies.
  const normInF32 = spec.normOffset === 1 || spec.family === 'olmo2';

  /** RMSNorm over the last axis: normalize in fp32, scale by the weight (see normInF32). */
  const rmsNorm = (x: string, w: StoredTensor) => {
    const x32 = toF32(x);
    const ms = g.op('ReduceMean', [g.op('Mul', [x32, x32])], { axes: [-1], keepdims: 1 });
    const n = g.op('Div', [x32, g.op('Sqrt', [g.op('Add', [ms, eps])])]);
    return normInF32 ? toT(g.op('Mul', [n, W.fp32(w, spec.normOffset)])) : g.op('Mul', [toT(n), W.get(w)]);
  };
  const linear = (x: string, w: StoredTensor, b?: StoredTensor) => W.matmul(x, w, b);
  const scaled = (x: string, s: number) => (s === 1 ? x : g.op('Mul', [x, scalarT(s)]));
  /** gelu_pytorch_tanh: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
  const activate = (x: string) => {
    if (spec.activation === 'silu') return g.op('Mul', [x, g.op('Sigmoid', [x])]);
    const inner = g.op('Mul', [scalarT(Math.sqrt(2 / Math.PI)), g.op('Add', [x, g.op('Mul', [scalarT(0.044715), g.op('Mul', [x, g.op('Mul', [x, x])])])])]);
    return g.op('Mul', [g.op('Mul', [scalarT(0.5), x]), g.op('Add', [scalarT(1), g.op('Tanh', [inner])])]);
  };

  const cache = options.kvCache === true;
  // onnxruntime's GroupQueryAttention needs head_size % 8 == 0; other models keep explicit attention.
  const fusable = spec.headDim % 8 === 0;
  const fused = options.attention === 'fused' && fusable;
  // Positions and masks, derived from the sequence length (and the past length with a cache).
  const ids = isFirst ? g.op('Reshape', [INPUT.ids, g.int64([-1])]) : '';
  const seqLen = g.op('Gather', [g.op('Shape', [isFirst ? ids : INPUT.hidden]), g.int64([0], [])], { axis: 0 });
  const past = cache ? g.op('Gather', [g.op('Shape', [pastKeyName(first)]), g.int64([2], [])], { axis: 0 }) : g.int64([0], []);
  const total = g.op('Add', [past, seqLen]);
  const keyPos = g.op('Range', [g.int64([0], []), total, g.int64([1], [])]);
  const queryPos = g.op('Range', [past, total, g.int64([1], [])]);
  const keyRow = g.op('Unsqueeze', [keyPos, g.int64([0])]);
  const queryCol = g.op('Unsqueeze', [queryPos, g.int64([1])]);
  const future = g.op('Greater', [keyRow, queryCol]); // [S,P+S]: key after query
  const masks = new Map<number | null, string>([[null, future]]);
  /** Causal, and for a sliding layer also keys at or before q − W (so a query sees W keys: masking_utils.py). */
  const maskFor = (window: number | null) => {
    if (!masks.has(window)) masks.set(window, g.op('Or', [future, g.op('LessOrEqual', [g.op('Add', [keyRow, g.int64([window!], [])]), queryCol])]));
    return masks.get(window)!;
  };
  // GroupQueryAttention's own bookkeeping: int32 total length and index of the last key.
  const total32 = fused ? g.op('Cast', [total], { to: DT.INT32 }) : '';
  const seqlensK = fused ? g.op('Reshape', [g.op('Sub', [total32, g.op('Cast', [g.int64([1], [])], { to: DT.INT32 })]), g.int64([1])]) : '';
  const maskValue = g.float([MASK_VALUE], [], 'mask_value');
  const scale = g.float([spec.attentionScale], [], 'scale');
  const usedRopes = [
    ...new Set(
      spec.layers
        .slice(first, end)
        .map((l) => l.rope)
        .filter((r): r is number => r !== null),
    ),
  ].sort();
  const tables = new Map(usedRopes.map((r) => [r, { cos: toT(ropeCosName(r)), sin: toT(ropeSinName(r)) }]));

  /** x [n, S, Dh] → x*cos + rotate_half(x)*sin over the first rotaryDim dims; the rest pass through (Phi-3's partial rotary). */
  const rope = (x: string, r: number) => {
    const rd = spec.ropes[r]!.rotaryDim;
    const { cos, sin } = tables.get(r)!;
    const [xr, pass] = rd === Dh ? [x, null] : g.opN('Split', [x, g.int64([rd, Dh - rd])], 2, { axis: -1 });
    const [x1, x2] = g.opN('Split', [xr!], 2, { axis: -1 });
    const rotated = g.op('Add', [g.op('Mul', [xr!, cos]), g.op('Mul', [g.op('Concat', [g.op('Neg', [x2!]), x1!], { axis: -1 }), sin])]);
    return pass ? g.op('Concat', [rotated, pass], { axis: -1 }) : rotated;
  };

  const attention = (layer: number, L: LayerWeights, h: string) => {
    const { rope: ropeIndex, window } = spec.layers[layer]!;
    let qf: string, kf: string, vf: string;
    if (L.qkv) [qf, kf, vf] = g.opN('Split', [linear(h, L.qkv), g.int64([H * Dh, KV * Dh, KV * Dh])], 3, { axis: 1 }) as [string, string, string];
    else [qf, kf, vf] = [linear(h, L.q!, L.qBias), linear(h, L.k!, L.kBias), linear(h, L.v!, L.vBias)];
    if (spec.qkNorm === 'projection') [qf, kf] = [rmsNorm(qf, L.qNorm!), rmsNorm(kf, L.kNorm!)]; // OLMo 2: over all heads at once
    let q = g.op('Reshape', [qf, g.int64([-1, H, Dh])]); // [S,H,Dh]
    let k = g.op('Reshape', [kf, g.int64([-1, KV, Dh])]);
    const v = g.op('Reshape', [vf, g.int64([-1, KV, Dh])]);
    if (spec.qkNorm === 'head') [q, k] = [rmsNorm(q, L.qNorm!), rmsNorm(k, L.kNorm!)]; // Qwen3, Gemma 3: per head, before RoPE
    q = g.op('Transpose', [q], { perm: [1, 0, 2] }); // [H,S,Dh]
    k = g.op('Transpose', [k], { perm: [1, 0, 2] }); // [KV,S,Dh]
    if (ropeIndex !== null) [q, k] = [rope(q, ropeIndex), rope(k, ropeIndex)];
    if (fused && !inspect.includes(layer) && window === null) {
      // Fused: RoPE and q/k norms already applied; GQA is causal, groups heads as HF repeat_kv does.
      const bsh = (x: string, n: number) => g.op('Reshape', [g.op('Transpose', [x], { perm: [1, 0, 2] }), g.int64([1, -1, n * Dh])]);
      const vb = g.op('Reshape', [v, g.int64([1, -1, KV * Dh])]);
      const pasts = cache ? [pastKeyName(layer), pastValueName(layer)] : ['', ''];
      const presents = cache ? [presentKeyName(layer), presentValueName(layer)] : [`gqa_present_k_l${layer}`, `gqa_present_v_l${layer}`];
      const [out] = g.opN(
        'GroupQueryAttention',
        [bsh(q, H), bsh(k, KV), vb, ...pasts, seqlensK, total32],
        [`gqa_out_l${layer}`, ...presents],
        {
          num_heads: H,
          kv_num_heads: KV,
          scale: new FloatAttr(spec.attentionScale),
        },
        'com.microsoft',
      );
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
    const probs = g.op('Softmax', [g.op('Where', [maskFor(window), maskValue, scores])], { axis: -1 }); // fp32, as HF
    if (inspect.includes(layer)) {
      const rows = g.op('Slice', [probs, INPUT.attnStart, INPUT.attnEnd, g.int64([2])]); // [KV,rep,Q,S]
      const shape = g.op('Concat', [g.int64([H]), g.op('Shape', [rows], { start: 2 })], { axis: 0 });
      g.op('Reshape', [rows, shape], {}, attnRowsName(layer));
      // The head mean of every row, then its own row range: many mean rows (the rounds sweep's) cost no per-head
      // copy, and a few cost one read of the probabilities (measured on wasm: no slower than slicing first).
      const meanAll = g.op('ReduceMean', [probs], { axes: [0, 1], keepdims: 0 });
      g.op('Slice', [meanAll, INPUT.meanStart, INPUT.meanEnd, g.int64([0])], {}, attnMeanName(layer));
    }
    const v4 = g.op('Unsqueeze', [g.op('Transpose', [vAll], { perm: [1, 0, 2] }), g.int64([1])]); // [KV,1,P+S,Dh]
    const ctx = g.op('Reshape', [g.op('MatMul', [toT(probs), v4]), g.int64([H, -1, Dh])]); // [H,S,Dh]
    const merged = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [1, 0, 2] }), g.int64([-1, H * Dh])]);
    return linear(merged, L.o, L.oBias);
  };

  const mlp = (L: LayerWeights, h: string) => {
    const [gate, up] = L.gateUp ? g.opN('Split', [linear(h, L.gateUp)], 2, { axis: -1 }) : [linear(h, L.gate!, L.gateBias), linear(h, L.up!, L.upBias)];
    return linear(g.op('Mul', [activate(gate!), up!]), L.down, L.downBias);
  };

  let x = isFirst ? scaled(W.gatherRows(weights.embed, ids), spec.embeddingScale) : INPUT.hidden; // [S,D]
  weights.layers.forEach((L, layer) => {
    if (!inSegment(layer)) return;
    // Each branch: optional norm in, the block, optional norm out, Granite's residual multiplier, then the residual add.
    let a = attention(layer, L, L.attnInNorm ? rmsNorm(x, L.attnInNorm) : x);
    if (L.attnOutNorm) a = rmsNorm(a, L.attnOutNorm);
    x = g.op('Add', [x, scaled(a, spec.residualScale)]);
    let m = mlp(L, L.mlpInNorm ? rmsNorm(x, L.mlpInNorm) : x);
    if (L.mlpOutNorm) m = rmsNorm(m, L.mlpOutNorm);
    x = g.op('Add', [x, scaled(m, spec.residualScale)]);
  });
  if (isLast) {
    const final = g.op('Slice', [rmsNorm(x, weights.norm), INPUT.logitStart, INPUT.logitEnd, g.int64([0])]);
    let logits = toF32(W.matmul(final, weights.lmHead)); // tied: the embedding's own initializer
    if (spec.logitScale !== 1) logits = g.op('Mul', [logits, g.float([spec.logitScale], [])]);
    if (spec.finalSoftcap !== null) {
      const c = g.float([spec.finalSoftcap], []);
      logits = g.op('Mul', [g.op('Tanh', [g.op('Div', [logits, c])]), c]); // Gemma: c·tanh(logits / c)
    }
    g.op('Identity', [logits], {}, LOGITS);
  } else {
    g.op('Identity', [x], {}, HIDDEN_OUT);
  }

  const outputs: { name: string; type: number; dims: (number | string)[] }[] = [
    isLast ? { name: LOGITS, type: DT.FLOAT, dims: ['logit_rows', spec.vocabSize] } : { name: HIDDEN_OUT, type: T, dims: ['seq', D] },
    ...inspect.flatMap((l) => [
      { name: attnRowsName(l), type: DT.FLOAT, dims: [H, 'attn_rows', 'seq'] },
      { name: attnMeanName(l), type: DT.FLOAT, dims: ['mean_rows', 'seq'] },
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
      ...usedRopes.flatMap((r) => [
        { name: ropeCosName(r), type: DT.FLOAT, dims: ['seq', spec.ropes[r]!.rotaryDim] },
        { name: ropeSinName(r), type: DT.FLOAT, dims: ['seq', spec.ropes[r]!.rotaryDim] },
      ]),
      i64(INPUT.attnStart),
      i64(INPUT.attnEnd),
      i64(INPUT.meanStart),
      i64(INPUT.meanEnd),
      i64(INPUT.logitStart),
      i64(INPUT.logitEnd),
      ...(cache
        ? Array.from({ length: end - first }, (_, i) => [
            { name: pastKeyName(first + i), type: T, dims: kvDims('past') },
            { name: pastValueName(first + i), type: T, dims: kvDims('past') },
          ]).flat()
        : []),
    ],
    outputs,
  );
  const slidingKept = fused && spec.layers.some((l, i) => l.window !== null && !inspect.includes(i) && inSegment(i));
  return {
    model,
    externalData: g.externalFiles,
    inspectLayers: inspect,
    computeDtype: dtype,
    weightStorage: [...W.storage].join('; '),
    quant: options.quant ?? 'none',
    outputNames: outputs.map((o) => o.name),
    kvCache: cache,
    attention: fused ? 'fused' : 'explicit',
    attentionNote:
      options.attention === 'fused' && !fusable
        ? `explicit attention in every layer: onnxruntime's GroupQueryAttention needs a head size divisible by 8, not ${spec.headDim}`
        : slidingKept
          ? 'sliding-window layers keep explicit attention (their window is exact there)'
          : null,
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
export interface GraphSummary
  extends Pick<BuiltGraph, 'inspectLayers' | 'computeDtype' | 'weightStorage' | 'quant' | 'outputNames' | 'kvCache' | 'attention' | 'attentionNote'> {
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
    quant: last.quant,
    // As a whole graph lists them; the segments' hidden_out stays between segments.
    outputNames: [
      LOGITS,
      ...graphs.flatMap((g) => g.inspectLayers.flatMap((l) => [attnRowsName(l), attnMeanName(l)])),
      ...(last.kvCache ? Array.from({ length: last.layers[1] }, (_, l) => [presentKeyName(l), presentValueName(l)]).flat() : []),
    ],
    kvCache: last.kvCache,
    attention: last.attention,
    attentionNote: [...new Set(graphs.map((g) => g.attentionNote).filter((n): n is string => n !== null))].join('; ') || null,
    segments: graphs.length,
    bytes: graphs.reduce((s, g) => s + g.model.byteLength, 0),
    externalFiles: graphs.reduce((s, g) => s + g.externalData.length, 0),
  };
}

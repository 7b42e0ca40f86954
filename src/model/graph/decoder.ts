import type { StoredTensor } from '../checkpoint/checkpoint';
import type { LayerWeights, ModelWeights } from '../checkpoint/weights';
import type { ModelSpec } from '../config/config';
import type { ComputeDtype } from '../precision/compute-dtype';
import type { Quant } from '../precision/quantize';
import { headOutMeanName, INPUT, pastKeyName, pastValueName, presentKeyName, presentValueName, ropeCosName, ropeSinName } from './graph-io';
import { GraphWeights } from './graph-weights';
import { attentionOutputs, headFigureOutputs, tieToLayer } from './layer-outputs';
import { DT, FloatAttr, GraphBuilder } from './onnx-builder';

/** Smallest float32, used as the additive mask value exactly as HF does (torch.finfo(float32).min). */
const MASK_VALUE = -3.4028234663852886e38;

/** What one graph (a whole model, or a segment of its layers) is built for. */
export interface DecoderPlan {
  /** The layers [first, end) it runs. */
  first: number;
  end: number;
  /** Layers whose attention rows become outputs. */
  inspect: number[];
  dtype: ComputeDtype;
  /** GroupQueryAttention for layers not inspected (and not sliding). */
  fused: boolean;
  kvCache: boolean;
  /** Every layer's per-head category shares and diagonal per prior answer, reduced in the graph (graph-io.ts). */
  headFigures: boolean;
  halfStorage: boolean;
  keptBf16: 'bf16' | 'fp16';
  quant: Quant;
  quantSliceRows: number | undefined;
}

/**
 * The decoder's nodes, step by step, following each family's modeling_*.py (see ModelSpec for what
 * differs between them). Activations are 2-D [seq, hidden] so every projection is one Gemm with transB=1 on
 * HF's [out, in] weight: no transposed copies of the weights. One instance builds one graph.
 */
export class Decoder {
  readonly g = new GraphBuilder();
  readonly W: GraphWeights;
  /** The compute dtype's ONNX type. */
  readonly T: number;
  private readonly half: boolean;
  private readonly eps: string;
  /** Gemma (1 + w) and OLMo 2 multiply by the weight in fp32, then cast; Llama casts, then multiplies. */
  private readonly normInF32: boolean;
  /** The token ids (first segment only): [S]. */
  readonly ids: string;
  private readonly future: string;
  private readonly keyRow: string;
  private readonly queryCol: string;
  private readonly masks = new Map<number | null, string>();
  private readonly total32: string;
  private readonly seqlensK: string;
  private readonly maskValue: string;
  private readonly scale: string;
  /** The RoPE tables this segment's layers use, in the compute dtype. */
  readonly usedRopes: number[];
  private readonly tables: Map<number, { cos: string; sin: string }>;

  constructor(
    readonly spec: ModelSpec,
    readonly plan: DecoderPlan,
  ) {
    const { g } = this;
    this.half = plan.dtype === 'fp16';
    this.T = this.half ? DT.FLOAT16 : DT.FLOAT;
    this.W = new GraphWeights(g, this.half, plan.halfStorage, plan.keptBf16, plan.quant, plan.quantSliceRows);
    this.eps = g.float([spec.rmsNormEps], [], 'eps');
    this.normInF32 = spec.normOffset === 1 || spec.family === 'olmo2';
    // Positions and masks, derived from the sequence length (and the past length with a cache).
    const isFirst = plan.first === 0;
    this.ids = isFirst ? g.op('Reshape', [INPUT.ids, g.int64([-1])]) : '';
    const seqLen = g.op('Gather', [g.op('Shape', [isFirst ? this.ids : INPUT.hidden]), g.int64([0], [])], { axis: 0 });
    const past = plan.kvCache ? g.op('Gather', [g.op('Shape', [pastKeyName(plan.first)]), g.int64([2], [])], { axis: 0 }) : g.int64([0], []);
    const total = g.op('Add', [past, seqLen]);
    const keyPos = g.op('Range', [g.int64([0], []), total, g.int64([1], [])]);
    const queryPos = g.op('Range', [past, total, g.int64([1], [])]);
    this.keyRow = g.op('Unsqueeze', [keyPos, g.int64([0])]);
    this.queryCol = g.op('Unsqueeze', [queryPos, g.int64([1])]);
    this.future = g.op('Greater', [this.keyRow, this.queryCol]); // [S,P+S]: key after query
    this.masks.set(null, this.future);
    // GroupQueryAttention's own bookkeeping: int32 total length and index of the last key.
    this.total32 = plan.fused ? g.op('Cast', [total], { to: DT.INT32 }) : '';
    this.seqlensK = plan.fused ? g.op('Reshape', [g.op('Sub', [this.total32, g.op('Cast', [g.int64([1], [])], { to: DT.INT32 })]), g.int64([1])]) : '';
    this.maskValue = g.float([MASK_VALUE], [], 'mask_value');
    this.scale = g.float([spec.attentionScale], [], 'scale');
    this.usedRopes = [
      ...new Set(
        spec.layers
          .slice(plan.first, plan.end)
          .map((l) => l.rope)
          .filter((r): r is number => r !== null),
      ),
    ].sort();
    this.tables = new Map(this.usedRopes.map((r) => [r, { cos: this.toT(ropeCosName(r)), sin: this.toT(ropeSinName(r)) }]));
  }

  /** Casts between the compute dtype and fp32 (no-ops in an fp32 graph). */
  toF32(x: string): string {
    return this.half ? this.g.op('Cast', [x], { to: DT.FLOAT }) : x;
  }
  toT(x: string): string {
    return this.half ? this.g.op('Cast', [x], { to: this.T }) : x;
  }
  /** A scalar in the compute dtype. */
  private scalarT(v: number): string {
    return this.toT(this.g.float([v], []));
  }
  scaled(x: string, s: number): string {
    return s === 1 ? x : this.g.op('Mul', [x, this.scalarT(s)]);
  }
  private linear(x: string, w: StoredTensor, b?: StoredTensor): string {
    return this.W.matmul(x, w, b);
  }

  /** RMSNorm over the last axis: normalize in fp32, scale by the weight (see normInF32). */
  rmsNorm(x: string, w: StoredTensor): string {
    const { g } = this;
    const x32 = this.toF32(x);
    const ms = g.op('ReduceMean', [g.op('Mul', [x32, x32])], { axes: [-1], keepdims: 1 });
    const n = g.op('Div', [x32, g.op('Sqrt', [g.op('Add', [ms, this.eps])])]);
    return this.normInF32 ? this.toT(g.op('Mul', [n, this.W.fp32(w, this.spec.normOffset)])) : g.op('Mul', [this.toT(n), this.W.get(w)]);
  }

  /** silu, or gelu_pytorch_tanh: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))). */
  private activate(x: string): string {
    const { g } = this;
    if (this.spec.activation === 'silu') return g.op('Mul', [x, g.op('Sigmoid', [x])]);
    const s = (v: number) => this.scalarT(v);
    const inner = g.op('Mul', [s(Math.sqrt(2 / Math.PI)), g.op('Add', [x, g.op('Mul', [s(0.044715), g.op('Mul', [x, g.op('Mul', [x, x])])])])]);
    return g.op('Mul', [g.op('Mul', [s(0.5), x]), g.op('Add', [s(1), g.op('Tanh', [inner])])]);
  }

  /** Causal, and for a sliding layer also keys at or before q − W (so a query sees W keys: masking_utils.py). */
  private maskFor(window: number | null): string {
    const { g } = this;
    if (!this.masks.has(window)) {
      this.masks.set(window, g.op('Or', [this.future, g.op('LessOrEqual', [g.op('Add', [this.keyRow, g.int64([window!], [])]), this.queryCol])]));
    }
    return this.masks.get(window)!;
  }

  /** x [n, S, Dh] → x*cos + rotate_half(x)*sin over the first rotaryDim dims; the rest pass through (Phi-3's partial rotary). */
  private rope(x: string, r: number): string {
    const { g } = this;
    const Dh = this.spec.headDim;
    const rd = this.spec.ropes[r]!.rotaryDim;
    const { cos, sin } = this.tables.get(r)!;
    const [xr, pass] = rd === Dh ? [x, null] : g.opN('Split', [x, g.int64([rd, Dh - rd])], 2, { axis: -1 });
    const [x1, x2] = g.opN('Split', [xr!], 2, { axis: -1 });
    const rotated = g.op('Add', [g.op('Mul', [xr!, cos]), g.op('Mul', [g.op('Concat', [g.op('Neg', [x2!]), x1!], { axis: -1 }), sin])]);
    return pass ? g.op('Concat', [rotated, pass], { axis: -1 }) : rotated;
  }

  /** Queries [H,S,Dh] and keys [KV,S,Dh] normed and rotated, values [S,KV,Dh]. */
  private projectQkv(layer: number, L: LayerWeights, h: string): { q: string; k: string; v: string } {
    const { g, spec } = this;
    const { numHeads: H, numKvHeads: KV, headDim: Dh } = spec;
    const ropeIndex = spec.layers[layer]!.rope;
    let qf: string, kf: string, vf: string;
    if (L.qkv) [qf, kf, vf] = g.opN('Split', [this.linear(h, L.qkv), g.int64([H * Dh, KV * Dh, KV * Dh])], 3, { axis: 1 }) as [string, string, string];
    else [qf, kf, vf] = [this.linear(h, L.q!, L.qBias), this.linear(h, L.k!, L.kBias), this.linear(h, L.v!, L.vBias)];
    if (spec.qkNorm === 'projection') [qf, kf] = [this.rmsNorm(qf, L.qNorm!), this.rmsNorm(kf, L.kNorm!)]; // OLMo 2: over all heads at once
    let q = g.op('Reshape', [qf, g.int64([-1, H, Dh])]); // [S,H,Dh]
    let k = g.op('Reshape', [kf, g.int64([-1, KV, Dh])]);
    const v = g.op('Reshape', [vf, g.int64([-1, KV, Dh])]);
    if (spec.qkNorm === 'head') [q, k] = [this.rmsNorm(q, L.qNorm!), this.rmsNorm(k, L.kNorm!)]; // Qwen3, Gemma 3: per head, before RoPE
    q = g.op('Transpose', [q], { perm: [1, 0, 2] }); // [H,S,Dh]
    k = g.op('Transpose', [k], { perm: [1, 0, 2] }); // [KV,S,Dh]
    if (ropeIndex !== null) [q, k] = [this.rope(q, ropeIndex), this.rope(k, ropeIndex)];
    return { q, k, v };
  }

  /** One attention block: [S,D] in, [S,D] out (its o_proj applied). */
  attention(layer: number, L: LayerWeights, h: string): string {
    const { q, k, v } = this.projectQkv(layer, L, h);
    const fused = this.plan.fused && !this.plan.inspect.includes(layer) && this.spec.layers[layer]!.window === null;
    const merged = fused ? this.fusedAttention(layer, q, k, v) : this.explicitAttention(layer, q, k, v);
    return this.linear(merged, L.o, L.oBias);
  }

  /** Fused: RoPE and q/k norms already applied; GQA is causal, groups heads as HF repeat_kv does. */
  private fusedAttention(layer: number, q: string, k: string, v: string): string {
    const { g, spec } = this;
    const { numHeads: H, numKvHeads: KV, headDim: Dh } = spec;
    const bsh = (x: string, n: number) => g.op('Reshape', [g.op('Transpose', [x], { perm: [1, 0, 2] }), g.int64([1, -1, n * Dh])]);
    const vb = g.op('Reshape', [v, g.int64([1, -1, KV * Dh])]);
    const cache = this.plan.kvCache;
    const pasts = cache ? [pastKeyName(layer), pastValueName(layer)] : ['', ''];
    const presents = cache ? [presentKeyName(layer), presentValueName(layer)] : [`gqa_present_k_l${layer}`, `gqa_present_v_l${layer}`];
    const [out] = g.opN(
      'GroupQueryAttention',
      [bsh(q, H), bsh(k, KV), vb, ...pasts, this.seqlensK, this.total32],
      [`gqa_out_l${layer}`, ...presents],
      { num_heads: H, kv_num_heads: KV, scale: new FloatAttr(spec.attentionScale) },
      'com.microsoft',
    );
    const perHead = g.op('Reshape', [out!, g.int64([-1, H, Dh])]); // [S,H,Dh]
    return g.op('Reshape', [g.op('Mul', [perHead, this.headMask(layer, [1, H, 1])]), g.int64([-1, H * Dh])]);
  }

  /** The layer's row of head_mask, shaped to multiply the heads' outputs (in the compute dtype). */
  private headMask(layer: number, shape: number[], tie?: string): string {
    const { g } = this;
    const gathered = g.op('Gather', [INPUT.headMask, g.int64([layer], [])], { axis: 0 }); // [H]
    const row = tie ? g.op('Add', [gathered, tie]) : gathered; // + 0 from the layer's outputs (tieToLayer)
    return this.toT(g.op('Reshape', [row, g.int64(shape)]));
  }

  /** A float32 0, one initializer for every layer that ties its outputs to its result (tieToLayer). */
  private zeroName: string | null = null;
  private zero(): string {
    this.zeroName ??= this.g.float([0], [], 'zero');
    return this.zeroName;
  }

  /** The layer's slice of head_bias, [H, 1, Dh] in the compute dtype: added to each head's output after the mask. */
  private headBias(layer: number): string {
    const { g, spec } = this;
    const slice = g.op('Gather', [INPUT.headBias, g.int64([layer], [])], { axis: 0 }); // [H, Dh]
    return this.toT(g.op('Reshape', [slice, g.int64([spec.numHeads, 1, spec.headDim])]));
  }

  /** Keys and values of earlier tokens (already rotated) first: present = past ++ new. Returns k [KV,P+S,Dh], v [P+S,KV,Dh]. */
  private withCache(layer: number, k: string, v: string): { k: string; v: string } {
    const { g } = this;
    const kAll = g.op('Concat', [g.op('Squeeze', [pastKeyName(layer), g.int64([0])]), k], { axis: 1 }); // [KV,P+S,Dh]
    g.op('Unsqueeze', [kAll, g.int64([0])], {}, presentKeyName(layer));
    const vNew = g.op('Transpose', [v], { perm: [1, 0, 2] });
    const vCat = g.op('Concat', [g.op('Squeeze', [pastValueName(layer), g.int64([0])]), vNew], { axis: 1 });
    g.op('Unsqueeze', [vCat, g.int64([0])], {}, presentValueName(layer));
    return { k: kAll, v: g.op('Transpose', [vCat], { perm: [1, 0, 2] }) }; // back to [P+S,KV,Dh]
  }

  /** MatMul → mask → Softmax → MatMul, with the inspected layer's probabilities as outputs. Returns [S, H·Dh]. */
  private explicitAttention(layer: number, q: string, kNew: string, vNew: string): string {
    const { g, spec } = this;
    const { numHeads: H, numKvHeads: KV, headDim: Dh } = spec;
    const { k, v } = this.plan.kvCache ? this.withCache(layer, kNew, vNew) : { k: kNew, v: vNew };
    // GQA as a broadcast MatMul: query head h = kv*rep + r reads key/value head kv (HF repeat_kv), no copies.
    const q4 = g.op('Reshape', [q, g.int64([KV, H / KV, -1, Dh])]);
    const kT = g.op('Unsqueeze', [g.op('Transpose', [k], { perm: [0, 2, 1] }), g.int64([1])]); // [KV,1,Dh,S]
    const scores = g.op('Mul', [this.toF32(g.op('MatMul', [q4, kT])), this.scale]); // [KV,rep,S,S], fp32 from here
    const probs = g.op('Softmax', [g.op('Where', [this.maskFor(spec.layers[layer]!.window), this.maskValue, scores])], { axis: -1 }); // fp32, as HF
    const outputs = [
      ...(this.plan.inspect.includes(layer) ? attentionOutputs(this.g, this.spec.numHeads, layer, probs) : []),
      ...(this.plan.headFigures ? headFigureOutputs(this.g, this.spec.numHeads, layer, probs) : []),
    ];
    const v4 = g.op('Unsqueeze', [g.op('Transpose', [v], { perm: [1, 0, 2] }), g.int64([1])]); // [KV,1,P+S,Dh]
    const ctx = g.op('Reshape', [g.op('MatMul', [this.toT(probs), v4]), g.int64([H, -1, Dh])]); // [H,S,Dh]
    // Head-figure graphs: each head's mean output over the pass's tokens, the reference mean ablation uses.
    if (this.plan.headFigures) outputs.push(g.op('ReduceMean', [this.toF32(ctx)], { axes: [1], keepdims: 0 }, headOutMeanName(layer)));
    const tie = outputs.length ? tieToLayer(g, outputs, this.zero()) : undefined;
    const masked = g.op('Mul', [ctx, this.headMask(layer, [H, 1, 1], tie)]);
    const kept = this.plan.headFigures ? g.op('Add', [masked, this.headBias(layer)]) : masked;
    return g.op('Reshape', [g.op('Transpose', [kept], { perm: [1, 0, 2] }), g.int64([-1, H * Dh])]);
  }

  private mlp(L: LayerWeights, h: string): string {
    const { g } = this;
    const [gate, up] = L.gateUp
      ? g.opN('Split', [this.linear(h, L.gateUp)], 2, { axis: -1 })
      : [this.linear(h, L.gate!, L.gateBias), this.linear(h, L.up!, L.upBias)];
    return this.linear(g.op('Mul', [this.activate(gate!), up!]), L.down, L.downBias);
  }

  /** The segment's layers over x [S,D]. Each branch: optional norm in, the block, optional norm out, Granite's residual multiplier, the residual add. */
  layers(x: string, weights: ModelWeights): string {
    const { g, spec } = this;
    weights.layers.forEach((L, layer) => {
      if (layer < this.plan.first || layer >= this.plan.end) return;
      let a = this.attention(layer, L, L.attnInNorm ? this.rmsNorm(x, L.attnInNorm) : x);
      if (L.attnOutNorm) a = this.rmsNorm(a, L.attnOutNorm);
      x = g.op('Add', [x, this.scaled(a, spec.residualScale)]);
      let m = this.mlp(L, L.mlpInNorm ? this.rmsNorm(x, L.mlpInNorm) : x);
      if (L.mlpOutNorm) m = this.rmsNorm(m, L.mlpOutNorm);
      x = g.op('Add', [x, this.scaled(m, spec.residualScale)]);
    });
    return x;
  }

  /** The final norm and the head over the logit rows asked for, in fp32, with Gemma's soft cap. */
  logits(x: string, weights: ModelWeights): string {
    const { g, spec } = this;
    const final = g.op('Slice', [this.rmsNorm(x, weights.norm), INPUT.logitStart, INPUT.logitEnd, g.int64([0])]);
    let logits = this.toF32(this.W.matmul(final, weights.lmHead)); // tied: the embedding's own initializer
    if (spec.logitScale !== 1) logits = g.op('Mul', [logits, g.float([spec.logitScale], [])]);
    if (spec.finalSoftcap !== null) {
      const c = g.float([spec.finalSoftcap], []);
      logits = g.op('Mul', [g.op('Tanh', [g.op('Div', [logits, c])]), c]); // Gemma: c·tanh(logits / c)
    }
    return logits;
  }
}

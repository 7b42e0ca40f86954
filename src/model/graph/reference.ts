import type { ModelSpec } from '../config/config';
import { toFloat32 } from '../precision/dtype';
import type { StoredTensor } from '../checkpoint/checkpoint';
import { ropeTables } from './rope';
import { readBytes } from '../checkpoint/tensor-bytes';
import type { LayerWeights, ModelWeights } from '../checkpoint/weights';

/**
 * The float64 reference forward pass: plain loops that follow transformers' modeling_*.py of each
 * family (llama, mistral, qwen2, qwen3, granite, smollm3, olmo2, gemma3, phi3), line by line where they
 * differ. Written for clarity, not speed; it is the independent computation the ONNX graph is tested
 * against (never used to show numbers in the UI).
 */
export interface ReferenceOutput {
  /** [seqLen, vocab] row-major. */
  logits: Float64Array;
  /** Attention probabilities of the inspected layer, [heads, seqLen, seqLen] row-major. */
  attention: Float64Array;
  /** Each head's output before o_proj (before the mask), the mean over the tokens: [layers × heads × head_dim]. */
  headOutputMeans: Float64Array;
}

type Mat = Float64Array;

/** Every tensor the weights name, read and widened to float64 (the reference runs tiny models only). */
async function loadValues(w: ModelWeights): Promise<Map<StoredTensor, Float64Array>> {
  const all = [w.embed, w.norm, w.lmHead, ...w.layers.flatMap((L) => Object.values(L) as StoredTensor[])];
  const out = new Map<StoredTensor, Float64Array>();
  for (const t of all) if (!out.has(t)) out.set(t, Float64Array.from(toFloat32(t.dtype, await readBytes(t.data))));
  return out;
}

/** y[s, o] = sum_i x[s, i] * w[o, i] (+ b[o]): an nn.Linear with HF's [out, in] weight. */
function linear(x: Mat, rows: number, inDim: number, w: Mat, outDim: number, b?: Mat): Mat {
  const y = new Float64Array(rows * outDim);
  for (let s = 0; s < rows; s++) {
    for (let o = 0; o < outDim; o++) {
      let acc = b ? b[o]! : 0;
      for (let i = 0; i < inDim; i++) acc += x[s * inDim + i]! * w[o * inDim + i]!;
      y[s * outDim + o] = acc;
    }
  }
  return y;
}

/** RMSNorm over the last axis of width `dim`: x / sqrt(mean(x²) + eps) * (offset + weight); Gemma's offset is 1. */
function rmsNorm(x: Mat, dim: number, weight: Mat, eps: number, offset: number): Mat {
  const y = new Float64Array(x.length);
  for (let r = 0; r < x.length / dim; r++) {
    let ss = 0;
    for (let i = 0; i < dim; i++) ss += x[r * dim + i]! ** 2;
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) y[r * dim + i] = x[r * dim + i]! * inv * (offset + weight[i]!);
  }
  return y;
}

/** Columns [from, from + width) of a row-major [rows, cols] matrix (Phi-3's fused projections, split). */
function cols(x: Mat, rows: number, ncols: number, from: number, width: number): Mat {
  const y = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) y.set(x.subarray(r * ncols + from, r * ncols + from + width), r * width);
  return y;
}

/**
 * Applies RoPE in place to x laid out [seq, heads, headDim] over the first `rd` dims of each head:
 * x*cos + rotate_half(x)*sin, rotate_half within those dims; the rest pass through (partial rotary).
 */
function applyRope(x: Mat, seq: number, heads: number, d: number, rd: number, cos: Float64Array, sin: Float64Array): void {
  const half = rd / 2;
  const tmp = new Float64Array(rd);
  for (let s = 0; s < seq; s++) {
    for (let h = 0; h < heads; h++) {
      const base = (s * heads + h) * d;
      for (let i = 0; i < rd; i++) {
        const rotated = i < half ? -x[base + i + half]! : x[base + i - half]!;
        tmp[i] = x[base + i]! * cos[s * rd + i]! + rotated * sin[s * rd + i]!;
      }
      x.set(tmp, base);
    }
  }
}

const geluTanh = (x: number) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
const silu = (x: number) => x / (1 + Math.exp(-x));

/** One layer's self-attention in float64: projections, q/k norms, RoPE, causal (or sliding) softmax, and the context. */
function refAttention(
  spec: ModelSpec,
  L: LayerWeights,
  l: number,
  h: Mat,
  S: number,
  tables: ReturnType<typeof ropeTables>,
  w64: W64,
): { ctx: Mat; probs: Mat } {
  const { f64, opt, norm } = w64;
  const { hiddenSize: D, numHeads: H, numKvHeads: KV, headDim: Dh } = spec;
  const layer = spec.layers[l]!;
  let q: Mat, k: Mat, v: Mat;
  if (L.qkv) {
    // Phi-3: one qkv_proj, split [Q | K | V] along the last dim.
    const all = linear(h, S, D, f64(L.qkv), (H + 2 * KV) * Dh);
    q = cols(all, S, (H + 2 * KV) * Dh, 0, H * Dh);
    k = cols(all, S, (H + 2 * KV) * Dh, H * Dh, KV * Dh);
    v = cols(all, S, (H + 2 * KV) * Dh, (H + KV) * Dh, KV * Dh);
  } else {
    q = linear(h, S, D, f64(L.q!), H * Dh, opt(L.qBias));
    k = linear(h, S, D, f64(L.k!), KV * Dh, opt(L.kBias));
    v = linear(h, S, D, f64(L.v!), KV * Dh, opt(L.vBias));
  }
  if (spec.qkNorm === 'projection') {
    q = norm(q, H * Dh, L.qNorm!); // OLMo 2: one norm over the whole projection
    k = norm(k, KV * Dh, L.kNorm!);
  } else if (spec.qkNorm === 'head') {
    q = norm(q, Dh, L.qNorm!); // Qwen3, Gemma 3: per head
    k = norm(k, Dh, L.kNorm!);
  }
  if (layer.rope !== null) {
    const { cos, sin } = tables[layer.rope]!;
    const rd = spec.ropes[layer.rope]!.rotaryDim;
    applyRope(q, S, H, Dh, rd, cos, sin);
    applyRope(k, S, KV, Dh, rd, cos, sin);
  }
  return softmaxAttention(spec, layer.window, q, k, v, S);
}

/** Per head: scores, the causal (or sliding-window) softmax, and the weighted values. */
function softmaxAttention(spec: ModelSpec, window: number | null, q: Mat, k: Mat, v: Mat, S: number): { ctx: Mat; probs: Mat } {
  const { numHeads: H, numKvHeads: KV, headDim: Dh } = spec;
  const rep = H / KV;
  const probs = new Float64Array(H * S * S);
  const ctx = new Float64Array(S * H * Dh);
  for (let hd = 0; hd < H; hd++) {
    const kvh = Math.floor(hd / rep); // repeat_kv: query head hd reads key/value head hd // rep
    for (let i = 0; i < S; i++) {
      // Causal; a sliding layer sees the W keys i − W < j ≤ i (masking_utils.sliding_window_overlay).
      const j0 = window === null ? 0 : Math.max(0, i - window + 1);
      const row = new Float64Array(i + 1);
      let max = -Infinity;
      for (let j = j0; j <= i; j++) {
        let dot = 0;
        for (let d = 0; d < Dh; d++) dot += q[(i * H + hd) * Dh + d]! * k[(j * KV + kvh) * Dh + d]!;
        row[j] = dot * spec.attentionScale;
        max = Math.max(max, row[j]!);
      }
      let sum = 0;
      for (let j = j0; j <= i; j++) sum += row[j] = Math.exp(row[j]! - max);
      for (let j = j0; j <= i; j++) {
        const p = row[j]! / sum; // masked positions stay 0
        probs[(hd * S + i) * S + j] = p;
        for (let d = 0; d < Dh; d++) ctx[(i * H + hd) * Dh + d]! += p * v[(j * KV + kvh) * Dh + d]!;
      }
    }
  }
  return { ctx, probs };
}

/** The MLP: down(act(gate(x)) * up(x)). */
function refMlp(spec: ModelSpec, L: LayerWeights, h2: Mat, S: number, w64: W64): Mat {
  const { f64, opt } = w64;
  const D = spec.hiddenSize;
  const I = spec.intermediateSize;
  const act = spec.activation === 'silu' ? silu : geluTanh;
  let g: Mat, u: Mat;
  if (L.gateUp) {
    // Phi-3: gate_up_proj, first half gate, second half up (chunk(2)).
    const both = linear(h2, S, D, f64(L.gateUp), 2 * I);
    g = cols(both, S, 2 * I, 0, I);
    u = cols(both, S, 2 * I, I, I);
  } else {
    g = linear(h2, S, D, f64(L.gate!), I, opt(L.gateBias));
    u = linear(h2, S, D, f64(L.up!), I, opt(L.upBias));
  }
  for (let i = 0; i < g.length; i++) g[i] = act(g[i]!) * u[i]!;
  return linear(g, S, I, f64(L.down), D, opt(L.downBias));
}

/** Each head's output [S, H, Dh] times its mask value (the graph multiplies before o_proj too). */
function maskHeads(ctx: Mat, S: number, H: number, Dh: number, mask: ArrayLike<number>, layer: number): void {
  for (let i = 0; i < S; i++) for (let hd = 0; hd < H; hd++) for (let d = 0; d < Dh; d++) ctx[(i * H + hd) * Dh + d]! *= mask[layer * H + hd]!;
}

/** The weights in float64, and the norm over them. */
interface W64 {
  f64: (t: StoredTensor) => Mat;
  opt: (t?: StoredTensor) => Mat | undefined;
  norm: (x: Mat, dim: number, t: StoredTensor) => Mat;
}

/** The decoder in float64, as transformers computes it: the parity tests' reference. */
export async function referenceForward(
  spec: ModelSpec,
  w: ModelWeights,
  ids: number[],
  inspectLayer = spec.numLayers - 1,
  /** [layers × heads]: each head's output multiplied by its value before o_proj (0: switched off), as the graph's head_mask. */
  headMask?: ArrayLike<number>,
  /** [layers × heads × head_dim]: added to each head's output after the mask, as the graph's head_bias. */
  headBias?: ArrayLike<number>,
): Promise<ReferenceOutput> {
  const values = await loadValues(w);
  const f64 = (t: StoredTensor) => values.get(t)!;
  const w64: W64 = { f64, opt: (t) => (t ? f64(t) : undefined), norm: (x, dim, t) => rmsNorm(x, dim, f64(t), spec.rmsNormEps, spec.normOffset) };
  const { norm, opt } = w64;
  const S = ids.length;
  const D = spec.hiddenSize;
  const tables = ropeTables(spec, S);
  const embed = f64(w.embed);
  let x = new Float64Array(S * D);
  for (let s = 0; s < S; s++) {
    for (let i = 0; i < D; i++) x[s * D + i] = embed[ids[s]! * D + i]! * spec.embeddingScale;
  }
  let attention: Mat = new Float64Array(0);
  const headOutputMeans = new Float64Array(spec.numLayers * spec.numHeads * spec.headDim);
  for (let l = 0; l < spec.numLayers; l++) {
    const L = w.layers[l]!;
    const { ctx, probs } = refAttention(spec, L, l, L.attnInNorm ? norm(x, D, L.attnInNorm) : x, S, tables, w64);
    if (l === inspectLayer) attention = probs;
    const { numHeads: H, headDim: Dh } = spec;
    for (let i = 0; i < S; i++) for (let k = 0; k < H * Dh; k++) headOutputMeans[l * H * Dh + k]! += ctx[i * H * Dh + k]! / S;
    if (headMask) maskHeads(ctx, S, H, Dh, headMask, l);
    if (headBias) for (let i = 0; i < S; i++) for (let k = 0; k < H * Dh; k++) ctx[i * H * Dh + k]! += headBias[l * H * Dh + k]!;
    let attnOut = linear(ctx, S, spec.numHeads * spec.headDim, f64(L.o), D, opt(L.oBias));
    if (L.attnOutNorm) attnOut = norm(attnOut, D, L.attnOutNorm);
    for (let i = 0; i < x.length; i++) x[i]! += attnOut[i]! * spec.residualScale;
    let down = refMlp(spec, L, L.mlpInNorm ? norm(x, D, L.mlpInNorm) : x, S, w64);
    if (L.mlpOutNorm) down = norm(down, D, L.mlpOutNorm);
    const next = new Float64Array(x.length);
    for (let i = 0; i < x.length; i++) next[i] = x[i]! + down[i]! * spec.residualScale;
    x = next;
  }
  const logits = linear(norm(x, D, w.norm), S, D, f64(w.lmHead), spec.vocabSize);
  for (let i = 0; i < logits.length; i++) {
    let z = logits[i]! * spec.logitScale; // Granite divides by logits_scaling
    if (spec.finalSoftcap !== null) z = spec.finalSoftcap * Math.tanh(z / spec.finalSoftcap); // Gemma
    logits[i] = z;
  }
  return { logits, attention, headOutputMeans };
}

import type { ModelSpec } from './config';
import { toFloat32 } from './dtype';
import type { StoredTensor } from './checkpoint';
import { ropeTables } from './rope';
import { readBytes } from './tensor-bytes';
import type { ModelWeights } from './weights';

/**
 * The float64 reference forward pass: plain loops that follow transformers' modeling_llama.py,
 * modeling_qwen2.py and modeling_qwen3.py line by line. Written for clarity, not speed; it is the
 * independent computation the ONNX graph is tested against (never used to show numbers in the UI).
 */
export interface ReferenceOutput {
  /** [seqLen, vocab] row-major. */
  logits: Float64Array;
  /** Attention probabilities of the inspected layer, [heads, seqLen, seqLen] row-major. */
  attention: Float64Array;
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

/** RMSNorm over the last axis of width `dim`: x / sqrt(mean(x²) + eps) * weight. */
function rmsNorm(x: Mat, dim: number, weight: Mat, eps: number): Mat {
  const y = new Float64Array(x.length);
  for (let r = 0; r < x.length / dim; r++) {
    let ss = 0;
    for (let i = 0; i < dim; i++) ss += x[r * dim + i]! ** 2;
    const inv = 1 / Math.sqrt(ss / dim + eps);
    for (let i = 0; i < dim; i++) y[r * dim + i] = x[r * dim + i]! * inv * weight[i]!;
  }
  return y;
}

/** Applies RoPE in place to x laid out [seq, heads, headDim]: x*cos + rotate_half(x)*sin. */
function applyRope(x: Mat, seq: number, heads: number, d: number, cos: Float64Array, sin: Float64Array): void {
  const half = d / 2;
  const tmp = new Float64Array(d);
  for (let s = 0; s < seq; s++) {
    for (let h = 0; h < heads; h++) {
      const base = (s * heads + h) * d;
      for (let i = 0; i < d; i++) {
        const rotated = i < half ? -x[base + i + half]! : x[base + i - half]!;
        tmp[i] = x[base + i]! * cos[s * d + i]! + rotated * sin[s * d + i]!;
      }
      x.set(tmp, base);
    }
  }
}

export async function referenceForward(spec: ModelSpec, w: ModelWeights, ids: number[], inspectLayer = spec.numLayers - 1): Promise<ReferenceOutput> {
  const values = await loadValues(w);
  const f64 = (t: StoredTensor) => values.get(t)!;
  const S = ids.length;
  const D = spec.hiddenSize;
  const H = spec.numHeads;
  const KV = spec.numKvHeads;
  const Dh = spec.headDim;
  const rep = H / KV;
  const I = spec.intermediateSize;
  const V = spec.vocabSize;
  const { cos, sin } = ropeTables(spec, S);

  const embed = f64(w.embed);
  let x = new Float64Array(S * D);
  for (let s = 0; s < S; s++) x.set(embed.subarray(ids[s]! * D, (ids[s]! + 1) * D), s * D);

  let attention = new Float64Array(0);
  for (let l = 0; l < spec.numLayers; l++) {
    const L = w.layers[l]!;
    const opt = (t?: StoredTensor) => (t ? f64(t) : undefined);
    // --- self-attention ---
    const h = rmsNorm(x, D, f64(L.inputNorm), spec.rmsNormEps);
    let q = linear(h, S, D, f64(L.q), H * Dh, opt(L.qBias));
    let k = linear(h, S, D, f64(L.k), KV * Dh, opt(L.kBias));
    const v = linear(h, S, D, f64(L.v), KV * Dh, opt(L.vBias));
    if (L.qNorm && L.kNorm) {
      q = rmsNorm(q, Dh, f64(L.qNorm), spec.rmsNormEps);
      k = rmsNorm(k, Dh, f64(L.kNorm), spec.rmsNormEps);
    }
    applyRope(q, S, H, Dh, cos, sin);
    applyRope(k, S, KV, Dh, cos, sin);
    const scale = 1 / Math.sqrt(Dh);
    const probs = new Float64Array(H * S * S);
    const ctx = new Float64Array(S * H * Dh);
    for (let hd = 0; hd < H; hd++) {
      const kvh = Math.floor(hd / rep); // repeat_kv: query head hd reads key/value head hd // rep
      for (let i = 0; i < S; i++) {
        const row = new Float64Array(i + 1);
        let max = -Infinity;
        for (let j = 0; j <= i; j++) {
          let dot = 0;
          for (let d = 0; d < Dh; d++) dot += q[(i * H + hd) * Dh + d]! * k[(j * KV + kvh) * Dh + d]!;
          row[j] = dot * scale;
          max = Math.max(max, row[j]!);
        }
        let sum = 0;
        for (let j = 0; j <= i; j++) sum += row[j] = Math.exp(row[j]! - max);
        for (let j = 0; j <= i; j++) {
          const p = row[j]! / sum; // positions j > i stay 0: the causal mask
          probs[(hd * S + i) * S + j] = p;
          for (let d = 0; d < Dh; d++) ctx[(i * H + hd) * Dh + d]! += p * v[(j * KV + kvh) * Dh + d]!;
        }
      }
    }
    if (l === inspectLayer) attention = probs;
    const attnOut = linear(ctx, S, H * Dh, f64(L.o), D, opt(L.oBias));
    for (let i = 0; i < x.length; i++) x[i]! += attnOut[i]!;
    // --- MLP: down(silu(gate(x)) * up(x)) ---
    const h2 = rmsNorm(x, D, f64(L.postNorm), spec.rmsNormEps);
    const g = linear(h2, S, D, f64(L.gate), I, opt(L.gateBias));
    const u = linear(h2, S, D, f64(L.up), I, opt(L.upBias));
    for (let i = 0; i < g.length; i++) g[i] = (g[i]! / (1 + Math.exp(-g[i]!))) * u[i]!;
    const down = linear(g, S, I, f64(L.down), D, opt(L.downBias));
    const next = new Float64Array(x.length);
    for (let i = 0; i < x.length; i++) next[i] = x[i]! + down[i]!;
    x = next;
  }
  const xn = rmsNorm(x, D, f64(w.norm), spec.rmsNormEps);
  return { logits: linear(xn, S, D, f64(w.lmHead), V), attention };
}

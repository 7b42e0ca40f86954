import type { ModelSpec } from '../config/config';
import type { Rope } from '../config/rope-config';

/**
 * Inverse frequencies of one rotary embedding for a pass that ends at position `end` (exclusive), in
 * float64, ported from transformers' modeling_rope_utils.py (`_compute_*_parameters`). Length
 * rotaryDim / 2. Dynamic NTK and LongRoPE depend on the pass: as transformers does per forward call
 * (max(position_ids) + 1), but stateless (transformers' dynamic NTK keeps a grown base until a short pass).
 */
export function inverseFrequencies(rope: Rope, end: number): { inv: Float64Array; attentionFactor: number } {
  const dim = rope.rotaryDim;
  const s = rope.scaling;
  let base = rope.theta;
  if (s.type === 'dynamic') {
    const L = s.maxPositionEmbeddings;
    const S = Math.max(end, L);
    base = base * ((s.factor * S) / L - (s.factor - 1)) ** (dim / (dim - 2));
  }
  const inv = new Float64Array(dim / 2);
  for (let i = 0; i < dim / 2; i++) inv[i] = 1 / base ** ((2 * i) / dim);
  let attentionFactor = 1;
  if (s.type === 'linear') {
    for (let i = 0; i < inv.length; i++) inv[i]! /= s.factor;
  } else if (s.type === 'llama3') {
    const lowFreqWavelen = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
    const highFreqWavelen = s.originalMaxPositionEmbeddings / s.highFreqFactor;
    for (let i = 0; i < inv.length; i++) {
      const f = inv[i]!;
      const wavelen = (2 * Math.PI) / f;
      if (wavelen > lowFreqWavelen) {
        inv[i] = f / s.factor; // long wavelengths: fully interpolated
      } else if (wavelen >= highFreqWavelen) {
        // medium: blend between interpolated and original
        const smooth = (s.originalMaxPositionEmbeddings / wavelen - s.lowFreqFactor) / (s.highFreqFactor - s.lowFreqFactor);
        inv[i] = ((1 - smooth) * f) / s.factor + smooth * f;
      } // short wavelengths: unchanged
    }
  } else if (s.type === 'yarn') {
    // find_correction_range: the dims that rotate fewer than beta_fast / more than beta_slow times in the original context.
    const corr = (rot: number) => (dim * Math.log(s.originalMaxPositionEmbeddings / (rot * 2 * Math.PI))) / (2 * Math.log(rope.theta));
    let low = corr(s.betaFast);
    let high = corr(s.betaSlow);
    if (s.truncate) {
      low = Math.floor(low);
      high = Math.ceil(high);
    }
    low = Math.max(low, 0);
    high = Math.min(high, dim - 1);
    if (low === high) high += 0.001; // transformers' guard against a singular ramp
    for (let i = 0; i < inv.length; i++) {
      const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
      const extrapolation = 1 - ramp;
      inv[i] = (inv[i]! / s.factor) * (1 - extrapolation) + inv[i]! * extrapolation;
    }
    attentionFactor = s.attentionFactor;
  } else if (s.type === 'longrope') {
    const ext = end > s.originalMaxPositionEmbeddings ? s.longFactor : s.shortFactor;
    for (let i = 0; i < inv.length; i++) inv[i]! /= ext[i]!;
    attentionFactor = s.attentionFactor;
  }
  return { inv, attentionFactor };
}

/**
 * cos and sin tables [seqLen, rotaryDim] for positions offset..offset+seqLen-1, computed in float64 and
 * fed to the graph as inputs: more exact than float32 on the device, and no Sin/Cos kernels needed.
 * Layout follows HF: emb = cat(freqs, freqs), so column j and j + rotaryDim/2 share a frequency. YaRN's
 * and LongRoPE's attention factor multiplies both, as transformers does.
 */
export function ropeTable(rope: Rope, seqLen: number, offset = 0): { cos: Float64Array; sin: Float64Array } {
  const { inv, attentionFactor } = inverseFrequencies(rope, offset + seqLen);
  const d = rope.rotaryDim;
  const half = d / 2;
  const cos = new Float64Array(seqLen * d);
  const sin = new Float64Array(seqLen * d);
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < half; i++) {
      const a = (offset + p) * inv[i]!;
      const c = Math.cos(a) * attentionFactor;
      const s = Math.sin(a) * attentionFactor;
      cos[p * d + i] = c;
      cos[p * d + i + half] = c;
      sin[p * d + i] = s;
      sin[p * d + i + half] = s;
    }
  }
  return { cos, sin };
}

/** One table per rotary embedding of the model (spec.ropes). */
export function ropeTables(spec: ModelSpec, seqLen: number, offset = 0): { cos: Float64Array; sin: Float64Array }[] {
  return spec.ropes.map((r) => ropeTable(r, seqLen, offset));
}

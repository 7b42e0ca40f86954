import type { ModelSpec } from './config';

/**
 * Inverse frequencies of the rotary embedding, in float64, ported from transformers'
 * `_compute_default_rope_parameters` / `_compute_linear_scaling_rope_parameters` / `_compute_llama3_parameters`
 * (modeling_rope_utils.py). Length headDim / 2.
 */
export function inverseFrequencies(spec: ModelSpec): Float64Array {
  const dim = spec.headDim;
  const inv = new Float64Array(dim / 2);
  for (let i = 0; i < dim / 2; i++) inv[i] = 1 / spec.ropeTheta ** ((2 * i) / dim);
  const s = spec.ropeScaling;
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
  }
  return inv;
}

/**
 * cos and sin tables [seqLen, headDim] for positions offset..offset+seqLen-1, computed in float64 and fed to the
 * graph as inputs: more exact than computing them in float32 on the device, and no Sin/Cos kernels needed.
 * Layout follows HF: emb = cat(freqs, freqs), so column j and j + headDim/2 share a frequency.
 */
export function ropeTables(spec: ModelSpec, seqLen: number, offset = 0): { cos: Float64Array; sin: Float64Array } {
  const inv = inverseFrequencies(spec);
  const d = spec.headDim;
  const half = d / 2;
  const cos = new Float64Array(seqLen * d);
  const sin = new Float64Array(seqLen * d);
  for (let p = 0; p < seqLen; p++) {
    for (let i = 0; i < half; i++) {
      const a = (offset + p) * inv[i]!;
      const c = Math.cos(a);
      const s = Math.sin(a);
      cos[p * d + i] = c;
      cos[p * d + i + half] = c;
      sin[p * d + i] = s;
      sin[p * d + i + half] = s;
    }
  }
  return { cos, sin };
}

import type { StoredTensor } from '../../src/model/checkpoint/checkpoint';
import { quantizeTensorBytes, type QuantizedMatrix, type QuantScheme } from '../../src/model/precision/quantize';
import { bytesOf, readBytes } from '../../src/model/checkpoint/tensor-bytes';
import type { LayerWeights, ModelWeights } from '../../src/model/checkpoint/weights';

/**
 * MatMulNBits' layout, written out here on its own (onnxruntime's contrib op spec), so a packing or nibble
 * order mistake in model/precision/quantize.ts cannot cancel itself out: W[n, k] = (q − zero) · scale.
 */
export function dequantize(m: QuantizedMatrix, N: number, K: number, s: QuantScheme): Float64Array {
  const blocks = Math.ceil(K / s.blockSize);
  const bytesPerBlock = (s.blockSize * s.bits) / 8;
  const zerosPerRow = s.bits === 8 ? blocks : Math.ceil(blocks / 2);
  const out = new Float64Array(N * K);
  for (let n = 0; n < N; n++) {
    for (let k = 0; k < K; k++) {
      const b = Math.floor(k / s.blockSize);
      const i = k - b * s.blockSize;
      const byte = m.packed[(n * blocks + b) * bytesPerBlock + Math.floor((i * s.bits) / 8)]!;
      const q = s.bits === 8 ? byte : i % 2 === 0 ? byte & 0x0f : byte >> 4;
      const zByte = m.zeros[n * zerosPerRow + Math.floor((b * s.bits) / 8)]!;
      const zero = s.bits === 8 ? zByte : b % 2 === 0 ? zByte & 0x0f : zByte >> 4;
      out[n * K + k] = (q - zero) * m.scales[n * blocks + b]!;
    }
  }
  return out;
}

/** The checkpoint as the quantized graph sees it: every matrix replaced by its dequantized values, in F32. */
export async function dequantizedWeights(w: ModelWeights, s: QuantScheme): Promise<ModelWeights> {
  const done = new Map<StoredTensor, StoredTensor>();
  const swap = async (t: StoredTensor | undefined): Promise<StoredTensor | undefined> => {
    if (t?.shape.length !== 2) return t;
    if (!done.has(t)) {
      const [N, K] = t.shape as [number, number];
      const m = quantizeTensorBytes(t.dtype as 'F32', await readBytes(t.data), N, K, s);
      const values = Float32Array.from(dequantize(m, N, K, s));
      done.set(t, { ...t, dtype: 'F32', data: bytesOf(new Uint8Array(values.buffer)) });
    }
    return done.get(t)!;
  };
  const layers: LayerWeights[] = [];
  for (const L of w.layers) {
    const out: Partial<LayerWeights> = {};
    for (const [k, t] of Object.entries(L) as [keyof LayerWeights, StoredTensor][]) out[k] = (await swap(t))!;
    layers.push(out as LayerWeights);
  }
  return { embed: (await swap(w.embed))!, layers, norm: w.norm, lmHead: (await swap(w.lmHead))! };
}

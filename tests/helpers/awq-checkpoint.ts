import { f16ToF32, f32ToF16 } from '../../src/model/precision/dtype';
import type { StoredTensor } from '../../src/model/checkpoint/checkpoint';
import { writeSafetensors } from '../../src/model/checkpoint/safetensors';
import { bytesOf } from '../../src/model/checkpoint/tensor-bytes';
import type { LayerWeights, ModelWeights } from '../../src/model/checkpoint/weights';
import { randomTensors, type RandomTensor } from './random-checkpoint';
import { tinyConfig, tinyModelFiles, type TinyOptions } from './tiny-model';

/** AutoAWQ's packing order (awq/modules/linear/gemm.py from_linear): nibble i of a word holds column 8c + ORDER[i]. */
const AWQ_ORDER = [0, 2, 4, 6, 1, 3, 5, 7];
const LINEAR = /^model\.layers\.\d+\.(self_attn\.(q|k|v|o)_proj|mlp\.(gate|up|down)_proj)\.weight$/;

/**
 * A tiny checkpoint in AWQ's GEMM format, written here from the random weights the way AutoAWQ writes one:
 * per group of `group` inputs, scale = (max − min) / 15 and zero = round(−min / scale), both per output
 * column; q = clamp(round(w / scale) + zero, 0, 15); qweight [K, N/8], qzeros [K/g, N/8] as I32 in AWQ's
 * interleaved order, scales [K/g, N] as F16. Also returns the float64 dequantization of every packed
 * matrix, [N, K] like nn.Linear, computed here: (q − z) · s.
 */
export function awqModelFiles(o: TinyOptions, group: number): { files: Map<string, Uint8Array>; dequantized: Map<string, Float64Array> } {
  const cfg = {
    ...tinyConfig({ ...o, dtype: 'F16' }),
    quantization_config: { quant_method: 'awq', bits: 4, group_size: group, version: 'gemm', zero_point: true, modules_to_not_convert: null },
  };
  const out: RandomTensor[] = [];
  const dequantized = new Map<string, Float64Array>();
  for (const t of randomTensors(cfg, 'F16', o.seed ?? 1)) {
    if (!LINEAR.test(t.name)) {
      out.push(t);
      continue;
    }
    const [N, K] = t.shape as [number, number];
    const h = new Uint16Array(t.bytes.buffer, t.bytes.byteOffset, N * K);
    const w = (n: number, k: number) => f16ToF32(h[n * K + k]!);
    const G = K / group;
    const q = new Int32Array(K * N);
    const z = new Int32Array(G * N);
    const s = new Uint16Array(G * N);
    const deq = new Float64Array(N * K);
    for (let n = 0; n < N; n++) {
      for (let g = 0; g < G; g++) {
        let lo = Infinity;
        let hi = -Infinity;
        for (let k = g * group; k < (g + 1) * group; k++) [lo, hi] = [Math.min(lo, w(n, k)), Math.max(hi, w(n, k))];
        const scale16 = f32ToF16(Math.max(hi - lo, 1e-5) / 15);
        const scale = f16ToF32(scale16);
        const zero = Math.min(15, Math.max(0, Math.round(-lo / scale)));
        s[g * N + n] = scale16;
        z[g * N + n] = zero;
        for (let k = g * group; k < (g + 1) * group; k++) {
          const v = Math.min(15, Math.max(0, Math.round(w(n, k) / scale) + zero));
          q[k * N + n] = v;
          deq[n * K + k] = (v - zero) * scale;
        }
      }
    }
    const pack = (rows: number, v: Int32Array) => {
      const words = new Uint32Array(rows * (N / 8));
      for (let r = 0; r < rows; r++)
        for (let c = 0; c < N / 8; c++) for (let i = 0; i < 8; i++) words[r * (N / 8) + c]! |= v[r * N + 8 * c + AWQ_ORDER[i]!]! << (4 * i);
      return new Uint8Array(words.buffer);
    };
    const base = t.name.slice(0, -'.weight'.length);
    out.push({ name: `${base}.qweight`, dtype: 'I32', shape: [K, N / 8], bytes: pack(K, q) });
    out.push({ name: `${base}.qzeros`, dtype: 'I32', shape: [G, N / 8], bytes: pack(G, z) });
    out.push({ name: `${base}.scales`, dtype: 'F16', shape: [G, N], bytes: new Uint8Array(s.buffer) });
    dequantized.set(t.name, deq);
  }
  const files = tinyModelFiles({ ...o, dtype: 'F16' });
  files.set('config.json', new TextEncoder().encode(JSON.stringify(cfg)));
  files.set('model.safetensors', writeSafetensors(out));
  return { files, dequantized };
}

/** The model with each packed matrix replaced by the float64 dequantization the test computed itself. */
export function withDequantized(w: ModelWeights, deq: Map<string, Float64Array>): ModelWeights {
  const swap = (t: StoredTensor): StoredTensor => {
    const d = deq.get(t.name);
    return d ? { name: t.name, dtype: 'F32', shape: t.shape, file: t.file, data: bytesOf(new Uint8Array(Float32Array.from(d).buffer)) } : t;
  };
  const layers = w.layers.map((L) => Object.fromEntries(Object.entries(L).map(([k, t]) => [k, swap(t as StoredTensor)])) as unknown as LayerWeights);
  return { ...w, layers };
}

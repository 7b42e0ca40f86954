import type { StoredTensor } from '../checkpoint/checkpoint';
import { f32ToF16, toFloat32 } from './dtype';
import type { Produce, TensorBytes } from '../checkpoint/tensor-bytes';

/**
 * Weight precision a person chooses per load. 'none': the checkpoint's own precision (as before).
 * 'q8' / 'q4': every linear layer, the head and the embedding quantized block-wise as the tensors are read,
 * for onnxruntime's com.microsoft.MatMulNBits.
 */
export type Quant = 'none' | 'q8' | 'q4' | 'q4g128';
export const QUANTS: readonly Quant[] = ['none', 'q8', 'q4', 'q4g128'];
/** A precision this tool quantizes to (every one but the checkpoint's own). */
export type QuantLevel = Exclude<Quant, 'none'>;
export const isQuantLevel = (s: string): s is QuantLevel => s === 'q8' || s === 'q4' || s === 'q4g128';

export interface QuantScheme {
  bits: 4 | 8;
  /** Weights along K (a row of HF's [out, in] matrix) sharing one scale and zero point. */
  blockSize: number;
}

/**
 * A zero point per block (asymmetric, min–max), as onnxruntime's own MatMul 4-bit quantizer writes: a zero
 * point costs 1/64 byte per weight at 4 bits and keeps lopsided blocks exact at their ends. q8 and q4 use
 * blocks of 32, as in-browser q4 models do: each block's range follows the weights closely. q4g128 uses
 * AWQ's and GPTQ's groups of 128: 0.1 byte per parameter less with fp32 scales (16% of q4), coarser ranges.
 */
export function schemeOf(quant: QuantLevel): QuantScheme {
  return { bits: quant === 'q8' ? 8 : 4, blockSize: quant === 'q4g128' ? 128 : 32 };
}

/** What the name says, for figures, exports and the plan ("q4 (4-bit, block 32, zero points)"). */
export function quantLabel(quant: Quant, awq?: { groupSize: number } | null): string {
  const own = awq ? `AWQ 4-bit linear layers as published (groups of ${awq.groupSize})` : null;
  if (quant === 'none') return own ?? "the checkpoint's own precision";
  const s = schemeOf(quant);
  return `${own ? `${own}; the rest at ` : ''}${quant} (${s.bits}-bit weights, blocks of ${s.blockSize} with a scale and zero point each)`;
}

/**
 * The precision a model runs at, as figures and exports name it: 'none' (its own), 'q8' / 'q4' (chosen),
 * 'awq4-g128' (a published AWQ checkpoint, run packed), or 'awq4-g128+q4' (the rest quantized too).
 */
export function precisionName(quant: Quant, awq?: { groupSize: number } | null): string {
  return [awq ? `awq4-g${awq.groupSize}` : null, quant !== 'none' ? quant : null].filter(Boolean).join('+') || 'none';
}

/** A [N, K] matrix in MatMulNBits' layout. */
export interface QuantizedMatrix {
  /** [N, kBlocks, blockSize · bits / 8]; at 4 bits element 2j of a block in the low nibble of byte j, 2j + 1 in the high. */
  packed: Uint8Array;
  /** [N · kBlocks], float32. */
  scales: Float32Array;
  /** 8 bits: [N · kBlocks]; 4 bits: [N · ⌈kBlocks / 2⌉], block 2i in the low nibble of byte i of its row. */
  zeros: Uint8Array;
}

export function blocksOf(K: number, s: QuantScheme): number {
  return Math.ceil(K / s.blockSize);
}

/** Bytes of each part, for the plan and the graph's initializers. */
export function quantizedBytes(N: number, K: number, s: QuantScheme): { packed: number; scales: number; zeros: number } {
  const kb = blocksOf(K, s);
  return { packed: (N * kb * (s.blockSize * s.bits)) / 8, scales: N * kb * 4, zeros: s.bits === 8 ? N * kb : N * Math.ceil(kb / 2) };
}

/**
 * Quantizes each row's blocks of `rows` (float32 [N, K]): scale = (max − min) / (2^bits − 1), zero point =
 * round(−min / scale), q = clamp(round(w / scale) + zero). A block past K is padded with its zero point
 * (the value 0). Dequantized: (q − zero) · scale.
 */
export function quantizeRows(rows: (n: number, into: Float32Array) => void, N: number, K: number, s: QuantScheme): QuantizedMatrix {
  const kb = blocksOf(K, s);
  const qmax = (1 << s.bits) - 1;
  const blob = (s.blockSize * s.bits) / 8;
  const zeroRow = s.bits === 8 ? kb : Math.ceil(kb / 2);
  const out: QuantizedMatrix = { packed: new Uint8Array(N * kb * blob), scales: new Float32Array(N * kb), zeros: new Uint8Array(N * zeroRow) };
  const row = new Float32Array(K);
  for (let n = 0; n < N; n++) {
    rows(n, row);
    for (let b = 0; b < kb; b++) {
      const start = b * s.blockSize;
      const end = Math.min(K, start + s.blockSize);
      let lo = 0;
      let hi = 0; // the range always holds 0, so 0 (and the padding) is exact
      for (let k = start; k < end; k++) {
        const w = row[k]!;
        if (w < lo) lo = w;
        if (w > hi) hi = w;
      }
      const scale = Math.fround((hi - lo) / qmax);
      const zero = scale > 0 ? Math.min(qmax, Math.max(0, Math.round(-lo / scale))) : 0;
      out.scales[n * kb + b] = scale;
      if (s.bits === 8) out.zeros[n * zeroRow + b] = zero;
      else out.zeros[n * zeroRow + (b >> 1)]! |= zero << ((b & 1) * 4);
      const base = (n * kb + b) * blob;
      for (let i = 0; i < s.blockSize; i++) {
        const k = start + i;
        const q = k < end && scale > 0 ? Math.min(qmax, Math.max(0, Math.round(row[k]! / scale) + zero)) : zero;
        if (s.bits === 8) out.packed[base + i] = q;
        else out.packed[base + (i >> 1)]! |= q << ((i & 1) * 4);
      }
    }
  }
  return out;
}

/**
 * The three initializers of one quantized matrix, each produced when onnxruntime reads it. The runtime reads
 * a node's initializers one after another, so the matrix is quantized once: the first part read keeps the
 * result until its other parts have been taken. Scales in `scaleDtype` (MatMulNBits wants A's type).
 */
export function quantizedTensor(
  t: StoredTensor,
  s: QuantScheme,
  scaleDtype: 'fp32' | 'fp16',
  rows: [number, number] = [0, t.shape[0]!],
): { packed: TensorBytes; scales: TensorBytes; zeros: TensorBytes } {
  const K = t.shape[1]!;
  const [r0, r1] = rows;
  const N = r1 - r0;
  const bytes = quantizedBytes(N, K, s);
  const dtype = t.dtype as 'F32' | 'F16' | 'BF16';
  // One read of the tensor for its three parts (t.data may share it with other row ranges: onceRead).
  let read: Promise<Produce> | null = null;
  let kept: { m: QuantizedMatrix; left: number } | null = null;
  const take = (produce: Produce): QuantizedMatrix => {
    // A synchronous source is read a block of rows at a time: no copy of the whole tensor is made.
    const el = dtype === 'F32' ? 4 : 2;
    const readSync = t.data.readSync;
    kept ??= {
      m: readSync
        ? quantizeRowBlocks(dtype, (a, b) => readSync(r0 * K * el + a, r0 * K * el + b), N, K, s)
        : quantizeTensorBytes(dtype, produce().subarray(r0 * K * el, r1 * K * el), N, K, s),
      left: 3,
    };
    const m = kept.m;
    if (--kept.left === 0) kept = null;
    return m;
  };
  const part = (byteLength: number, write: (m: QuantizedMatrix, into: Uint8Array) => void): TensorBytes => ({
    transformed: true,
    byteLength,
    async prepare() {
      const produce = await (read ??= t.data.prepare());
      return (into) => {
        const out = into && into.byteLength >= byteLength ? into.subarray(0, byteLength) : new Uint8Array(byteLength);
        write(take(produce), out);
        return out;
      };
    },
  });
  const scaleBytes = scaleDtype === 'fp16' ? bytes.scales / 2 : bytes.scales;
  return {
    packed: part(bytes.packed, (m, into) => into.set(m.packed)),
    scales: part(scaleBytes, (m, into) => {
      const sc = m.scales;
      if (scaleDtype === 'fp32') into.set(new Uint8Array(sc.buffer, sc.byteOffset, sc.byteLength));
      else {
        const h = new Uint16Array(sc.length);
        for (let i = 0; i < sc.length; i++) h[i] = f32ToF16(sc[i]!);
        into.set(new Uint8Array(h.buffer));
      }
    }),
    zeros: part(bytes.zeros, (m, into) => into.set(m.zeros)),
  };
}

/**
 * A matrix with more rows than this (an output head: 150k–260k rows) is quantized and run in slices of it:
 * onnxruntime's CPU MatMulNBits without a native 4/8-bit kernel (the wasm build) dequantizes its whole
 * matrix to fp32 for each call, which for a head is the model's largest transient (Qwen2.5-0.5B: 544 MB).
 */
export const SLICE_ROWS = 8192;

/** The row ranges a [N, K] matrix is quantized in. */
export function rowSlices(N: number, size = SLICE_ROWS): [number, number][] {
  const out: [number, number][] = [];
  for (let r = 0; r < N; r += size) out.push([r, Math.min(N, r + size)]);
  return out;
}

/** A tensor whose bytes are read once however many parts and slices ask for them. */
export function onceRead(t: StoredTensor): StoredTensor {
  let read: Promise<Produce> | null = null;
  return { ...t, data: { ...t.data, prepare: () => (read ??= t.data.prepare()) } };
}

/** Rows read per block from a synchronous source (a few MB at most for the widest matrices). */
const ROW_BLOCK = 64;

/** Quantizes a tensor read ROW_BLOCK rows at a time. */
function quantizeRowBlocks(
  dtype: 'F32' | 'F16' | 'BF16',
  readSync: (start: number, end: number) => Uint8Array,
  N: number,
  K: number,
  s: QuantScheme,
): QuantizedMatrix {
  const el = dtype === 'F32' ? 4 : 2;
  const scratch = new Uint8Array(4 * K);
  let block: Uint8Array | null = null;
  let first = -1;
  return quantizeRows(
    (n, into) => {
      if (block === null || n >= first + ROW_BLOCK || n < first) {
        first = n;
        block = readSync(n * K * el, Math.min(N, n + ROW_BLOCK) * K * el);
      }
      const at = (n - first) * K * el;
      into.set(toFloat32(dtype, block.subarray(at, at + K * el), scratch));
    },
    N,
    K,
    s,
  );
}

/** Quantizes a tensor's stored bytes a row at a time: no float32 copy of the whole matrix. */
export function quantizeTensorBytes(dtype: 'F32' | 'F16' | 'BF16', raw: Uint8Array, N: number, K: number, s: QuantScheme): QuantizedMatrix {
  const el = dtype === 'F32' ? 4 : 2;
  const scratch = new Uint8Array(4 * K);
  return quantizeRows((n, into) => into.set(toFloat32(dtype, raw.subarray(n * K * el, (n + 1) * K * el), scratch)), N, K, s);
}

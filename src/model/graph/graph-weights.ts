import type { StoredTensor } from '../checkpoint/checkpoint';
import { toFloat16Bytes, toFloat32 } from '../precision/dtype';
import { DT, type GraphBuilder } from './onnx-builder';
import { ModelError } from '../errors';
import { mapBytes } from '../checkpoint/tensor-bytes';
import { awqScalesToMatMulNBits, awqToMatMulNBits, awqZerosToMatMulNBits } from '../precision/awq';
import { blocksOf, onceRead, quantizedTensor, rowSlices, schemeOf, SLICE_ROWS, type Quant, type QuantScheme } from '../precision/quantize';

/** One slice of rows of a quantized matrix: its MatMulNBits initializers. */
interface QuantSlice {
  rows: [number, number];
  packed: string;
  scales: string;
  zeros: string;
}
interface Quantized {
  slices: QuantSlice[];
  scheme: QuantScheme;
}

/**
 * How checkpoint tensors become graph initializers, each added once (a tied lm_head reuses the
 * embedding's). fp32 graph: F32 as is; F16 kept in half precision and Cast at load (onnxruntime folds
 * it); BF16 widened, one tensor at a time as onnxruntime reads it. fp16 graph: F16 as is; BF16 and F32
 * narrowed. Norm weights can be asked for in fp32 with an offset (Gemma's 1 + w).
 */
export class GraphWeights {
  private readonly stored = new Map<string, string>();
  /** How the weights were stored, for the loader's report. */
  readonly storage = new Set<string>();

  /**
   * `keepHalf`: in an fp32 graph, F16/BF16 matrices stay in half precision and are widened where each is
   * used, every pass (GraphOptions.weightStorage 'half'): half the memory, for models that do not fit as
   * fp32. Each widening waits on the activation it multiplies, so onnxruntime runs it just before its
   * layer and frees it after: one layer's fp32 copy at a time, not every weight widened up front.
   */
  private readonly scheme: QuantScheme | null;

  constructor(
    private readonly g: GraphBuilder,
    private readonly half: boolean,
    private readonly keepHalf = false,
    private readonly keptBf16: 'bf16' | 'fp16' = 'bf16',
    quant: Quant = 'none',
    private readonly sliceRows = SLICE_ROWS,
  ) {
    this.scheme = quant === 'none' ? null : schemeOf(quant);
  }

  /** A 2-D matrix's MatMulNBits initializers (packed weights, scales, zero points) per slice of rows, each added once. */
  private quantized(t: StoredTensor): Quantized | null {
    if (t.packed) return this.published(t);
    const s = this.scheme;
    if (!s || t.shape.length !== 2) return null;
    const [N, K] = t.shape as [number, number];
    const kb = blocksOf(K, s);
    const key = `${t.name}#q${s.bits}`;
    if (!this.quantizedKept.has(key)) {
      this.storage.add(
        `linear layers, head and embedding quantized to ${s.bits} bits (blocks of ${s.blockSize}, a scale and zero point each) as they are read`,
      );
      const once = onceRead(t);
      const slices = rowSlices(N, this.sliceRows).map(([r0, r1], i) => {
        const n = r1 - r0;
        const name = `${key}.${i}`;
        const q = quantizedTensor(once, s, this.half ? 'fp16' : 'fp32', [r0, r1]);
        this.g.external(`${name}.packed`, DT.UINT8, [n, kb, (s.blockSize * s.bits) / 8], q.packed);
        this.g.external(`${name}.scales`, this.half ? DT.FLOAT16 : DT.FLOAT, [n * kb], q.scales);
        this.g.external(`${name}.zeros`, DT.UINT8, [s.bits === 8 ? n * kb : n * Math.ceil(kb / 2)], q.zeros);
        return { rows: [r0, r1] as [number, number], packed: `${name}.packed`, scales: `${name}.scales`, zeros: `${name}.zeros` };
      });
      this.quantizedKept.set(key, { slices, scheme: s });
    }
    return this.quantizedKept.get(key)!;
  }

  private readonly quantizedKept = new Map<string, Quantized>();

  /** A published AWQ matrix: its packed weights, zero points and scales rearranged for MatMulNBits, never dequantized. */
  private published(t: StoredTensor): Quantized {
    const p = t.packed!;
    const [N, K] = t.shape as [number, number];
    const groups = K / p.groupSize;
    const key = `${t.name}#awq`;
    if (!this.quantizedKept.has(key)) {
      this.storage.add(`linear layers in AWQ's ${p.bits} bits as published (groups of ${p.groupSize}), run packed`);
      const half = this.half;
      this.g.external(
        `${key}.packed`,
        DT.UINT8,
        [N, groups, p.groupSize / 2],
        mapBytes(p.qweight.data, (N * K) / 2, (raw, into) => awqToMatMulNBits(p, N, K, raw, into)),
      );
      this.g.external(
        `${key}.scales`,
        half ? DT.FLOAT16 : DT.FLOAT,
        [N * groups],
        mapBytes(p.scales.data, N * groups * (half ? 2 : 4), (raw, into) => awqScalesToMatMulNBits(N, groups, p.scales.dtype, raw, half, into)),
      );
      this.g.external(
        `${key}.zeros`,
        DT.UINT8,
        [N * Math.ceil(groups / 2)],
        mapBytes(p.qzeros.data, N * Math.ceil(groups / 2), (raw, into) => awqZerosToMatMulNBits(N, groups, raw, into)),
      );
      this.quantizedKept.set(key, {
        slices: [{ rows: [0, N], packed: `${key}.packed`, scales: `${key}.scales`, zeros: `${key}.zeros` }],
        scheme: { bits: p.bits, blockSize: p.groupSize },
      });
    }
    return this.quantizedKept.get(key)!;
  }

  /** x · tᵀ for an HF [out, in] weight: MatMulNBits when quantizing (a slice of rows at a time, joined), else Gemm on the stored (or widened) weight. */
  matmul(x: string, t: StoredTensor, bias?: StoredTensor): string {
    const q = this.quantized(t);
    if (!q) return this.g.op('Gemm', [x, this.widenedAfter(t, x), ...(bias ? [this.get(bias)] : [])], { transB: 1 });
    const K = t.shape[1]!;
    const parts = q.slices.map((sl) =>
      this.g.op(
        'MatMulNBits',
        [x, sl.packed, sl.scales, sl.zeros],
        { K, N: sl.rows[1] - sl.rows[0], bits: q.scheme.bits, block_size: q.scheme.blockSize, accuracy_level: 0 },
        undefined,
        'com.microsoft',
      ),
    );
    const y = parts.length === 1 ? parts[0]! : this.g.op('Concat', parts, { axis: -1 });
    return bias ? this.g.op('Add', [y, this.get(bias)]) : y;
  }

  /** A 2-D half-precision weight kept in half precision; null when it is widened at load instead. */
  private kept(t: StoredTensor): string | null {
    if (this.half || !this.keepHalf || t.dtype === 'F32' || t.shape.length !== 2) return null;
    const key = `${t.name}#kept`;
    if (!this.stored.has(key)) {
      if (t.dtype === 'BF16' && this.keptBf16 === 'fp16') {
        this.storage.add('BF16 matrices kept in half precision as fp16 (this runtime cannot cast BF16), widened to fp32 where used, every pass');
        this.stored.set(
          key,
          this.g.external(
            `${t.name}.f16`,
            DT.FLOAT16,
            t.shape,
            mapBytes(t.data, t.data.byteLength, (raw, into) => bf16ToF16Checked(t, raw, into)),
          ),
        );
      } else {
        this.storage.add(`${t.dtype} matrices kept in half precision, widened to fp32 where used, every pass`);
        this.stored.set(key, this.g.external(`${t.name}.${t.dtype.toLowerCase()}`, t.dtype === 'BF16' ? DT.BFLOAT16 : DT.FLOAT16, t.shape, t.data));
      }
    }
    return this.stored.get(key)!;
  }

  /**
   * The weight as fp32, widened from its kept half-precision initializer after `dep` (an activation) is
   * computed: Reshape to its own shape plus a zero taken from `dep`'s shape, so nothing folds it at load.
   */
  widenedAfter(t: StoredTensor, dep: string): string {
    const k = this.kept(t);
    if (!k) return this.get(t);
    const g = this.g;
    const zero = g.op('Mul', [g.op('Gather', [g.op('Shape', [dep]), g.int64([0], [])], { axis: 0 }), g.int64([0], [])]);
    const shape = g.op('Add', [g.int64(t.shape), zero]);
    return g.op('Cast', [g.op('Reshape', [k, shape])], { to: DT.FLOAT });
  }

  /**
   * Rows of an embedding: gathered from the kept half-precision matrix, then widened (no whole-matrix copy).
   * Quantized: the rows' blocks gathered from the head's own packed initializer (a tied embedding is stored
   * once) and dequantized with plain arithmetic, which every backend runs; only the pass's rows are widened.
   */
  gatherRows(t: StoredTensor, ids: string): string {
    const q = this.quantized(t);
    if (q) return q.slices.length === 1 ? this.dequantizedRows(t, q.slices[0]!, q.scheme, ids) : this.slicedRows(t, q, ids);
    const k = this.kept(t);
    if (!k) return this.g.op('Gather', [this.get(t), ids], { axis: 0 });
    return this.g.op('Cast', [this.g.op('Gather', [k, ids], { axis: 0 })], { to: DT.FLOAT });
  }

  /**
   * Rows of a matrix quantized in slices: each slice gathers the ids it holds (the others clamped into it and
   * masked out), and the slices' rows are added. Index arithmetic in float (exact for any vocabulary below 2^24),
   * which every backend runs.
   */
  private slicedRows(t: StoredTensor, q: Quantized, ids: string): string {
    const g = this.g;
    const fid = g.op('Cast', [ids], { to: DT.FLOAT });
    const zero = this.half ? g.op('Cast', [g.float([0], [])], { to: DT.FLOAT16 }) : g.float([0], []);
    const terms = q.slices.map((sl) => {
      const [r0, r1] = sl.rows;
      const local = g.op('Cast', [g.op('Min', [g.op('Max', [g.op('Sub', [fid, g.float([r0], [])]), g.float([0], [])]), g.float([r1 - r0 - 1], [])])], {
        to: DT.INT64,
      });
      const inside = g.op('And', [g.op('GreaterOrEqual', [fid, g.float([r0], [])]), g.op('Less', [fid, g.float([r1], [])])]);
      const rows = this.dequantizedRows(t, sl, q.scheme, local);
      return g.op('Where', [g.op('Unsqueeze', [inside, g.int64([-1])]), rows, zero]);
    });
    return terms.reduce((a, b) => g.op('Add', [a, b]));
  }

  private dequantizedRows(t: StoredTensor, q: QuantSlice, scheme: QuantScheme, ids: string): string {
    const g = this.g;
    const K = t.shape[1]!;
    const N = q.rows[1] - q.rows[0];
    const { bits, blockSize } = scheme;
    const kb = blocksOf(K, scheme);
    const T = this.half ? DT.FLOAT16 : DT.FLOAT;
    const f = (x: string) => g.op('Cast', [x], { to: DT.FLOAT });
    /** uint8 bytes → their two nibbles as floats, low first, along a new last axis then flattened. */
    const nibbles = (bytes: string, dims: number[]) => {
      const v = f(bytes);
      const hi = g.op('Floor', [g.op('Div', [v, g.float([16], [])])]);
      const lo = g.op('Sub', [v, g.op('Mul', [hi, g.float([16], [])])]);
      const pair = g.op('Concat', [g.op('Unsqueeze', [lo, g.int64([-1])]), g.op('Unsqueeze', [hi, g.int64([-1])])], { axis: -1 });
      return g.op('Reshape', [pair, g.int64(dims)]);
    };
    const packed = g.op('Gather', [q.packed, ids], { axis: 0 }); // [S, kb, blob]
    const values = bits === 8 ? f(packed) : nibbles(packed, [-1, kb, blockSize]); // [S, kb, block]
    const scales = f(g.op('Gather', [g.op('Reshape', [q.scales, g.int64([N, kb])]), ids], { axis: 0 })); // [S, kb]
    const zRows = g.op('Gather', [g.op('Reshape', [q.zeros, g.int64([N, -1])]), ids], { axis: 0 });
    const zeros = bits === 8 ? f(zRows) : g.op('Slice', [nibbles(zRows, [-1, 2 * Math.ceil(kb / 2)]), g.int64([0]), g.int64([kb]), g.int64([1])]); // [S, kb]
    const deq = g.op('Mul', [g.op('Sub', [values, g.op('Unsqueeze', [zeros, g.int64([-1])])]), g.op('Unsqueeze', [scales, g.int64([-1])])]);
    const rows = g.op('Slice', [g.op('Reshape', [deq, g.int64([-1, kb * blockSize])]), g.int64([0]), g.int64([K]), g.int64([1])]); // drop the padding
    return T === DT.FLOAT ? rows : g.op('Cast', [rows], { to: T });
  }

  get(t: StoredTensor): string {
    const known = this.stored.get(t.name);
    if (known) return known;
    const n = count(t);
    let value: string;
    if (this.half) {
      this.storage.add(t.dtype === 'F16' ? 'F16 weights used as is' : `${t.dtype} weights narrowed to fp16`);
      value = this.g.external(
        t.name,
        DT.FLOAT16,
        t.shape,
        t.dtype === 'F16' ? t.data : mapBytes(t.data, 2 * n, (raw, into) => void toFloat16Bytes(t.dtype, raw, into)),
      );
    } else if (t.dtype === 'F16') {
      this.storage.add('F16 weights stored as fp16, cast to fp32 at load');
      value = this.g.op('Cast', [this.g.external(`${t.name}.f16`, DT.FLOAT16, t.shape, t.data)], { to: DT.FLOAT });
    } else {
      this.storage.add(t.dtype === 'BF16' ? 'BF16 weights widened to fp32' : 'F32 weights');
      value = this.g.external(
        t.name,
        DT.FLOAT,
        t.shape,
        t.dtype === 'F32' ? t.data : mapBytes(t.data, 4 * n, (raw, into) => void toFloat32(t.dtype, raw, into)),
      );
    }
    this.stored.set(t.name, value);
    return value;
  }

  /** A norm weight in fp32 plus `offset` (Gemma stores w and scales by 1 + w), whatever the compute dtype. */
  fp32(t: StoredTensor, offset = 0): string {
    if (!this.half && offset === 0) return this.get(t);
    const key = `${t.name}#fp32+${offset}`;
    const known = this.stored.get(key);
    if (known) return known;
    const data = mapBytes(t.data, 4 * count(t), (raw, into) => {
      const v = toFloat32(t.dtype, raw, into);
      if (offset) for (let i = 0; i < v.length; i++) v[i]! += offset;
    });
    const value = this.g.external(offset ? `${t.name}.plus${offset}` : `${t.name}.fp32`, DT.FLOAT, t.shape, data);
    this.stored.set(key, value);
    return value;
  }
}

function count(t: StoredTensor): number {
  return t.shape.reduce((a, b) => a * b, 1);
}

/**
 * BF16 → fp16 bits: bf16's 8-bit significand fits fp16's 11, so every value in fp16's normal range is
 * exact; smaller ones round to fp16's subnormals (error ≤ 2^-25). A value fp16 cannot hold is refused.
 */
function bf16ToF16Checked(t: StoredTensor, raw: Uint8Array, into: Uint8Array): void {
  toFloat16Bytes('BF16', raw, into);
  const n = raw.byteLength / 2;
  const bits = new Uint16Array(into.buffer, into.byteOffset, n);
  const src = raw.byteOffset % 2 === 0 ? new Uint16Array(raw.buffer, raw.byteOffset, n) : new Uint16Array(raw.slice().buffer);
  for (let i = 0; i < bits.length; i++) {
    // Infinity in fp16 from a finite bf16 value: out of range (a stored inf/NaN stays what it was).
    if ((bits[i]! & 0x7c00) === 0x7c00 && (src[i]! & 0x7f80) !== 0x7f80) {
      const value = new Float32Array(new Uint32Array([src[i]! << 16]).buffer)[0]!;
      throw new ModelError(
        t.file,
        `${t.name} holds ${value.toExponential(3)}, beyond the ±65,504 fp16 can hold: this runtime keeps BF16 matrices as fp16 (it has no BF16 Cast); run it where BF16 is cast (wasm, the native runtime) or in full precision`,
      );
    }
  }
}

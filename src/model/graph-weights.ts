import type { StoredTensor } from './checkpoint';
import { toFloat16Bytes, toFloat32 } from './dtype';
import { DT, type GraphBuilder } from './onnx-builder';
import { ModelError } from './errors';
import { mapBytes } from './tensor-bytes';

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
  constructor(private readonly g: GraphBuilder, private readonly half: boolean, private readonly keepHalf = false, private readonly keptBf16: 'bf16' | 'fp16' = 'bf16') {}

  /** A 2-D half-precision weight kept in half precision; null when it is widened at load instead. */
  private kept(t: StoredTensor): string | null {
    if (this.half || !this.keepHalf || t.dtype === 'F32' || t.shape.length !== 2) return null;
    const key = `${t.name}#kept`;
    if (!this.stored.has(key)) {
      if (t.dtype === 'BF16' && this.keptBf16 === 'fp16') {
        this.storage.add('BF16 matrices kept in half precision as fp16 (this runtime cannot cast BF16), widened to fp32 where used, every pass');
        this.stored.set(key, this.g.external(`${t.name}.f16`, DT.FLOAT16, t.shape, mapBytes(t.data, t.data.byteLength, (raw, into) => bf16ToF16Checked(t, raw, into))));
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

  /** Rows of an embedding: gathered from the kept half-precision matrix, then widened (no whole-matrix copy). */
  gatherRows(t: StoredTensor, ids: string): string {
    const k = this.kept(t);
    if (!k) return this.g.op('Gather', [this.get(t), ids], { axis: 0 });
    return this.g.op('Cast', [this.g.op('Gather', [k, ids], { axis: 0 })], { to: DT.FLOAT });
  }

  get(t: StoredTensor): string {
    const known = this.stored.get(t.name);
    if (known) return known;
    const n = count(t);
    let value: string;
    if (this.half) {
      this.storage.add(t.dtype === 'F16' ? 'F16 weights used as is' : `${t.dtype} weights narrowed to fp16`);
      value = this.g.external(t.name, DT.FLOAT16, t.shape, t.dtype === 'F16' ? t.data : mapBytes(t.data, 2 * n, (raw, into) => void toFloat16Bytes(t.dtype, raw, into)));
    } else if (t.dtype === 'F16') {
      this.storage.add('F16 weights stored as fp16, cast to fp32 at load');
      value = this.g.op('Cast', [this.g.external(`${t.name}.f16`, DT.FLOAT16, t.shape, t.data)], { to: DT.FLOAT });
    } else {
      this.storage.add(t.dtype === 'BF16' ? 'BF16 weights widened to fp32' : 'F32 weights');
      value = this.g.external(t.name, DT.FLOAT, t.shape, t.dtype === 'F32' ? t.data : mapBytes(t.data, 4 * n, (raw, into) => void toFloat32(t.dtype, raw, into)));
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
      throw new ModelError(t.file, `${t.name} holds ${value.toExponential(3)}, beyond the ±65,504 fp16 can hold: this runtime keeps BF16 matrices as fp16 (it has no BF16 Cast); run it where BF16 is cast (wasm, the native runtime) or in full precision`);
    }
  }
}

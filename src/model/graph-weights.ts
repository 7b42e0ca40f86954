import type { StoredTensor } from './checkpoint';
import { toFloat16Bytes, toFloat32 } from './dtype';
import { DT, type GraphBuilder } from './onnx-builder';
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

  constructor(private readonly g: GraphBuilder, private readonly half: boolean) {}

  get(t: StoredTensor): string {
    const known = this.stored.get(t.name);
    if (known) return known;
    const n = count(t);
    let value: string;
    if (this.half) {
      this.storage.add(t.dtype === 'F16' ? 'F16 weights used as is' : `${t.dtype} weights narrowed to fp16`);
      value = this.g.external(t.name, DT.FLOAT16, t.shape, t.dtype === 'F16' ? t.data : mapBytes(t.data, 2 * n, (raw) => toFloat16Bytes(t.dtype, raw)));
    } else if (t.dtype === 'F16') {
      this.storage.add('F16 weights stored as fp16, cast to fp32 at load');
      value = this.g.op('Cast', [this.g.external(`${t.name}.f16`, DT.FLOAT16, t.shape, t.data)], { to: DT.FLOAT });
    } else {
      this.storage.add(t.dtype === 'BF16' ? 'BF16 weights widened to fp32' : 'F32 weights');
      value = this.g.external(t.name, DT.FLOAT, t.shape, t.dtype === 'F32' ? t.data : mapBytes(t.data, 4 * n, (raw) => new Uint8Array(toFloat32(t.dtype, raw).buffer)));
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
    const data = mapBytes(t.data, 4 * count(t), (raw) => {
      const v = toFloat32(t.dtype, raw);
      if (offset) for (let i = 0; i < v.length; i++) v[i]! += offset;
      return new Uint8Array(v.buffer);
    });
    const value = this.g.external(offset ? `${t.name}.plus${offset}` : `${t.name}.fp32`, DT.FLOAT, t.shape, data);
    this.stored.set(key, value);
    return value;
  }
}

function count(t: StoredTensor): number {
  return t.shape.reduce((a, b) => a * b, 1);
}

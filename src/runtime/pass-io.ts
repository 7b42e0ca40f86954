/** A pass's row ranges, and its outputs as the caller reads them. */
import type * as Ort from 'onnxruntime-web';
import { slab } from '../metrics/slab';
import type { ModelSpec } from '../model/config/config';
import { attnMeanName, attnRowsName, LOGITS, pastKeyName, pastValueName, presentKeyName, presentValueName } from '../model/graph/graph-io';
import type { ForwardRequest, ForwardResult } from './session-types';

/** A row range clamped to the sequence; the default is the last row. */
export function clampRange(range: [number, number] | undefined, seqLen: number): [number, number] {
  const [a, b] = range ?? [seqLen - 1, seqLen];
  const start = Math.max(0, Math.min(a, seqLen));
  const end = Math.max(start, Math.min(b, seqLen));
  if (end <= start) throw new RangeError(`row range [${a}, ${b}) is empty for a sequence of ${seqLen} tokens`);
  return [start, end];
}

/** A pass's outputs as the caller reads them: rows and keys by absolute position (after a cache of P tokens, row 0 is position P). */
export function passResult(
  out: Record<string, Ort.Tensor>,
  req: ForwardRequest,
  spec: ModelSpec,
  p: { S: number; P: number; layers: number[]; attn: [number, number]; mean: [number, number]; logits: [number, number] },
): ForwardResult {
  const { S, P } = p;
  const data = (name: string) => {
    const t = out[name];
    if (!t) throw new Error(`the session did not return ${name}`);
    return t.data as Float32Array;
  };
  const present = () => ({
    length: P + S,
    tensors: new Map(
      Array.from({ length: spec.numLayers }, (_, l) => [
        [pastKeyName(l), out[presentKeyName(l)]],
        [pastValueName(l), out[presentValueName(l)]],
      ]).flat() as [string, unknown][],
    ),
  });
  return {
    seqLen: S,
    ...(req.keepCache && { present: present() }),
    logits: req.skipLogits ? null : { data: data(LOGITS), rowStart: p.logits[0], rows: p.logits[1] - p.logits[0], vocab: spec.vocabSize },
    attention: p.layers.map((layer) => ({
      layer,
      perHead: req.perHead ? slab(data(attnRowsName(layer)), p.attn[1] - p.attn[0], P + S, P + p.attn[0], spec.numHeads) : null,
      mean: slab(data(attnMeanName(layer)), p.mean[1] - p.mean[0], P + S, P + p.mean[0]),
    })),
  };
}

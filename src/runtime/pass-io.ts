/** A pass's row ranges, and its outputs as the caller reads them. */
import type * as Ort from 'onnxruntime-web';
import { slab } from '../metrics/slab';
import type { ModelSpec } from '../model/config/config';
import {
  attnMeanName,
  attnRowsName,
  headDiagName,
  headOutMeanName,
  headSharesName,
  INPUT,
  LOGITS,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
} from '../model/graph/graph-io';
import type { ForwardRequest, ForwardResult, LayerHeadFigures } from './session-types';

/** A row range clamped to the sequence; the default is the last row. */
export function clampRange(range: [number, number] | undefined, seqLen: number): [number, number] {
  const [a, b] = range ?? [seqLen - 1, seqLen];
  // A NaN would slip through the clamps below and surface as a memory refusal that names no row: refuse it here.
  if (!Number.isInteger(a) || !Number.isInteger(b)) throw new RangeError(`row range [${a}, ${b}) is not two whole numbers`);
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
    ...(req.headFigures && out[headSharesName(0)] !== undefined && { headFigures: headFiguresOf(out, spec, req.headFigures.answers) }),
    ...(req.headOutputMeans && out[headOutMeanName(0)] !== undefined && { headOutputMeans: headOutputMeansOf(out, spec) }),
    attention: p.layers.map((layer) => ({
      layer,
      perHead: req.perHead ? slab(data(attnRowsName(layer)), p.attn[1] - p.attn[0], P + S, P + p.attn[0], spec.numHeads) : null,
      mean: slab(data(attnMeanName(layer)), p.mean[1] - p.mean[0], P + S, P + p.mean[0]),
    })),
  };
}

/** The head mask a pass runs with: the request's, checked, or every head on. */
export function headMaskOf(req: ForwardRequest, spec: ModelSpec): Float32Array {
  const n = spec.numLayers * spec.numHeads;
  if (!req.headMask) return new Float32Array(n).fill(1);
  if (req.headMask.length !== n)
    throw new RangeError(`a head mask has ${n} values (${spec.numLayers} layers × ${spec.numHeads} heads), not ${req.headMask.length}`);
  return req.headMask;
}

/** The head-figure inputs: the request's, checked against the pass, or zeros (the figures are then zeros). */
export function headFigureFeeds(ort: typeof Ort, req: ForwardRequest, spec: ModelSpec, keys: number, rows: number): Record<string, Ort.Tensor> {
  const biasSize = spec.numLayers * spec.numHeads * spec.headDim;
  if (req.headBias && req.headBias.length !== biasSize)
    throw new RangeError(`a head bias has ${biasSize} values (layers × heads × head_dim), not ${req.headBias.length}`);
  const h = req.headFigures;
  const answers = h ? Math.max(1, h.answers) : 1;
  if (h && h.categories.length !== keys * 5) throw new RangeError(`key categories: ${keys} keys × 5 values, not ${h.categories.length}`);
  if (h && h.answers > 0 && h.bands.length !== rows * keys * h.answers)
    throw new RangeError(`diagonal bands: ${rows} rows × ${keys} keys × ${h.answers} answers, not ${h.bands.length}`);
  const bands = h && h.answers > 0 ? h.bands : new Float32Array(rows * keys * answers);
  return {
    [INPUT.keyCategories]: new ort.Tensor('float32', h?.categories ?? new Float32Array(keys * 5), [keys, 5]),
    [INPUT.diagBands]: new ort.Tensor('float32', bands, [rows * keys, answers]),
    [INPUT.headBias]: new ort.Tensor('float32', req.headBias ?? new Float32Array(biasSize), [spec.numLayers, spec.numHeads, spec.headDim]),
  };
}

/** Every layer's head figures from a pass's outputs (the layers are all the model's: head-figure graphs reduce every one). */
function headFiguresOf(out: Record<string, Ort.Tensor>, spec: ModelSpec, answers: number): LayerHeadFigures[] {
  return Array.from({ length: spec.numLayers }, (_, layer) => ({
    layer,
    shares: out[headSharesName(layer)]!.data as Float32Array,
    // No prior answer: one all-zero band was fed (ORT needs a dimension); nothing to report.
    diagonal: answers > 0 ? (out[headDiagName(layer)]!.data as Float32Array) : new Float32Array(0),
    answers,
  }));
}

/** Every layer's per-head mean outputs, one [layers × heads × head_dim] array (the layout head_bias takes). */
function headOutputMeansOf(out: Record<string, Ort.Tensor>, spec: ModelSpec): Float32Array {
  const n = spec.numHeads * spec.headDim;
  const all = new Float32Array(spec.numLayers * n);
  for (let l = 0; l < spec.numLayers; l++) all.set(out[headOutMeanName(l)]!.data as Float32Array, l * n);
  return all;
}

import type { ModelSpec } from '../config/config';
import type { ComputeDtype } from '../precision/compute-dtype';
import { ModelError } from '../errors';
import {
  HIDDEN_OUT,
  INPUT,
  LOGITS,
  attnMeanName,
  headDiagName,
  headOutMeanName,
  headSharesName,
  attnRowsName,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
  ropeCosName,
  ropeSinName,
} from './graph-io';
import { Decoder } from './decoder';
import { DT, type ExternalFile } from './onnx-builder';
import type { Quant } from '../precision/quantize';
import type { ModelWeights } from '../checkpoint/weights';

export interface GraphOptions {
  /** Layers whose attention rows become outputs. Default: the final layer. */
  inspectLayers?: number[];
  /** Default fp32. fp16 keeps RMSNorm and softmax in fp32, as transformers does in half precision. */
  computeDtype?: ComputeDtype;
  /** Past/present key-values as inputs/outputs, for generation (graph-io.ts). */
  kvCache?: boolean;
  /** Every layer's per-head category shares and diagonal per prior answer as outputs, reduced in the graph (explicit attention everywhere). */
  headFigures?: boolean;
  /**
   * 'fused': layers not inspected run com.microsoft GroupQueryAttention (no [S × S] scores in
   * memory); inspected layers stay explicit. Default 'explicit' (every layer MatMul→Softmax→MatMul).
   */
  attention?: 'explicit' | 'fused';
  /**
   * The layers [first, end) this graph runs: one segment of the model (default: all). A segment after
   * layer 0 starts from `hidden_in`; one that ends before the last layer returns `hidden_out`.
   */
  layers?: [number, number];
  /**
   * fp32 graphs only. 'compute' (default): weights widened to fp32 at load. 'half': F16/BF16 matrices
   * kept as stored and widened where used, every pass (half the weights' memory; slower passes).
   */
  weightStorage?: 'compute' | 'half';
  /**
   * 'half' storage of BF16 matrices: 'bf16' (default) as stored, or 'fp16' for a runtime with no BF16 Cast
   * (onnxruntime-web's WebGPU build): exact for |w| in fp16's normal range, rounded to within 3e-8 below it;
   * a weight beyond ±65,504 is refused by name.
   */
  keptBf16?: 'bf16' | 'fp16';
  /** 'q8' / 'q4': linear layers, head and embedding quantized as read (model/precision/quantize.ts). Default 'none'. */
  quant?: Quant;
  /** Rows per slice of a quantized matrix (default SLICE_ROWS; tests make it small to slice a tiny vocabulary). */
  quantSliceRows?: number;
}

export interface BuiltGraph {
  /** The serialized ModelProto (graph only; weights are in externalData). */
  model: Uint8Array;
  externalData: ExternalFile[];
  inspectLayers: number[];
  /** The dtype the graph computes in. Attention outputs and logits are fp32 either way. */
  computeDtype: ComputeDtype;
  /** How the checkpoint's weights were stored in the graph, for the loader's report. */
  weightStorage: string;
  /** The weights' precision: 'none' (the checkpoint's own), or quantized. */
  quant: Quant;
  outputNames: string[];
  kvCache: boolean;
  /** Every layer's per-head figures are outputs (GraphOptions.headFigures). */
  headFigures: boolean;
  attention: 'explicit' | 'fused';
  /** Why fused attention was not used where it was asked for. */
  attentionNote: string | null;
  /** The layers [first, end) it runs. */
  layers: [number, number];
}

/**
 * Builds the decoder as an ONNX graph (batch 1, dynamic sequence length): the options checked, the layers and
 * the head by Decoder (decoder.ts), then the graph's inputs and outputs (graph-io.ts, the runtime's contract).
 */
export function buildGraph(spec: ModelSpec, weights: ModelWeights, options: GraphOptions = {}): BuiltGraph {
  const asked = options.inspectLayers ?? [spec.numLayers - 1];
  for (const l of asked) {
    if (!Number.isInteger(l) || l < 0 || l >= spec.numLayers) {
      throw new ModelError('config.json', `layer ${l} cannot be inspected: the model has layers 0..${spec.numLayers - 1}`, 'num_hidden_layers');
    }
  }
  const [first, end] = options.layers ?? [0, spec.numLayers];
  if (!(Number.isInteger(first) && Number.isInteger(end) && 0 <= first && first < end && end <= spec.numLayers)) {
    throw new RangeError(`layers [${first}, ${end}) is not a segment of layers 0..${spec.numLayers - 1}`);
  }
  const inSegment = (l: number) => l >= first && l < end;
  const isFirst = first === 0;
  const isLast = end === spec.numLayers;
  const inspect = asked.filter(inSegment);
  const dtype = options.computeDtype ?? 'fp32';
  const cache = options.kvCache === true;
  // onnxruntime's GroupQueryAttention needs head_size % 8 == 0; other models keep explicit attention.
  const fusable = spec.headDim % 8 === 0;
  const headFigures = options.headFigures === true;
  const fused = options.attention === 'fused' && fusable && !headFigures;
  const d = new Decoder(spec, {
    first,
    end,
    inspect,
    dtype,
    fused,
    kvCache: cache,
    headFigures,
    halfStorage: options.weightStorage === 'half',
    keptBf16: options.keptBf16 ?? 'bf16',
    quant: options.quant ?? 'none',
    quantSliceRows: options.quantSliceRows,
  });
  const x = d.layers(isFirst ? d.scaled(d.W.gatherRows(weights.embed, d.ids), spec.embeddingScale) : INPUT.hidden, weights); // [S,D]
  if (isLast) d.g.op('Identity', [d.logits(x, weights)], {}, LOGITS);
  else d.g.op('Identity', [x], {}, HIDDEN_OUT);
  const { inputs, outputs } = graphIo(spec, d, { first, end, inspect, cache, headFigures });
  const model = d.g.encode(inputs, outputs);
  const slidingKept = fused && spec.layers.some((l, i) => l.window !== null && !inspect.includes(i) && inSegment(i));
  return {
    model,
    externalData: d.g.externalFiles,
    inspectLayers: inspect,
    computeDtype: dtype,
    weightStorage: [...d.W.storage].join('; '),
    quant: options.quant ?? 'none',
    outputNames: outputs.map((o) => o.name),
    kvCache: cache,
    headFigures,
    attention: fused ? 'fused' : 'explicit',
    attentionNote:
      options.attention === 'fused' && !fusable
        ? `explicit attention in every layer: onnxruntime's GroupQueryAttention needs a head size divisible by 8, not ${spec.headDim}`
        : slidingKept
          ? 'sliding-window layers keep explicit attention (their window is exact there)'
          : null,
    layers: [first, end],
  };
}

type ValueInfo = { name: string; type: number; dims: (number | string)[] };

/** The graph's inputs and outputs, as graph-io.ts names them: what the runtime feeds and fetches. */
function graphIo(
  spec: ModelSpec,
  d: Decoder,
  p: { first: number; end: number; inspect: number[]; cache: boolean; headFigures: boolean },
): { inputs: ValueInfo[]; outputs: ValueInfo[] } {
  const { T } = d;
  const { first, end, cache } = p;
  const isFirst = first === 0;
  const isLast = end === spec.numLayers;
  const kvDims = (len: string) => [1, spec.numKvHeads, len, spec.headDim];
  const perLayer = (f: (l: number) => ValueInfo[]) => (cache ? Array.from({ length: end - first }, (_, i) => f(first + i)).flat() : []);
  const outputs: ValueInfo[] = [
    isLast ? { name: LOGITS, type: DT.FLOAT, dims: ['logit_rows', spec.vocabSize] } : { name: HIDDEN_OUT, type: T, dims: ['seq', spec.hiddenSize] },
    ...p.inspect.flatMap((l) => [
      { name: attnRowsName(l), type: DT.FLOAT, dims: [spec.numHeads, 'attn_rows', 'seq'] },
      { name: attnMeanName(l), type: DT.FLOAT, dims: ['mean_rows', 'seq'] },
    ]),
    ...perLayer((l) => [
      { name: presentKeyName(l), type: T, dims: kvDims('total') },
      { name: presentValueName(l), type: T, dims: kvDims('total') },
    ]),
    ...(p.headFigures
      ? Array.from({ length: end - first }, (_, i) => [
          { name: headSharesName(first + i), type: DT.FLOAT, dims: [spec.numHeads, 5] },
          { name: headDiagName(first + i), type: DT.FLOAT, dims: [spec.numHeads, 'answers'] },
          { name: headOutMeanName(first + i), type: DT.FLOAT, dims: [spec.numHeads, spec.headDim] },
        ]).flat()
      : []),
  ];
  const i64 = (name: string) => ({ name, type: DT.INT64, dims: [1] });
  const inputs: ValueInfo[] = [
    isFirst ? { name: INPUT.ids, type: DT.INT64, dims: [1, 'seq'] } : { name: INPUT.hidden, type: T, dims: ['seq', spec.hiddenSize] },
    ...d.usedRopes.flatMap((r) => [
      { name: ropeCosName(r), type: DT.FLOAT, dims: ['seq', spec.ropes[r]!.rotaryDim] },
      { name: ropeSinName(r), type: DT.FLOAT, dims: ['seq', spec.ropes[r]!.rotaryDim] },
    ]),
    ...[INPUT.attnStart, INPUT.attnEnd, INPUT.meanStart, INPUT.meanEnd, INPUT.logitStart, INPUT.logitEnd].map(i64),
    { name: INPUT.headMask, type: DT.FLOAT, dims: [spec.numLayers, spec.numHeads] },
    ...(p.headFigures
      ? [
          { name: INPUT.keyCategories, type: DT.FLOAT, dims: ['keys', 5] },
          { name: INPUT.diagBands, type: DT.FLOAT, dims: ['band_cells', 'answers'] },
          { name: INPUT.headBias, type: DT.FLOAT, dims: [spec.numLayers, spec.numHeads, spec.headDim] },
        ]
      : []),
    ...perLayer((l) => [
      { name: pastKeyName(l), type: T, dims: kvDims('past') },
      { name: pastValueName(l), type: T, dims: kvDims('past') },
    ]),
  ];
  return { inputs, outputs };
}

/** The model as consecutive segments of at most `perSegment` layers; runtime/ort-runtime.ts chains them. */
export function buildSegments(spec: ModelSpec, weights: ModelWeights, options: Omit<GraphOptions, 'layers'>, perSegment: number): BuiltGraph[] {
  const n = Math.max(1, Math.floor(perSegment));
  const out: BuiltGraph[] = [];
  for (let a = 0; a < spec.numLayers; a += n) out.push(buildGraph(spec, weights, { ...options, layers: [a, Math.min(spec.numLayers, a + n)] }));
  return out;
}

/** What a model's graph computes, whole or in segments: for reports, the CLI and the runtime. */
export interface GraphSummary
  extends Pick<
    BuiltGraph,
    'inspectLayers' | 'computeDtype' | 'weightStorage' | 'quant' | 'outputNames' | 'kvCache' | 'headFigures' | 'attention' | 'attentionNote'
  > {
  segments: number;
  /** The serialized graphs' bytes, weights not included. */
  bytes: number;
  externalFiles: number;
}

export function summarizeGraphs(graphs: BuiltGraph[]): GraphSummary {
  const last = graphs[graphs.length - 1]!;
  return {
    inspectLayers: graphs.flatMap((g) => g.inspectLayers),
    computeDtype: last.computeDtype,
    weightStorage: [...new Set(graphs.flatMap((g) => g.weightStorage.split('; ')))].join('; '),
    quant: last.quant,
    // As a whole graph lists them; the segments' hidden_out stays between segments.
    outputNames: [
      LOGITS,
      ...graphs.flatMap((g) => g.inspectLayers.flatMap((l) => [attnRowsName(l), attnMeanName(l)])),
      ...(last.kvCache ? Array.from({ length: last.layers[1] }, (_, l) => [presentKeyName(l), presentValueName(l)]).flat() : []),
    ],
    kvCache: last.kvCache,
    headFigures: last.headFigures,
    attention: last.attention,
    attentionNote: [...new Set(graphs.map((g) => g.attentionNote).filter((n): n is string => n !== null))].join('; ') || null,
    segments: graphs.length,
    bytes: graphs.reduce((s, g) => s + g.model.byteLength, 0),
    externalFiles: graphs.reduce((s, g) => s + g.externalData.length, 0),
  };
}

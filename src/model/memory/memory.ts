import type { ModelSpec } from '../config/config';
import { computeBytes } from '../precision/compute-dtype';
import { parameterCount } from '../checkpoint/weights';

/** What a graph keeps in memory per pass, as built (model/graph/graph.ts). */
export interface GraphShape {
  computeDtype: 'fp32' | 'fp16';
  attention: 'explicit' | 'fused';
  inspectLayers: number[];
  /** Bytes the weights take as the session holds them (the load plan's), when known; else parameters × the compute dtype. */
  heldBytes?: number;
  /** The largest weight tensor as held (the load plan's); else the embedding in the compute dtype. Quantized, it is far smaller. */
  largestWeight?: number;
}

export interface PassShape {
  /** New tokens in this pass. */
  tokens: number;
  /** Tokens already in the KV cache. */
  past?: number;
  /** Attention rows fetched per inspected layer (per head, when perHead). */
  attnRows: number;
  /** Head-mean rows fetched per inspected layer (default attnRows). */
  meanRows?: number;
  /** Inspected layers fetched. */
  fetchedLayers: number;
  perHead: boolean;
  logitRows: number;
}

export interface MemoryEstimate {
  weights: number;
  /** Peak of the intermediate tensors of one layer plus what stays alive across layers. */
  activations: number;
  /** The largest single tensor (WebGPU allocates each in one buffer). */
  largestTensor: number;
  total: number;
}

/**
 * A deliberately simple upper-bound model of one forward pass, in bytes. The attention scores
 * dominate: an explicit layer holds its [heads × S × T] scores three times at once (scores, masked,
 * probabilities, all fp32); onnxruntime's CPU GroupQueryAttention still materializes one copy.
 * Fetched outputs (attention rows, logits) stay alive to the end of the pass.
 */
export function estimatePass(spec: ModelSpec, g: GraphShape, p: PassShape): MemoryEstimate {
  const el = computeBytes(g.computeDtype);
  const S = p.tokens;
  const T = S + (p.past ?? 0);
  const H = spec.numHeads;
  const weights = g.heldBytes ?? parameterCount(spec) * el;
  const scores = H * S * T * 4;
  const explicitLayers = g.attention === 'explicit' ? spec.numLayers : g.inspectLayers.length;
  const perLayer = (explicitLayers > 0 ? 3 * scores : scores) + layerActivations(spec, S, el);
  const cache = 2 * spec.numLayers * spec.numKvHeads * T * spec.headDim * el;
  const fetched = p.fetchedLayers * T * 4 * ((p.perHead ? H * p.attnRows : 0) + (p.meanRows ?? p.attnRows)) + p.logitRows * spec.vocabSize * 4;
  const activations = perLayer + cache + fetched;
  const largestTensor = Math.max(scores, g.largestWeight ?? spec.vocabSize * spec.hiddenSize * el, p.logitRows * spec.vocabSize * 4);
  return { weights, activations, largestTensor, total: weights + activations };
}

/** One layer's activations besides the attention scores: the MLP's three and the residual stream's four [S × width] tensors. */
function layerActivations(spec: ModelSpec, S: number, el: number): number {
  return S * (3 * spec.intermediateSize + 4 * spec.hiddenSize) * el;
}

export interface BackendLimits {
  backend: 'webgpu' | 'wasm' | 'native';
  /** wasm: the 4 GiB of a wasm32 heap, less room for onnxruntime's own use. */
  totalBytes: number | null;
  /** The most bytes one tensor may have. WebGPU: the adapter's maxBufferSize / maxStorageBufferBindingSize. */
  maxBufferBytes: number | null;
}

/**
 * onnxruntime's wasm build sizes tensors in 32 bits: one of 2 GiB or more fails in session creation
 * ("SafeInt … Integer overflow", Phi-4-mini's 200k × 3072 embedding in fp32), so it is refused first.
 */
export const WASM_LIMITS: BackendLimits = { backend: 'wasm', totalBytes: 3.5 * 2 ** 30, maxBufferBytes: 2 ** 31 - 1 };

/** Why one tensor is too large, on this backend. */
export function tensorLimitText(limits: BackendLimits): string {
  return limits.backend === 'webgpu'
    ? 'this WebGPU adapter allows in one buffer'
    : `onnxruntime's ${limits.backend} build can hold in one tensor (its sizes are 32-bit)`;
}

const gb = (n: number) => `${(n / 2 ** 30).toFixed(2)} GiB`;

/**
 * Null when the pass fits; else a message naming what does not fit and what to do: fewer tokens
 * (the most that fit, found by bisection), WebGPU, or a smaller model.
 */
export function memoryProblem(spec: ModelSpec, g: GraphShape, p: PassShape, limits: BackendLimits): string | null {
  const fits = (q: PassShape) => {
    const e = estimatePass(spec, g, q);
    return (limits.totalBytes === null || e.total <= limits.totalBytes) && (limits.maxBufferBytes === null || e.largestTensor <= limits.maxBufferBytes);
  };
  if (fits(p)) return null;
  const e = estimatePass(spec, g, p);
  let lo = 0;
  let hi = p.tokens;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (
      fits({ ...p, tokens: mid, attnRows: Math.min(p.attnRows, mid), meanRows: Math.min(p.meanRows ?? p.attnRows, mid), logitRows: Math.min(p.logitRows, mid) })
    )
      lo = mid;
    else hi = mid;
  }
  const what =
    limits.totalBytes !== null && e.total > limits.totalBytes
      ? `about ${gb(e.total)} of memory (weights ${gb(e.weights)}, activations ${gb(e.activations)}), more than the ${gb(limits.totalBytes)} ${limits.backend} can use`
      : `one ${gb(e.largestTensor)} tensor, more than the ${gb(limits.maxBufferBytes!)} ${tensorLimitText(limits)}`;
  const tips = [
    lo > 0 ? `fewer tokens (up to about ${lo.toLocaleString('en-US')} fit)` : 'a smaller model',
    limits.backend === 'wasm' ? 'WebGPU' : null,
    'a smaller model',
  ];
  return `${(p.tokens + (p.past ?? 0)).toLocaleString('en-US')} tokens need ${what}. Try ${[...new Set(tips.filter(Boolean))].join(', or ')}.`;
}

/** The pass a WebGPU model is split for (layersPerSegment): its longest planned input and the queue budget. */
export const WEBGPU_SEGMENT_PLAN = { tokens: 4096, bytes: 2 * 2 ** 30 };

/**
 * Layers per onnxruntime session on WebGPU. Its WebGPU EP records a whole run without waiting for the
 * GPU, and a buffer stays allocated while a queued command still uses it: every layer's [heads × S × S]
 * buffers (scores, scaled, masked, softmax) are alive at once. For the 135M shape at 4,096 tokens that
 * is over 70 GB, and the software adapter's GPU process died at 15 GB. A run per segment ends when the
 * GPU has finished it (its output is read back), so only one segment's buffers are ever queued.
 */
export function layersPerSegment(spec: ModelSpec, g: Pick<GraphShape, 'attention' | 'computeDtype'>, plan = WEBGPU_SEGMENT_PLAN): number {
  const el = computeBytes(g.computeDtype);
  const S = plan.tokens;
  const scores = g.attention === 'explicit' ? 4 * spec.numHeads * S * S * 4 : 0;
  const perLayer = scores + layerActivations(spec, S, el);
  return Math.max(1, Math.min(spec.numLayers, Math.floor(plan.bytes / perLayer)));
}

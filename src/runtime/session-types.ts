/** What a session is asked and reports: its backend, a forward pass's request and result, its options. */
import type { LayerAttention } from '../metrics/slab';
import type { BackendLimits } from '../model/memory/memory';
import type { BackendPlan } from '../model/memory/load-plan';
import type { NativeDevice } from './native';
import type { Backend, probeWebGpu } from './ort-env';
import type { BuiltGraph } from '../model/graph/graph';

export interface BackendReport {
  backend: Backend;
  /** Why WebGPU was not used, when it was wanted; null when it runs on what was asked. */
  fallbackReason: string | null;
  /** Whether the WebGPU adapter offers shader-f16 (null: no adapter). */
  adapterHasF16: boolean | null;
  computeDtype: BuiltGraph['computeDtype'];
  /** Why that compute dtype: shown next to the backend. */
  dtypeReason: string;
  /** What a pass may use on this backend (model/memory/memory.ts checks every pass against it). */
  limits: BackendLimits;
  /** wasm: the CPU threads ORT runs on (1 when the page cannot share memory); null elsewhere. */
  threads: number | null;
  /** onnxruntime sessions the model runs as, one per segment of layers (1: the whole graph). */
  segments: number;
  /** native: the device it runs on (cpu, or cuda when the machine has it); null elsewhere. */
  device: NativeDevice | null;
  /** The load plan it runs on: how the weights are held and the memory they take (model/memory/load-plan.ts). */
  plan: BackendPlan | null;
}

export interface ForwardRequest {
  ids: number[];
  /** Query rows [start, end) of the attention output. Default: the last row. */
  attnRows?: [number, number];
  /** Query rows [start, end) of the head-mean output. Default: attnRows. */
  meanRows?: [number, number];
  /** Positions [start, end) whose logits are returned. Default: the last one. */
  logitRows?: [number, number];
  /** Inspected layers to fetch. Default: all the graph has. */
  layers?: number[];
  /** Fetch per-head rows ([heads, rows, seq]); the head mean is always fetched. */
  perHead?: boolean;
  /** Skip the logits (attention-only analyses). */
  skipLogits?: boolean;
  /** KV-cache graphs: keys/values of the tokens before `ids` (from an earlier result's `present`). */
  past?: KvCache;
  /** KV-cache graphs: return the keys/values of past + ids, to continue from. */
  keepCache?: boolean;
  /**
   * [layers × heads], row-major: each head's output is multiplied by its value before o_proj (1 keeps it, 0
   * switches it off: zero ablation). Default: every head on.
   */
  headMask?: Float32Array;
  /**
   * Head-figure graphs: each key's category one-hot ([keys × 5], CATEGORIES order) and each prior answer's
   * diagonal band over the attention rows ([rows × keys × answers], row-major), for every layer's per-head
   * figures (graph-io.ts). Without it such a graph's figures are zeros.
   */
  headFigures?: { categories: Float32Array; bands: Float32Array; answers: number };
  /** Head-figure graphs: [layers × heads × head_dim] added to each head's output after headMask (mean ablation). Default zeros. */
  headBias?: Float32Array;
  /** Head-figure graphs: return each head's mean output over this pass's tokens (before the mask). */
  headOutputMeans?: boolean;
}

/** Keys and values of the tokens seen so far, as the session's own tensors (opaque to callers). */
export interface KvCache {
  readonly length: number;
  readonly tensors: ReadonlyMap<string, unknown>;
}

/** One layer's per-head figures: [heads × 5] category shares, [heads × answers] diagonal per prior answer. */
export interface LayerHeadFigures {
  layer: number;
  shares: Float32Array;
  diagonal: Float32Array;
  answers: number;
}

export interface ForwardResult {
  seqLen: number;
  /** With keepCache: the cache after this pass. */
  present?: KvCache;
  logits: { data: Float32Array; rowStart: number; rows: number; vocab: number } | null;
  attention: LayerAttention[];
  /** Head-figure graphs: every layer's, when the request gave headFigures. */
  headFigures?: LayerHeadFigures[];
  /** With headOutputMeans: [layers × heads × head_dim], each head's output averaged over the pass's tokens. */
  headOutputMeans?: Float32Array;
}

export interface SessionOptions {
  /** Backends to try in order. Default: webgpu then wasm in a browser, wasm in Node. */
  prefer?: Backend[];
  /** Why the graph's compute dtype was chosen (model/precision/compute-dtype.ts), for the report. */
  dtypeReason?: string | ((backend: Backend) => string);
  /** Fallback reasons from an earlier attempt, carried into this report. */
  priorReasons?: string[];
  /** A probeWebGpu() result already made by the caller (the adapter is not requested twice). */
  webgpu?: Awaited<ReturnType<typeof probeWebGpu>>;
  /** onnxruntime's per-node profiler, for `npm run bench:ops` only (it slows every run). */
  profile?: ProfileOption;
  /** The load plan per backend (model/memory/load-plan.ts): prepacking, and the bytes the weights take, for every pass's memory check. */
  plan?: (backend: Backend) => BackendPlan | null;
  /** native: devices to try in order (default cpu). */
  nativeDevices?: NativeDevice[];
  /** The limits each backend has, when the caller worked them out already (backendLimits). */
  limits?: (backend: Backend) => BackendLimits;
}

/**
 * Where the profile goes when the session ends it (endProfiling): native writes a JSON file starting
 * with filePrefix; the wasm build prints the same events to stdout (the console in a browser).
 */
export interface ProfileOption {
  filePrefix: string;
}

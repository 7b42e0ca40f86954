import { loadCheckpoint, type Checkpoint } from '../model/checkpoint/checkpoint';
import type { ModelSpec } from '../model/config/config';
import { chooseComputeDtype, type ComputeDtypeChoice, type ComputeDtypeOption } from '../model/precision/compute-dtype';
import { buildGraph, buildSegments, type GraphOptions, type GraphSummary } from '../model/graph/graph';
import { noFitMessage, planBackend, planDtype, planPrecisions, type BackendPlan, type PrecisionFit } from '../model/memory/load-plan';
import { isQuantLevel, type Quant } from '../model/precision/quantize';
import type { FallbackTemplate } from '../model/tokenizer/chatml';
import { layersPerSegment, WASM_LIMITS, type BackendLimits } from '../model/memory/memory';
import { ModelError } from '../model/errors';
import type { ModelSource, ReadProgress } from '../model/source/source';
import { ChatTokenizer } from '../model/tokenizer/tokenizer';
import { parameterCount, resolveWeights, type ModelWeights } from '../model/checkpoint/weights';
import { nativeMemoryBytes, type NativeDevice } from './native';
import { castsBf16, defaultBackends, MemoryLimitError, ModelSession, probeWebGpu, type Backend } from './ort-runtime';

export type LoadStage = 'download' | 'build' | 'session';
export interface LoadProgress {
  stage: LoadStage;
  /** Present during download. */
  read?: ReadProgress;
}

export interface OpenModel {
  checkpoint: Checkpoint;
  weights: ModelWeights;
  /** What the session's graph computes; on WebGPU a model may run as several segments (model/memory/memory.ts). */
  graph: GraphSummary;
  session: ModelSession;
  tokenizer: ChatTokenizer;
}

export interface OpenOptions extends Omit<GraphOptions, 'computeDtype' | 'inspectLayers' | 'weightStorage' | 'quant'> {
  /** Weight precision, the person's choice (default 'none': the checkpoint's own). */
  quant?: Quant;
  /** A named template for a model with no chat template of its own (a base model); unused otherwise. */
  template?: FallbackTemplate;
  /** Layers whose attention the graph outputs (default: the final one); 'all' for a layer selector; or chosen from the config. */
  inspectLayers?: number[] | 'all' | ((spec: ModelSpec) => number[] | 'all');
  prefer?: Backend[];
  /**
   * Layers not inspected: 'fused' runs GroupQueryAttention. Default 'explicit': on wasm `npm run bench`
   * measured onnxruntime's CPU GroupQueryAttention 2–4× slower, and on Chromium's software WebGPU
   * adapter (subgroup size 4) every query row after the fourth is wrong once a pass has 32 tokens or more
   * (explicit attention is within 2e-5).
   */
  attention?: 'explicit' | 'fused';
  /** Default true: past/present key-values, so generation runs one token per step. */
  kvCache?: boolean;
  /** Default 'auto': fp16 only for half-precision weights on a WebGPU adapter with shader-f16. */
  computeDtype?: ComputeDtypeOption;
  /** native: devices to try in order (default cpu). */
  nativeDevices?: NativeDevice[];
  /** The pass the memory plan makes room for (default 1,024 tokens; each pass is checked again when it runs). */
  plannedTokens?: number;
  /**
   * 'avoid': a software WebGPU adapter (SwiftShader) counts as no WebGPU, so wasm runs (the app's 'auto';
   * it measured 18–66× slower than wasm here). Default 'use'.
   */
  softwareWebGpu?: 'use' | 'avoid';
  /** Bytes another session already holds on a backend (a page's model in use shares wasm's heap with the new one). */
  heldElsewhere?: Partial<Record<Backend, number>>;
  onProgress?: (p: LoadProgress) => void;
}

/** A model as its small files describe it, before any weight is read: what a person confirms before a download. */
export interface PreparedModel {
  checkpoint: Checkpoint;
  tokenizer: ChatTokenizer;
  prefer: Backend[];
  webgpu: Awaited<ReturnType<typeof probeWebGpu>>;
  dtype: ComputeDtypeChoice;
  /** Each preferred backend's plan at the chosen precision, in order; the first that fits is used. */
  plans: BackendPlan[];
  /** The chosen precision. */
  quant: Quant;
  /** Every precision on every backend planned: what fits where, to choose from before the download. */
  fits: PrecisionFit[];
  /** Bytes of weights still to read. */
  weightBytes: number;
  /** The limits each plan was made for (each pass is checked against them too). */
  limits: Map<Backend, BackendLimits>;
  /** Where the weights' read progress goes: startModel points it at its own onProgress (the reads happen there). */
  progress: { to: OpenOptions['onProgress'] };
}

/** The limits each backend has here. */
async function limitsFor(backend: Backend, webgpu: PreparedModel['webgpu']): Promise<BackendLimits> {
  if (backend === 'wasm') return WASM_LIMITS;
  if (backend === 'webgpu') return { backend, totalBytes: null, maxBufferBytes: typeof webgpu === 'string' ? null : webgpu.maxBufferBytes };
  return { backend, totalBytes: 0.85 * (await nativeMemoryBytes()), maxBufferBytes: null };
}

/** Reads config.json, the safetensors headers and the tokenizer, and plans the memory on each backend: no weight is read. */
export async function prepareModel(source: ModelSource, options: OpenOptions = {}): Promise<PreparedModel> {
  const progress: PreparedModel['progress'] = { to: options.onProgress };
  let stage: LoadStage = 'download';
  const checkpoint = await loadCheckpoint(source, (read) => progress.to?.({ stage, read }));
  const tokenizer = await ChatTokenizer.load(source, options.template);
  const V = checkpoint.spec.vocabSize;
  if (tokenizer.modelVocabSize > V) {
    throw new ModelError(
      'config.json',
      `vocab_size ${V.toLocaleString('en-US')} is smaller than tokenizer.json's vocabulary of ${tokenizer.modelVocabSize.toLocaleString('en-US')} tokens: the embedding has no row for the last ids`,
      'vocab_size',
    );
  }
  // Added tokens past the embedding (Gemma 3's image tokens in a text model's tokenizer): refused if they ever appear.
  if (tokenizer.vocabSize > V)
    checkpoint.spec.notes.push(
      `tokenizer.json adds ${tokenizer.vocabSize - V} special token${tokenizer.vocabSize - V === 1 ? '' : 's'} past vocab_size (${V.toLocaleString('en-US')}): a text holding one is refused`,
    );
  const prefer = options.prefer ?? defaultBackends();
  const probed = prefer.includes('webgpu') ? await probeWebGpu() : 'WebGPU was not asked for';
  const webgpu =
    typeof probed !== 'string' && probed.software && options.softwareWebGpu === 'avoid'
      ? `this WebGPU adapter is a software one (${probed.name}), slower than wasm: running on wasm (choose WebGPU to use it anyway)`
      : probed;
  const dtype = chooseComputeDtype(options.computeDtype ?? 'auto', {
    weightDtypes: checkpoint.dtypes,
    webgpu: typeof webgpu !== 'string',
    adapterHasF16: typeof webgpu === 'string' ? null : webgpu.hasF16,
  });
  const dtypes = new Map([...checkpoint.tensors].map(([n, t]) => [n, planDtype(t)]));
  const plans: BackendPlan[] = [];
  const fits: PrecisionFit[] = [];
  const quant = options.quant ?? 'none';
  const limits = new Map<Backend, BackendLimits>();
  for (const backend of prefer) {
    if (backend === 'webgpu' && typeof webgpu === 'string') continue;
    // fp16 is chosen for WebGPU only; the CPU backends compute in fp32 unless it was asked for.
    const computeDtype = backend === 'webgpu' || options.computeDtype === 'fp16' ? dtype.dtype : 'fp32';
    const own = await limitsFor(backend, webgpu);
    const other = options.heldElsewhere?.[backend] ?? 0;
    const lim = own.totalBytes !== null && other > 0 ? { ...own, totalBytes: own.totalBytes - other } : own;
    limits.set(backend, own);
    const input = { spec: checkpoint.spec, dtypes, holdsFileBytes: !checkpoint.syncReads, plannedTokens: options.plannedTokens ?? 1024, computeDtype };
    const plan = planBackend({ ...input, quant }, lim);
    fits.push(...planPrecisions(input, [lim]));
    if (plan.problem && other > 0) plan.problem += ` with the model in use still holding ${(other / 2 ** 30).toFixed(2)} GiB of it`;
    plans.push(plan);
  }
  stage = 'session'; // from here on, weights are read as onnxruntime takes them
  return {
    checkpoint,
    tokenizer,
    prefer,
    webgpu,
    dtype,
    plans,
    quant,
    fits,
    weightBytes: checkpoint.weightFiles.reduce((n, f) => n + f.size, 0),
    limits,
    progress,
  };
}

/** Builds the graph and the session on the first preferred backend whose plan fits, reading the weights as onnxruntime takes them. */
export async function startModel(prepared: PreparedModel, options: OpenOptions = {}): Promise<OpenModel> {
  const { checkpoint, tokenizer, dtype, webgpu } = prepared;
  const { spec, dtypes } = checkpoint;
  const fits = prepared.plans.filter((p) => !p.problem);
  if (!fits.length) {
    throw new MemoryLimitError(noFitMessage(spec, prepared.plans, `This model (${parameterCount(spec).toLocaleString('en-US')} parameters)`, prepared.fits));
  }
  prepared.progress.to = options.onProgress;
  const refused = [
    ...(prepared.prefer.includes('webgpu') && typeof webgpu === 'string' ? [webgpu] : []),
    ...prepared.plans.filter((p) => p.problem).map((p) => `${p.backend} does not fit (${p.problem})`),
  ];
  const planOf = (b: Backend) => fits.find((p) => p.backend === b) ?? null;
  options.onProgress?.({ stage: 'build' });
  const weights = resolveWeights(spec, checkpoint);
  const asked = typeof options.inspectLayers === 'function' ? options.inspectLayers(spec) : options.inspectLayers;
  const inspect = asked === 'all' ? Array.from({ length: spec.numLayers }, (_, l) => l) : asked;
  const missing = inspect?.find((l) => !Number.isInteger(l) || l < 0 || l >= spec.numLayers);
  if (missing !== undefined)
    throw new RangeError(
      `layer ${missing} does not exist: this model has ${spec.numLayers} layers (0..${spec.numLayers - 1}; num_hidden_layers in config.json)`,
    );
  const graphOptions = {
    ...(inspect && { inspectLayers: inspect }),
    attention: options.attention ?? 'explicit',
    kvCache: options.kvCache ?? true,
    headFigures: options.headFigures === true,
  };
  // Each backend's compute dtype is decided before anything is built: fp16 only for a WebGPU adapter
  // with shader-f16 (or when asked for), so a WebGPU failure falls back to a wasm graph built for wasm.
  const cpuDtype = options.computeDtype === 'fp16' ? dtype : chooseComputeDtype('auto', { weightDtypes: dtypes, webgpu: false, adapterHasF16: null });
  const dtypeOf = (backend: Backend) => (backend === 'webgpu' ? dtype : cpuDtype);
  // WebGPU runs the model in segments (see layersPerSegment); the CPU backends run it whole.
  const graphsFor = (backend: Backend) => {
    const storage = planOf(backend)?.storage ?? 'compute';
    const quantized = isQuantLevel(storage);
    const o = {
      ...graphOptions,
      computeDtype: dtypeOf(backend).dtype,
      weightStorage: quantized ? ('compute' as const) : storage,
      quant: quantized ? storage : ('none' as const),
      keptBf16: castsBf16(backend) ? ('bf16' as const) : ('fp16' as const),
    };
    return backend === 'webgpu' ? buildSegments(spec, weights, o, layersPerSegment(spec, o)) : [buildGraph(spec, weights, o)];
  };
  options.onProgress?.({ stage: 'session' });
  const session = await ModelSession.create(graphsFor, spec, {
    prefer: fits.map((p) => p.backend),
    dtypeReason: (b) => dtypeOf(b).reason,
    webgpu,
    priorReasons: refused,
    plan: planOf,
    nativeDevices: options.nativeDevices,
    limits: (b: Backend) => prepared.limits.get(b) ?? WASM_LIMITS,
  });
  return { checkpoint, weights, graph: session.graph, session, tokenizer };
}

/** Source → checkpoint → plan → graph → session, plus the tokenizer: the one path every model takes. */
export async function openModel(source: ModelSource, options: OpenOptions = {}): Promise<OpenModel> {
  return startModel(await prepareModel(source, options), options);
}

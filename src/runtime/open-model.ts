import { loadCheckpoint, type Checkpoint } from '../model/checkpoint';
import type { ModelSpec } from '../model/config';
import { chooseComputeDtype, type ComputeDtypeOption } from '../model/compute-dtype';
import { buildGraph, buildSegments, type BuiltGraph, type GraphOptions, type GraphSummary } from '../model/graph';
import { layersPerSegment } from '../model/memory';
import type { ModelSource, ReadProgress } from '../model/source';
import { ChatTokenizer } from '../model/tokenizer';
import { resolveWeights, type ModelWeights } from '../model/weights';
import { defaultBackends, ModelSession, probeWebGpu, type Backend } from './ort-runtime';

export type LoadStage = 'download' | 'build' | 'session';
export interface LoadProgress {
  stage: LoadStage;
  /** Present during download. */
  read?: ReadProgress;
}

export interface OpenModel {
  checkpoint: Checkpoint;
  weights: ModelWeights;
  /** What the session's graph computes; on WebGPU a model may run as several segments (model/memory.ts). */
  graph: GraphSummary;
  session: ModelSession;
  tokenizer: ChatTokenizer;
}

export interface OpenOptions extends Omit<GraphOptions, 'computeDtype' | 'inspectLayers'> {
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
  onProgress?: (p: LoadProgress) => void;
}

/** Source → checkpoint → graph → session, plus the tokenizer: the one path every model takes. */
export async function openModel(source: ModelSource, options: OpenOptions = {}): Promise<OpenModel> {
  const progress = options.onProgress;
  const onRead = (read: ReadProgress) => progress?.({ stage: 'download', read });
  const checkpoint = await loadCheckpoint(source, onRead);
  const tokenizer = await ChatTokenizer.load(source);
  progress?.({ stage: 'build' });
  const { spec, dtypes } = checkpoint;
  const weights = resolveWeights(spec, checkpoint);
  const prefer = options.prefer ?? defaultBackends();
  const option = options.computeDtype ?? 'auto';
  const gpu = prefer.includes('webgpu') ? await probeWebGpu() : 'WebGPU was not asked for';
  const choice = chooseComputeDtype(option, {
    weightDtypes: dtypes,
    webgpu: typeof gpu !== 'string',
    adapterHasF16: typeof gpu === 'string' ? null : gpu.hasF16,
  });
  const asked = typeof options.inspectLayers === 'function' ? options.inspectLayers(spec) : options.inspectLayers;
  const inspect = asked === 'all' ? Array.from({ length: spec.numLayers }, (_, l) => l) : asked;
  const graphOptions = { ...(inspect && { inspectLayers: inspect }), attention: options.attention ?? 'explicit', kvCache: options.kvCache ?? true };
  // WebGPU runs the model in segments (see layersPerSegment); the CPU backends run it whole.
  const graphsFor = (computeDtype: BuiltGraph['computeDtype']) => (backend: Backend) => {
    const options = { ...graphOptions, computeDtype };
    return backend === 'webgpu' ? buildSegments(spec, weights, options, layersPerSegment(spec, options)) : [buildGraph(spec, weights, options)];
  };
  progress?.({ stage: 'session' });
  let session = await ModelSession.create(graphsFor(choice.dtype), spec, { prefer, dtypeReason: choice.reason, webgpu: gpu });
  if (option === 'auto' && choice.dtype === 'fp16' && session.report.backend !== 'webgpu') {
    // fp16 was chosen for a WebGPU adapter that then failed: wasm runs the fp32 graph instead.
    await session.release();
    const fp32 = chooseComputeDtype('auto', { weightDtypes: dtypes, webgpu: false, adapterHasF16: null });
    const prior = session.report.fallbackReason ? [session.report.fallbackReason] : [];
    session = await ModelSession.create(graphsFor(fp32.dtype), spec, { prefer: ['wasm'], dtypeReason: fp32.reason, priorReasons: prior });
  }
  return { checkpoint, weights, graph: session.graph, session, tokenizer };
}

/**
 * The only module that imports onnxruntime-web. Node gets its wasm build; the browser gets
 * `onnxruntime-web/webgpu` (ORT's native WebGPU EP, whose bundle also carries the wasm EP) and falls back
 * to wasm when WebGPU is absent or fails. The backend actually used is always reported.
 */
import type * as Ort from 'onnxruntime-web';
import type { ModelSpec } from '../model/config/config';
import { summarizeGraphs, type BuiltGraph, type GraphSummary } from '../model/graph/graph';
import { memoryProblem, WASM_LIMITS, type BackendLimits } from '../model/memory/memory';
import {
  HIDDEN_OUT,
  INPUT,
  LOGITS,
  attnMeanName,
  attnRowsName,
  pastKeyName,
  pastValueName,
  presentKeyName,
  presentValueName,
  ropeCosName,
  ropeSinName,
} from '../model/graph/graph-io';
import { ropeTables } from '../model/graph/rope';
import { slab, type LayerAttention } from '../metrics/slab';
import { deferredExternalData, ProducerFailure } from './external-data';
import type { BackendPlan } from '../model/memory/load-plan';
import { createNativeSession, type NativeDevice } from './native';

/** 'native' is onnxruntime-node (Node only, for the bench's CPU reference); the app uses webgpu and wasm. */
export type Backend = 'webgpu' | 'wasm' | 'native';

const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** Held in a variable so the browser bundle does not pull in the default build (and its 28 MB wasm). */
const NODE_ENTRY = 'onnxruntime-web';

/**
 * onnxruntime-web's builds: 'webgpu' (WebGPU and wasm, a 27 MB wasm module) and 'wasm' (wasm only, 14 MB:
 * half the compile at start, and it has the BF16 Cast the other lacks). A page loads the one its backend
 * needs; a WebGPU failure falls back to the wasm build.
 */
type Build = 'wasm' | 'webgpu';
const ortModules = new Map<Build, Promise<typeof Ort>>();
let runtimeConfig: RuntimeConfig = {};
/** Node only: load the browser's build instead (`configureRuntime({ nodeBuild: 'webgpu' })`), so tests see its kernels. */
let nodeBuild: Build = 'wasm';

function loadOrt(wanted: Build = 'wasm'): Promise<typeof Ort> {
  const build = isNode ? nodeBuild : wanted;
  let m = ortModules.get(build);
  if (!m) {
    m = (async () => {
      const ort: typeof Ort =
        isNode && build === 'wasm'
          ? await import(/* @vite-ignore */ NODE_ENTRY)
          : build === 'webgpu'
            ? await import('onnxruntime-web/webgpu')
            : await import('onnxruntime-web/wasm');
      ort.env.wasm.numThreads ??= await wasmThreads();
      applyConfig(ort, runtimeConfig);
      return ort;
    })();
    ortModules.set(build, m);
  }
  return m;
}

function applyConfig(ort: typeof Ort, cfg: RuntimeConfig): void {
  ort.env.logLevel = 'error'; // ORT's node-placement warnings are expected (shape ops run on CPU)
  if (cfg.wasmPaths) ort.env.wasm.wasmPaths = cfg.wasmPaths;
  if (cfg.numThreads) ort.env.wasm.numThreads = cfg.numThreads;
  if (cfg.proxy !== undefined) ort.env.wasm.proxy = cfg.proxy;
}

/**
 * Threads for the wasm backend: every logical core (at most 8). ORT's own default is half the cores, which
 * on a 2-core machine is one thread, half the speed of the native runtime's two. Threads need
 * SharedArrayBuffer, so a page that is not cross-origin isolated gets one (and no warning).
 */
async function wasmThreads(): Promise<number> {
  let cores: number;
  if (isNode) cores = (await import(/* @vite-ignore */ 'node:os')).cpus().length;
  else if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated) return 1;
  else cores = navigator.hardwareConcurrency || 1;
  return Math.max(1, Math.min(8, cores));
}

export interface RuntimeConfig {
  /** Where ORT's .wasm files are served, when not where the bundler put them (our own copies, never a CDN). */
  wasmPaths?: string;
  /** Threads per pass: wasm's, and native's per operator (default: every core, at most 8 on wasm). */
  numThreads?: number;
  /** ORT's own proxy worker for wasm sessions (measured against our model worker in `npm run bench:browser`; off in the app). */
  proxy?: boolean;
  /** Node only, before the first session: 'webgpu' loads the browser's build (whose CPU kernels lack some types) instead of the plain wasm one. */
  nodeBuild?: 'wasm' | 'webgpu';
}

/** Sets ORT's wasm options (for every build, loaded or not); call before the first session (ORT reads them once). */
export async function configureRuntime(cfg: RuntimeConfig): Promise<void> {
  if (cfg.nodeBuild && !ortModules.size) nodeBuild = cfg.nodeBuild;
  runtimeConfig = { ...runtimeConfig, ...cfg };
  // The wasm build's script is loaded now (its module is compiled at the first session).
  await loadOrt('wasm');
  for (const m of ortModules.values()) applyConfig(await m, runtimeConfig);
}

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
}

/** Keys and values of the tokens seen so far, as the session's own tensors (opaque to callers). */
export interface KvCache {
  readonly length: number;
  readonly tensors: ReadonlyMap<string, unknown>;
}

export interface ForwardResult {
  seqLen: number;
  /** With keepCache: the cache after this pass. */
  present?: KvCache;
  logits: { data: Float32Array; rowStart: number; rows: number; vocab: number } | null;
  attention: LayerAttention[];
}

function clampRange(range: [number, number] | undefined, seqLen: number): [number, number] {
  const [a, b] = range ?? [seqLen - 1, seqLen];
  const start = Math.max(0, Math.min(a, seqLen));
  const end = Math.max(start, Math.min(b, seqLen));
  if (end <= start) throw new RangeError(`row range [${a}, ${b}) is empty for a sequence of ${seqLen} tokens`);
  return [start, end];
}

/** No backend could make a session; the message gives each one's reason. */
export class BackendError extends Error {
  override name = 'BackendError';
}

/** A pass refused before it runs because it would not fit in the backend's memory. */
export class MemoryLimitError extends Error {
  override name = 'MemoryLimitError';
}

/** Whether this environment offers a WebGPU adapter, and with shader-f16; a string says why not. */
export async function probeWebGpu(): Promise<{ hasF16: boolean; maxBufferBytes: number; software: boolean; name: string } | string> {
  if (isNode) return 'WebGPU is not available in Node';
  type Adapter = {
    features: Set<string>;
    limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
    info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
    isFallbackAdapter?: boolean;
  };
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(): Promise<Adapter | null> } } | undefined)?.gpu;
  if (!gpu) return 'this browser exposes no WebGPU (navigator.gpu is missing)';
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return 'no WebGPU adapter was found';
    // A software adapter (SwiftShader on a machine without a GPU) emulates the GPU on the CPU: wasm is faster.
    const info = adapter.info ?? {};
    const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
    const software = info.isFallbackAdapter === true || adapter.isFallbackAdapter === true || /swiftshader|llvmpipe|software/i.test(name);
    // A tensor lives in one storage buffer: the smaller of the two limits bounds it.
    return {
      hasF16: adapter.features.has('shader-f16'),
      maxBufferBytes: Math.min(adapter.limits.maxBufferSize, adapter.limits.maxStorageBufferBindingSize),
      software,
      name,
    };
  } catch (e) {
    return `requesting a WebGPU adapter failed: ${(e as Error).message}`;
  }
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

/**
 * Whether a backend can Cast BF16 to fp32. onnxruntime-web's WebGPU build has no BF16 Cast kernel, on
 * its WebGPU or its wasm provider ("Could not find an implementation for Cast(13)"); its wasm-only build,
 * which the page's wasm sessions use, and onnxruntime-node have one. tests/unit/browser-build.test.ts
 * pins the missing kernel.
 */
export function castsBf16(backend: Backend): boolean {
  if (backend === 'native') return true;
  return isNode ? nodeBuild === 'wasm' : backend === 'wasm';
}

export function defaultBackends(): Backend[] {
  return isNode ? ['wasm'] : ['webgpu', 'wasm'];
}

/**
 * onnxruntime-web is one wasm instance: a session created or run while another session's run is in
 * flight corrupts it ("memory access out of bounds"). Every create, run and release, of any session,
 * goes through this one queue. Never call serial() from inside a serial() task.
 */
let ortQueue: Promise<unknown> = Promise.resolve();
function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = ortQueue.then(task);
  ortQueue = run.catch(() => undefined);
  return run;
}

/** One onnxruntime session: a whole graph, or one segment of the model's layers. */
interface Part {
  session: Ort.InferenceSession;
  layers: [number, number];
  inspectLayers: number[];
}

/**
 * A built graph loaded into onnxruntime, with the backend that runs it. A model split into segments
 * (model/memory/memory.ts layersPerSegment) is one session per segment, run in order: each hands its hidden
 * state to the next, so a caller sees one forward pass either way.
 */
export class ModelSession {
  private constructor(
    private readonly ort: typeof Ort,
    private readonly parts: Part[],
    readonly spec: ModelSpec,
    readonly graph: GraphSummary,
    readonly report: BackendReport,
  ) {}

  /**
   * Creates the session(s). In the browser, WebGPU is tried first (with a one-token warm-up run, since
   * some failures only show at the first run) and wasm is used when it fails; in Node, wasm. `graph` may
   * depend on the backend (WebGPU gets a model split into segments, wasm the whole graph).
   */
  static async create(
    graph: BuiltGraph | BuiltGraph[] | ((backend: Backend) => BuiltGraph[]),
    spec: ModelSpec,
    options: SessionOptions = {},
  ): Promise<ModelSession> {
    const reasons: string[] = [...(options.priorReasons ?? [])];
    const failures: Error[] = [];
    const graphsFor = (b: Backend) => (typeof graph === 'function' ? graph(b) : Array.isArray(graph) ? graph : [graph]);
    let adapterHasF16: boolean | null = null;
    let maxBufferBytes: number | null = null;
    for (const backend of options.prefer ?? defaultBackends()) {
      if (backend === 'webgpu') {
        const found = options.webgpu ?? (await probeWebGpu());
        if (typeof found === 'string') {
          reasons.push(found);
          continue;
        }
        adapterHasF16 = found.hasF16;
        maxBufferBytes = found.maxBufferBytes;
      }
      const parts: Part[] = [];
      const produced = new ProducerFailure();
      const plan = options.plan?.(backend) ?? null;
      let device: NativeDevice | null = null;
      try {
        const graphs = graphsFor(backend);
        const ort = await loadOrt(backend === 'webgpu' ? 'webgpu' : 'wasm');
        let sessionOrt = ort;
        for (const g of graphs) {
          let session: Ort.InferenceSession;
          if (backend === 'native') {
            if (!isNode) throw new Error('the native runtime exists in Node only');
            const native = await createNativeSession(g, {
              devices: options.nativeDevices,
              prepack: plan?.prepack ?? true,
              profileFilePrefix: options.profile?.filePrefix,
              threads: runtimeConfig.numThreads,
            });
            ({ ort: sessionOrt, session, device } = native);
            reasons.push(...native.reasons);
          } else {
            const externalData = await deferredExternalData(g.externalData, produced);
            session = await serial(() =>
              ort.InferenceSession.create(g.model, {
                executionProviders: [backend],
                ...(options.profile && { enableProfiling: true }),
                ...(plan && !plan.prepack && { extra: { session: { disable_prepacking: '1' } } }),
                externalData,
              }),
            );
          }
          parts.push({ session, layers: g.layers, inspectLayers: g.inspectLayers });
        }
        const summary = summarizeGraphs(graphs);
        const report: BackendReport = {
          backend,
          fallbackReason: reasons.length ? reasons.join('; ') : null,
          adapterHasF16,
          computeDtype: summary.computeDtype,
          dtypeReason: (typeof options.dtypeReason === 'function' ? options.dtypeReason(backend) : options.dtypeReason) ?? `${summary.computeDtype}: asked for`,
          limits:
            options.limits?.(backend) ??
            (backend === 'webgpu'
              ? { backend, totalBytes: null, maxBufferBytes }
              : backend === 'native'
                ? { backend, totalBytes: null, maxBufferBytes: null }
                : WASM_LIMITS),
          threads: backend === 'wasm' ? (ort.env.wasm.numThreads ?? 1) : (runtimeConfig.numThreads ?? null),
          segments: parts.length,
          device,
          plan,
        };
        const created = new ModelSession(sessionOrt, parts, spec, summary, report);
        if (backend === 'webgpu') await created.forward({ ids: [0], layers: [] });
        return created;
      } catch (caught) {
        for (const p of parts) await serial(() => p.session.release()).catch(() => undefined);
        // A weight that could not be read or converted: its own error, not onnxruntime's copy failure.
        const e = produced.error ?? (caught as Error);
        reasons.push(`${backend} failed: ${e.message}`);
        failures.push(e);
      }
    }
    // One backend tried, failing with an error of its own kind (a memory refusal, a bad layer): that error, unwrapped.
    if (failures.length === 1 && reasons.length === 1 && failures[0]!.name !== 'Error') throw failures[0]!;
    throw new BackendError(`no backend could run the model: ${reasons.join('; ')}`);
  }

  /** One forward pass over `ids`; fetches only the outputs asked for. */
  forward(req: ForwardRequest): Promise<ForwardResult> {
    return serial(() => this.forwardNow(req));
  }

  private async forwardNow(req: ForwardRequest): Promise<ForwardResult> {
    const { ort, spec } = this;
    const S = req.ids.length;
    if (S === 0) throw new RangeError('cannot run the model on an empty token sequence');
    const bad = req.ids.find((id) => !Number.isInteger(id) || id < 0 || id >= spec.vocabSize);
    if (bad !== undefined) throw new RangeError(`token id ${bad} is outside the vocabulary (0..${spec.vocabSize - 1})`);
    const [aStart, aEnd] = clampRange(req.attnRows, S);
    const [mStart, mEnd] = req.meanRows ? clampRange(req.meanRows, S) : [aStart, aEnd];
    const [lStart, lEnd] = clampRange(req.logitRows, S);
    const P = req.past?.length ?? 0;
    if ((req.past || req.keepCache) && !this.graph.kvCache) throw new Error('this graph was built without a KV cache (buildGraph kvCache: true)');
    const layers = req.layers ?? this.graph.inspectLayers;
    for (const l of layers) {
      if (!this.graph.inspectLayers.includes(l))
        throw new RangeError(`layer ${l} is not an output of this graph (built for ${this.graph.inspectLayers.join(', ')})`);
    }
    // Refuse, with what to do instead, a pass that would exhaust the backend's memory (a crash otherwise).
    const problem = memoryProblem(
      spec,
      { ...this.graph, ...(this.report.plan && { heldBytes: this.report.plan.held, largestWeight: this.report.plan.largestTensor }) },
      {
        tokens: S,
        past: P,
        attnRows: aEnd - aStart,
        meanRows: mEnd - mStart,
        fetchedLayers: layers.length,
        perHead: req.perHead === true,
        logitRows: req.skipLogits ? 0 : lEnd - lStart,
      },
      this.report.limits,
    );
    if (problem) throw new MemoryLimitError(problem);
    const scalar = (v: number) => new ort.Tensor('int64', BigInt64Array.from([BigInt(v)]), [1]);
    const common: Record<string, Ort.Tensor> = {
      ...Object.fromEntries(
        ropeTables(spec, S, P).flatMap(({ cos, sin }, r) => {
          const dims = [S, spec.ropes[r]!.rotaryDim];
          return [
            [ropeCosName(r), new ort.Tensor('float32', Float32Array.from(cos), dims)],
            [ropeSinName(r), new ort.Tensor('float32', Float32Array.from(sin), dims)],
          ];
        }),
      ),
      [INPUT.attnStart]: scalar(aStart),
      [INPUT.attnEnd]: scalar(aEnd),
      [INPUT.meanStart]: scalar(mStart),
      [INPUT.meanEnd]: scalar(mEnd),
      [INPUT.logitStart]: scalar(lStart),
      [INPUT.logitEnd]: scalar(lEnd),
    };
    const emptyPast = () =>
      this.graph.computeDtype === 'fp16'
        ? new ort.Tensor('float16', new Uint16Array(0), [1, spec.numKvHeads, 0, spec.headDim])
        : new ort.Tensor('float32', new Float32Array(0), [1, spec.numKvHeads, 0, spec.headDim]);
    const out: Record<string, Ort.Tensor> = {};
    for (const [i, part] of this.parts.entries()) {
      const last = i === this.parts.length - 1;
      // Only the inputs this session has (a segment may use one of a model's rotary embeddings only).
      const feeds: Record<string, Ort.Tensor> = Object.fromEntries(Object.entries(common).filter(([name]) => part.session.inputNames.includes(name)));
      if (part.layers[0] === 0)
        feeds[INPUT.ids] = new ort.Tensor(
          'int64',
          BigInt64Array.from(req.ids, (id) => BigInt(id)),
          [1, S],
        );
      else feeds[INPUT.hidden] = out[HIDDEN_OUT]!; // the previous segment's
      if (this.graph.kvCache) {
        // No past: empty [1, kv, 0, head_dim] tensors, so one graph serves whole passes and decoding.
        for (let l = part.layers[0]; l < part.layers[1]; l++) {
          for (const name of [pastKeyName(l), pastValueName(l)]) feeds[name] = (req.past?.tensors.get(name) as Ort.Tensor | undefined) ?? emptyPast();
        }
      }
      const mine = layers.filter((l) => part.inspectLayers.includes(l));
      const fetches = [
        ...(last ? (req.skipLogits ? [] : [LOGITS]) : [HIDDEN_OUT]),
        ...mine.flatMap((l) => (req.perHead ? [attnRowsName(l), attnMeanName(l)] : [attnMeanName(l)])),
      ];
      if (req.keepCache) for (let l = part.layers[0]; l < part.layers[1]; l++) fetches.push(presentKeyName(l), presentValueName(l));
      if (fetches.length === 0) fetches.push(LOGITS); // ORT needs at least one output
      Object.assign(out, await part.session.run(feeds, fetches));
    }
    const data = (name: string) => {
      const t = out[name];
      if (!t) throw new Error(`the session did not return ${name}`);
      return t.data as Float32Array;
    };
    const result: ForwardResult = {
      seqLen: S,
      ...(req.keepCache && {
        present: {
          length: P + S,
          tensors: new Map(
            Array.from({ length: spec.numLayers }, (_, l) => [
              [pastKeyName(l), out[presentKeyName(l)]],
              [pastValueName(l), out[presentValueName(l)]],
            ]).flat() as [string, unknown][],
          ),
        },
      }),
      logits: req.skipLogits ? null : { data: data(LOGITS), rowStart: lStart, rows: lEnd - lStart, vocab: spec.vocabSize },
      // Rows and keys by absolute position: after a cache of P tokens, row 0 of this pass is position P.
      attention: layers.map((layer) => ({
        layer,
        perHead: req.perHead ? slab(data(attnRowsName(layer)), aEnd - aStart, P + S, P + aStart, spec.numHeads) : null,
        mean: slab(data(attnMeanName(layer)), mEnd - mStart, P + S, P + mStart),
      })),
    };
    return result;
  }

  /**
   * The first `length` tokens of a cache (a prefix another pass shares): each layer's keys and values
   * cut along the sequence axis, copied (onnxruntime tensors cannot be views).
   */
  truncateCache(cache: KvCache, length: number): KvCache {
    if (length >= cache.length) return cache;
    const { ort, spec } = this;
    const KV = spec.numKvHeads;
    const D = spec.headDim;
    const T = cache.length;
    const tensors = new Map<string, unknown>();
    for (const [name, t] of cache.tensors) {
      const tensor = t as Ort.Tensor;
      const data = tensor.data as Float32Array | Uint16Array;
      const cut = new (data.constructor as Float32ArrayConstructor | Uint16ArrayConstructor)(KV * length * D);
      for (let h = 0; h < KV; h++) cut.set(data.subarray(h * T * D, h * T * D + length * D), h * length * D);
      tensors.set(name, new ort.Tensor(tensor.type as 'float32', cut as Float32Array, [1, KV, length, D]));
    }
    return { length, tensors };
  }

  /** Ends onnxruntime's profiler (sessions created with `profile`), which writes out its events. */
  endProfiling(): Promise<void> {
    return serial(async () => {
      for (const p of this.parts) await p.session.endProfiling();
    });
  }

  async release(): Promise<void> {
    // Queued: a release during a run would corrupt that run.
    await serial(async () => {
      for (const p of this.parts) await p.session.release();
    });
  }
}

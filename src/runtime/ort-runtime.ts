/**
 * Sessions on onnxruntime-web (loaded by ort-env.ts, the only module that imports it). Node gets its wasm
 * build; the browser gets `onnxruntime-web/webgpu` (ORT's native WebGPU EP, whose bundle also carries the
 * wasm EP) and falls back to wasm when WebGPU is absent or fails. The backend actually used is always reported.
 */
import type * as Ort from 'onnxruntime-web';
import type { ModelSpec } from '../model/config/config';
import { summarizeGraphs, type BuiltGraph, type GraphSummary } from '../model/graph/graph';
import { memoryProblem, WASM_LIMITS } from '../model/memory/memory';
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
} from '../model/graph/graph-io';
import { ropeTables } from '../model/graph/rope';
import { deferredExternalData, ProducerFailure } from './external-data';
import { createNativeSession, type NativeDevice } from './native';
import { currentRuntimeConfig, defaultBackends, isNode, loadOrt, probeWebGpu, serial, type Backend } from './ort-env';

export { castsBf16, configureRuntime, defaultBackends, probeWebGpu, type Backend, type RuntimeConfig } from './ort-env';
export type { BackendReport, ForwardRequest, ForwardResult, KvCache, ProfileOption, SessionOptions } from './session-types';
import type { BackendReport, ForwardRequest, ForwardResult, KvCache, SessionOptions } from './session-types';
import { clampRange, headFigureFeeds, headMaskOf, passResult } from './pass-io';

/** No backend could make a session; the message gives each one's reason. */
export class BackendError extends Error {
  override name = 'BackendError';
}

/** A pass refused before it runs because it would not fit in the backend's memory. */
export class MemoryLimitError extends Error {
  override name = 'MemoryLimitError';
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
   * The heads switched off in every pass that does not give its own mask ([layers × heads], 0: off): an
   * ablation set once for a session (the CLI's --ablate). Set it before the first pass: passes that share a
   * prefix reuse each other's work, which is only right under one mask.
   */
  headMask: Float32Array | null = null;
  /** Head-figure graphs: added to each head's output after the mask in every pass that gives none (mean ablation, the CLI's). */
  headBias: Float32Array | null = null;

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
              threads: currentRuntimeConfig().numThreads,
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
          threads: backend === 'wasm' ? (ort.env.wasm.numThreads ?? 1) : (currentRuntimeConfig().numThreads ?? null),
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
      [INPUT.headMask]: new ort.Tensor('float32', headMaskOf({ ...req, headMask: req.headMask ?? this.headMask ?? undefined }, spec), [
        spec.numLayers,
        spec.numHeads,
      ]),
      ...(this.graph.headFigures && headFigureFeeds(ort, { ...req, headBias: req.headBias ?? this.headBias ?? undefined }, spec, P + S, aEnd - aStart)),
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
      if (req.headFigures && this.graph.headFigures) for (let l = part.layers[0]; l < part.layers[1]; l++) fetches.push(headSharesName(l), headDiagName(l));
      if (req.headOutputMeans && this.graph.headFigures) for (let l = part.layers[0]; l < part.layers[1]; l++) fetches.push(headOutMeanName(l));
      if (fetches.length === 0) fetches.push(LOGITS); // ORT needs at least one output
      Object.assign(out, await part.session.run(feeds, fetches));
    }
    return passResult(out, req, spec, { S, P, layers, attn: [aStart, aEnd], mean: [mStart, mEnd], logits: [lStart, lEnd] });
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

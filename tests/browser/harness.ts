/**
 * Browser test harness: loads a model from a Hub-style URL with the app's own modules and runs one
 * forward pass on the backend asked for. The Node side compares the numbers with the float64 reference.
 */
import { hubSource, resolveHubRepo } from '../../src/model/source/hub-source';
import { configureRuntime, type Backend } from '../../src/runtime/ort-runtime';
import { openModel } from '../../src/runtime/open-model';
import { benchIds, inspectionPass, medianMs } from '../helpers/bench-shapes';
import { analyzePolicy } from '../../src/analysis/analyze';
import { parseConversation } from '../../src/conversation/parse';
import { DEMO_MODEL_FILES, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../../src/model/demo';
import { folderUrlSource } from '../../src/model/source/source';
import type { Quant } from '../../src/model/precision/quantize';

export interface HarnessResult {
  backend: Backend;
  fallbackReason: string | null;
  adapterHasF16: boolean | null;
  dtypeReason: string;
  logits: number[];
  perHead: number[];
  mean: number[];
  ms: number;
  attention: 'explicit' | 'fused';
  /** onnxruntime sessions the model ran as (WebGPU splits it into segments of layers). */
  segments: number;
  /** Logits of the last `decodeSteps` positions, computed one token at a time from the KV cache. */
  decodeLogits: number[];
  decodeSteps: number;
}

async function run(base: string, repo: string, prefer: Backend[], ids: number[], quant: Quant = 'none'): Promise<HarnessResult> {
  const m = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer, quant });
  const t0 = performance.now();
  const out = await m.session.forward({ ids, attnRows: [0, ids.length], logitRows: [0, ids.length], perHead: true });
  const ms = performance.now() - t0;
  const steps = 5;
  let step = await m.session.forward({ ids: ids.slice(0, ids.length - steps), layers: [], keepCache: true });
  const decodeLogits: number[] = [];
  for (let t = ids.length - steps; t < ids.length; t++) {
    step = await m.session.forward({ ids: [ids[t]!], layers: [], keepCache: true, past: step.present! });
    decodeLogits.push(...step.logits!.data);
  }
  await m.session.release();
  const att = out.attention[0]!;
  const r = m.session.report;
  return {
    backend: r.backend,
    fallbackReason: r.fallbackReason,
    adapterHasF16: r.adapterHasF16,
    dtypeReason: r.dtypeReason,
    logits: Array.from(out.logits!.data),
    perHead: Array.from(att.perHead!.data),
    mean: Array.from(att.mean.data),
    ms,
    attention: m.graph.attention,
    segments: r.segments,
    decodeLogits,
    decodeSteps: steps,
  };
}

// ?proxy: onnxruntime-web's own proxy worker runs the wasm sessions (the bench compares it with our model worker).
await configureRuntime({ proxy: new URLSearchParams(location.search).has('proxy') });
(window as unknown as { harness: { run: typeof run } }).harness = { run };
document.getElementById('status')!.textContent = 'ready';

/** For `npm run bench:browser`: median ms of an inspection pass and of a plain forward per length. */
async function bench(
  base: string,
  repo: string,
  prefer: Backend[],
  lengths: number[],
  repeats: number,
  plainToo = true,
): Promise<{ backend: Backend; threads: number | null; segments: number; rows: { tokens: number; inspect: number; plain: number | null }[] }> {
  const m = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer });
  const V = m.checkpoint.spec.vocabSize;
  // repeats 0: one cold run, no warm-up (shader compilation included), for runs too slow to repeat.
  const once = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    await f();
    return performance.now() - t0;
  };
  const time = (f: () => Promise<unknown>) => (repeats === 0 ? once(f) : medianMs(f, repeats));
  const rows = [];
  for (const n of lengths) {
    const ids = benchIds(n, V);
    const inspect = await time(() => m.session.forward(inspectionPass(ids)));
    const plain = plainToo ? await time(() => m.session.forward({ ids, layers: [] })) : null;
    rows.push({ tokens: n, inspect, plain });
  }
  const { backend, threads, segments } = m.session.report;
  await m.session.release();
  return { backend, threads, segments, rows };
}
(window as unknown as { harness: { bench: typeof bench } }).harness.bench = bench;

/** For `npm run rehearse`: load a model and run a 16-token pass (the load's peak), keeping it for rehearseAnalyze. */
let rehearsed: Awaited<ReturnType<typeof openModel>> | null = null;
async function rehearseLoad(
  base: string,
  repo: string,
  prefer: Backend[],
  quant: Quant = 'none',
): Promise<{ backend: Backend | null; loadMs: number; error: string | null }> {
  const t0 = performance.now();
  try {
    rehearsed = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer, quant });
    await rehearsed.session.forward({ ids: Array.from({ length: 16 }, (_, i) => i + 10), layers: [] });
    return { backend: rehearsed.session.report.backend, loadMs: performance.now() - t0, error: null };
  } catch (e) {
    return { backend: null, loadMs: performance.now() - t0, error: (e as Error).message };
  }
}
/** One conversation's last answer scored under Full, as `analyze` does, on the model rehearseLoad loaded. */
async function rehearseAnalyze(conversationText: string): Promise<{ tokens: number; ms: number; diagonal: number; error: string | null }> {
  const t0 = performance.now();
  try {
    const r = await analyzePolicy(rehearsed!, parseConversation(conversationText).conversation!, 'full');
    return { tokens: r.tokens.length, ms: performance.now() - t0, diagonal: r.diagonal, error: null };
  } catch (e) {
    return { tokens: 0, ms: performance.now() - t0, diagonal: NaN, error: (e as Error).message };
  }
}
Object.assign((window as unknown as { harness: object }).harness, { rehearseLoad, rehearseAnalyze });

/** Main-thread tasks over 50 ms (Long Tasks API), from the observer the bench installs before the page loads. */
const longTasks = () => (window as unknown as { __longTasks?: { start: number; ms: number }[] }).__longTasks ?? [];

/**
 * For `npm run bench:browser`: the app's work done on this page's thread (load, then one answer scored
 * under Full), with wasm's sessions on the page or in ORT's proxy worker; the longest main-thread task
 * of each phase.
 */
async function pageThreadProbe(
  base: string,
  repo: string,
  conversationText: string,
): Promise<{
  loadMs: number;
  analyzeMs: number;
  tokens: number;
  longestLoadTask: number;
  longestAnalyzeTask: number;
  tasksOver50: number;
  error: string | null;
}> {
  const t0 = performance.now();
  const worst = (from: number) =>
    Math.max(
      0,
      ...longTasks()
        .filter((t) => t.start >= from)
        .map((t) => t.ms),
    );
  try {
    const m = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer: ['wasm'] });
    const t1 = performance.now();
    const longestLoadTask = worst(t0);
    const r = await analyzePolicy(m, parseConversation(conversationText).conversation!, 'full');
    const t2 = performance.now();
    await m.session.release();
    return {
      loadMs: t1 - t0,
      analyzeMs: t2 - t1,
      tokens: r.tokens.length,
      longestLoadTask,
      longestAnalyzeTask: worst(t1),
      tasksOver50: longTasks().filter((t) => t.start >= t1).length,
      error: null,
    };
  } catch (e) {
    return {
      loadMs: performance.now() - t0,
      analyzeMs: 0,
      tokens: 0,
      longestLoadTask: worst(t0),
      longestAnalyzeTask: 0,
      tasksOver50: 0,
      error: (e as Error).message,
    };
  }
}

/**
 * For `npm run bench:browser`: one policy's own forward pass on the demo model (what the app's analysis
 * runs: the answer's rows of every layer, per head), median of 3 after a warm-up, for the ratios the
 * inspector's timings are read against.
 */
let demo: Awaited<ReturnType<typeof openModel>> | null = null;
async function policyPassMs(conversationText: string, policy: string): Promise<{ tokens: number; ms: number }> {
  demo ??= await openModel(folderUrlSource(`${location.origin}/${DEMO_MODEL_PATH}`, DEMO_MODEL_FILES, DEMO_MODEL_LABEL), {
    prefer: ['wasm'],
    inspectLayers: 'all',
  });
  const r = await analyzePolicy(demo, parseConversation(conversationText).conversation!, policy);
  const ids = r.tokens.map((t) => t.id);
  const layers = Array.from({ length: demo.checkpoint.spec.numLayers }, (_, l) => l);
  const pass = () => demo!.session.forward({ ids, attnRows: [r.query.start, r.query.end], layers, perHead: true, skipLogits: true });
  return { tokens: ids.length, ms: await medianMs(pass, 3) };
}
Object.assign((window as unknown as { harness: object }).harness, { pageThreadProbe, policyPassMs });

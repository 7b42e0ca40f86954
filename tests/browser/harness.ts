/**
 * Browser test harness: loads a model from a Hub-style URL with the app's own modules and runs one
 * forward pass on the backend asked for. The Node side compares the numbers with the float64 reference.
 */
import { hubSource, resolveHubRepo } from '../../src/model/hub-source';
import { configureRuntime, type Backend } from '../../src/runtime/ort-runtime';
import { openModel } from '../../src/runtime/open-model';
import { benchIds, inspectionPass, medianMs } from '../../scripts/bench-shared';
import { analyzePolicy } from '../../src/analysis/analyze';
import { parseConversation } from '../../src/conversation/parse';

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

async function run(base: string, repo: string, prefer: Backend[], ids: number[]): Promise<HarnessResult> {
  const m = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer });
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
    backend: r.backend, fallbackReason: r.fallbackReason, adapterHasF16: r.adapterHasF16, dtypeReason: r.dtypeReason,
    logits: Array.from(out.logits!.data), perHead: Array.from(att.perHead!), mean: Array.from(att.mean), ms,
    attention: m.graph.attention, segments: r.segments, decodeLogits, decodeSteps: steps,
  };
}

await configureRuntime({});
(window as unknown as { harness: { run: typeof run } }).harness = { run };
document.getElementById('status')!.textContent = 'ready';

/** For `npm run bench:browser`: median ms of an inspection pass and of a plain forward per length. */
async function bench(base: string, repo: string, prefer: Backend[], lengths: number[], repeats: number, plainToo = true): Promise<{ backend: Backend; threads: number | null; segments: number; rows: { tokens: number; inspect: number; plain: number | null }[] }> {
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
async function rehearseLoad(base: string, repo: string, prefer: Backend[]): Promise<{ backend: Backend | null; loadMs: number; error: string | null }> {
  const t0 = performance.now();
  try {
    rehearsed = await openModel(hubSource(await resolveHubRepo({ repo, revision: 'main', hubUrl: base })), { prefer });
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

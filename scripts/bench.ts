/**
 * `npm run bench`: inspection passes and generation on Node wasm, for random-weight models it builds
 * itself (demo-sized and SmolLM2-135M-shaped), graph as before (every layer explicit) and now (layers
 * not inspected fused). Each case runs in its own process, so its peak memory is its own. Prints a
 * table and ratios (this machine is shared: read the ratios), writes docs/bench/latest.json and
 * docs/bench/README.md. Never pass/fail on time.
 *   BENCH_TOKENS=512,2048   lengths (default 512,2048,4096; the fused graph above 2,048 only with BENCH_FUSED=all,
 *                           never with BENCH_FUSED=none: earlier fused rows then stay as they were)
 *   BENCH_MODELS=demo       models (demo, 135m)
 *   BENCH_RUNTIMES=native   wasm (onnxruntime-web), native (onnxruntime-node, the CPU reference)
 *   BENCH_KINDS=generate    inspect, generate (a partial run replaces its own rows of docs/bench/latest.json)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadCheckpoint } from '../src/model/checkpoint/checkpoint';
import { buildGraph } from '../src/model/graph/graph';
import { resolveWeights } from '../src/model/checkpoint/weights';
import { ModelSession } from '../src/runtime/ort-runtime';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles } from '../tests/helpers/tiny-model';
import { BENCH_MODELS, benchIds, inspectionPass, medianMs } from '../tests/helpers/bench-shapes';
import { benchPlotSvg } from './bench-plot';

interface Case {
  kind: 'inspect' | 'generate';
  /** wasm: onnxruntime-web in Node; native: onnxruntime-node, the machine's CPU reference. */
  runtime: 'wasm' | 'native';
  model: string;
  graph: 'explicit' | 'fused';
  tokens: number;
}

interface Result extends Case {
  /** inspect: ms per inspection pass and per plain forward; generate: ms per new token with and without the cache. */
  a: number | null;
  b: number | null;
  peakMiB: number;
  /** wasm: ORT's thread count (before issue 6's follow-up it ran on ORT's default, half the cores). */
  threads?: number | null;
  error: string | null;
}

/** One case, in this process (the child). */
async function runCase(c: Case): Promise<Result> {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(BENCH_MODELS[c.model]!)));
  const { spec } = ckpt;
  const graph = buildGraph(spec, resolveWeights(spec, ckpt), { attention: c.graph, kvCache: true });
  const session = await ModelSession.create(graph, spec, { prefer: [c.runtime] });
  const V = spec.vocabSize;
  const ids = benchIds(c.tokens, V);
  const repeats = c.tokens >= 2048 ? 1 : c.model === 'demo' ? 5 : 3;
  let a: number | null = null;
  let b: number | null = null;
  let error: string | null = null;
  try {
    if (c.kind === 'inspect') {
      // Plain forward: the last position's logits only.
      a = await medianMs(() => session.forward(inspectionPass(ids)), repeats);
      b = await medianMs(() => session.forward({ ids, layers: [] }), repeats);
    } else {
      // Per new token at this context: one cached step, versus one whole forward over context + 1 tokens.
      const n = 8;
      let step = await session.forward({ ids, layers: [], keepCache: true });
      const t0 = performance.now();
      for (let i = 0; i < n; i++) step = await session.forward({ ids: [ids[i]!], layers: [], keepCache: true, past: step.present! });
      a = (performance.now() - t0) / n;
      b = await medianMs(() => session.forward({ ids: [...ids, ids[0]!], layers: [] }), c.model === 'demo' ? 3 : 1);
    }
  } catch (e) {
    error = (e as Error).message.split('\n')[0]!.slice(0, 200);
  }
  await session.release();
  return { ...c, a, b, peakMiB: Math.round(process.resourceUsage().maxRSS / 1024), threads: session.report.threads, error };
}

if (process.argv[2] === '--case') {
  process.stdout.write(`${JSON.stringify(await runCase(JSON.parse(process.argv[3]!) as Case))}\n`);
  process.exit(0);
}

const tokens = (process.env.BENCH_TOKENS ?? '512,2048,4096').split(',').map(Number);
const kinds = (process.env.BENCH_KINDS ?? 'inspect,generate').split(',');
const runtimes = (process.env.BENCH_RUNTIMES ?? 'wasm,native').split(',');
const models = (process.env.BENCH_MODELS ?? 'demo,135m').split(',');
const cases: Case[] = [];
for (const model of models) {
  for (const t of tokens) {
    if (!kinds.includes('inspect')) break;
    // The fused graph is 2–4× slower on wasm: above 2,048 tokens only with BENCH_FUSED=all.
    const fusedToo = process.env.BENCH_FUSED === 'all' || (t <= 2048 && process.env.BENCH_FUSED !== 'none');
    const graphs = fusedToo ? (['explicit', 'fused'] as const) : (['explicit'] as const);
    if (runtimes.includes('wasm')) for (const graph of graphs) cases.push({ kind: 'inspect', runtime: 'wasm', model, graph, tokens: t });
    if (runtimes.includes('native')) cases.push({ kind: 'inspect', runtime: 'native', model, graph: 'explicit', tokens: t });
  }
  if (kinds.includes('generate') && runtimes.includes('wasm')) cases.push({ kind: 'generate', runtime: 'wasm', model, graph: 'explicit', tokens: 1024 });
}

// A partial run (BENCH_KINDS, BENCH_MODELS, BENCH_TOKENS) replaces its own rows of the last results.
const same = (x: Case, y: Case) =>
  x.kind === y.kind && (x.runtime ?? 'wasm') === (y.runtime ?? 'wasm') && x.model === y.model && x.graph === y.graph && x.tokens === y.tokens;
const earlier: Result[] = existsSync('docs/bench/latest.json')
  ? (JSON.parse(readFileSync('docs/bench/latest.json', 'utf8')) as { results: Result[] }).results
  : [];
const results: Result[] = earlier.map((r) => ({ ...r, runtime: r.runtime ?? 'wasm' })).filter((r) => !cases.some((c) => same(c, r)));
for (const c of cases) {
  process.stderr.write(`${c.kind} ${c.runtime} ${c.model} ${c.graph} ${c.tokens} … `);
  let r: Result;
  try {
    const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--case', JSON.stringify(c)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 1 << 20,
    });
    r = JSON.parse(out.trim().split('\n').pop()!) as Result;
  } catch (e) {
    // The process itself died (out of memory in wasm, for one): that is the result.
    r = { ...c, a: null, b: null, peakMiB: 0, error: `process failed: ${String((e as { status?: number }).status ?? (e as Error).message).slice(0, 120)}` };
  }
  results.push(r);
  process.stderr.write(r.error ? `${r.error}\n` : `${r.a!.toFixed(0)} / ${r.b!.toFixed(0)} ms\n`);
}

const order = (r: Case) => `${r.kind}|${r.model === 'demo' ? 0 : 1}|${String(r.tokens).padStart(6)}|${r.runtime === 'native' ? 1 : 0}|${r.graph}`;
results.sort((x, y) => order(x).localeCompare(order(y)));
const f0 = (v: number | null) => (v === null ? '—' : v.toFixed(0));
const threadsOf = (r: Result) => (r.runtime === 'native' ? 'ORT default' : r.threads == null ? '1 (ORT default)' : String(r.threads));
const ratio = (x: number | null, y: number | null) => (x === null || y === null ? '—' : `${(x / y).toFixed(2)}×`);
const lines = [
  '| model | tokens | runtime | threads | graph | inspection pass (ms) | plain forward (ms) | inspection ÷ plain | peak RSS (MiB) | note |',
  '| --- | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |',
  ...results
    .filter((r) => r.kind === 'inspect')
    .map(
      (r) =>
        `| ${r.model} | ${r.tokens} | ${r.runtime} | ${threadsOf(r)} | ${r.graph} | ${f0(r.a)} | ${f0(r.b)} | ${ratio(r.a, r.b)} | ${r.peakMiB || '—'} | ${r.error ?? ''} |`,
    ),
  '',
  '| model | context | graph | ms per new token, KV cache | ms per new token, forward re-run | speed-up | peak RSS (MiB) |',
  '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
  ...results
    .filter((r) => r.kind === 'generate')
    .map((r) => `| ${r.model} | ${r.tokens} | ${r.graph} | ${r.a === null ? '—' : r.a.toFixed(1)} | ${f0(r.b)} | ${ratio(r.b, r.a)} | ${r.peakMiB || '—'} |`),
];
const lengths = [...new Set(results.filter((r) => r.kind === 'inspect').map((r) => r.tokens))];
const speedups = [...new Set(results.map((r) => r.model))].flatMap((m) =>
  lengths.map((t) => {
    const find = (runtime: string, graph: string) =>
      results.find((r) => r.kind === 'inspect' && r.runtime === runtime && r.model === m && r.tokens === t && r.graph === graph);
    const ex = find('wasm', 'explicit');
    const fu = find('wasm', 'fused');
    const nat = find('native', 'explicit');
    // Rows from runs on different thread counts are not compared.
    const fused = ex && fu && (ex.threads ?? 1) !== (fu.threads ?? 1) ? '— (rows of different thread counts)' : ratio(ex?.a ?? null, fu?.a ?? null);
    return `${m} @ ${t} tokens: wasm ÷ native = ${ratio(ex?.a ?? null, nat?.a ?? null)} (inspection pass), ${ratio(ex?.b ?? null, nat?.b ?? null)} (plain forward); explicit ÷ fused (wasm) = ${fused} (above 1× fused is faster)`;
  }),
);
console.log(`\n${lines.join('\n')}\n\n${speedups.join('\n')}`);

mkdirSync('docs/bench', { recursive: true });
const when = new Date().toISOString();
writeFileSync(
  'docs/bench/latest.json',
  `${JSON.stringify({ when, node: process.version, runtimes: 'onnxruntime-web 1.30 wasm and onnxruntime-node 1.30 (CPU) in Node', results }, null, 2)}\n`,
);
const plotted = results
  .filter((r) => r.kind === 'inspect' && r.a !== null)
  .map((r) => ({ series: `${r.model} ${r.runtime} ${r.graph}`, tokens: r.tokens, ms: r.a! }));
writeFileSync('docs/bench/plot.svg', benchPlotSvg(plotted, `Inspection pass, Node (${when.slice(0, 10)}, 2-core machine)`));
writeFileSync(
  'docs/bench/README.md',
  `# Benchmarks\n\nLatest \`npm run bench\` (${when}, Node ${process.version}, onnxruntime-web 1.30 wasm and onnxruntime-node 1.30 native CPU, this 2-core machine: read the ratios).\nEach case runs in its own process; "peak RSS" is that process's maximum resident memory.\n"explicit": every layer MatMul→Softmax→MatMul (the graph before issue 6); "fused": layers not inspected run GroupQueryAttention.\n\n![ms per inspection pass against tokens, per model, runtime and graph](plot.svg)\n\n${lines.join('\n')}\n\n${speedups.map((s) => `- ${s}`).join('\n')}\n\nRaw numbers: [latest.json](latest.json). Where the wasm time goes, per operator: [ops.md](ops.md). Chromium (WebGPU on the software adapter, and wasm): [browser.md](browser.md).\n`,
);
console.log('\nwrote docs/bench/latest.json, docs/bench/plot.svg and docs/bench/README.md');

/**
 * `npm run bench:browser`: the browser half of the bench, in headless Chromium. WebGPU here is the
 * SwiftShader software adapter (a CPU emulation): read its ratios, not its times.
 *  - forward: random-weight models on WebGPU and wasm, inspection pass (and plain forward) per length;
 *  - inspector: the app driven as a person would, each step as a ratio to its own forward pass, and the
 *    page's longest task while a 135M-shaped model runs (scripts/bench-inspector.ts);
 *  - memory: a BF16 SmolLM2-135M loaded by the app and by the page's thread (scripts/bench-app-memory.ts).
 * Writes docs/bench/browser.json and docs/bench/browser.md. Never pass/fail on time.
 *   BENCH_CASES=demo-webgpu,demo-wasm,135m-wasm,135m-2l-webgpu,inspector,memory   (default: these; a partial
 *   run replaces only its own rows of docs/bench/browser.json). 135m-webgpu (all 30 layers at 4,096
 *   tokens, one cold run, about an hour on the software adapter) runs only when named.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { startAppServer } from '../tests/helpers/app-server';
import { launchChromium } from '../tests/helpers/chromium';
import { watchProcesses } from '../tests/helpers/process-memory';
import { tinyModelFiles } from '../tests/helpers/tiny-model';
import { BENCH_MODELS } from '../tests/helpers/bench-shapes';
import { timeInspector, type InspectorStep } from './bench-inspector';
import { measureMemory, MEMORY_MODEL, memoryModel, type MemoryRow } from './bench-app-memory';

interface ForwardCase {
  name: string;
  model: string;
  backend: 'webgpu' | 'wasm';
  lengths: number[];
  repeats: number;
  plain: boolean;
}
const FORWARD: ForwardCase[] = [
  { name: 'demo-webgpu', model: 'demo', backend: 'webgpu', lengths: [512, 2048], repeats: 3, plain: true },
  { name: 'demo-wasm', model: 'demo', backend: 'wasm', lengths: [512, 2048], repeats: 3, plain: true },
  { name: '135m-wasm', model: '135m', backend: 'wasm', lengths: [512, 2048], repeats: 1, plain: true },
  // 2 layers of the 135M shape have every tensor's size (the 1 GiB buffer limit is per tensor).
  { name: '135m-2l-webgpu', model: '135m-2l', backend: 'webgpu', lengths: [4096], repeats: 1, plain: false },
  // All 30 layers: one cold run (about an hour of CPU on the software adapter), so only when asked for.
  { name: '135m-webgpu', model: '135m', backend: 'webgpu', lengths: [4096], repeats: 0, plain: false },
];
const OPT_IN = ['135m-webgpu'];
const wanted = (process.env.BENCH_CASES ?? [...FORWARD.map((c) => c.name).filter((n) => !OPT_IN.includes(n)), 'inspector', 'memory'].join(',')).split(',');

type Row = { tokens: number; inspect: number | null; plain: number | null; error?: string };
type Out = { case: string; model: string; backend: string; threads: number | null; segments?: number | null; gpuPeakMiB?: number | null; rows: Row[] };
// A partial run (BENCH_CASES) replaces only its own parts of the last results.
const earlier: { forward?: Out[]; inspector?: InspectorStep[]; memory?: MemoryRow[] } = existsSync('docs/bench/browser.json')
  ? JSON.parse(readFileSync('docs/bench/browser.json', 'utf8'))
  : {};
const forward: Out[] = [];
let inspector: InspectorStep[] = [];

const cases = FORWARD.filter((c) => wanted.includes(c.name));
// The inspector's bench loads the 135M shape in the app as well.
const repos = Object.fromEntries(
  [...new Set([...cases.map((c) => c.model), ...(wanted.includes('inspector') ? ['135m'] : [])])].map((m) => [`bench/${m}`, tinyModelFiles(BENCH_MODELS[m]!)]),
);
const mem = wanted.includes('memory') ? memoryModel(repos) : null;
const app = await startAppServer(repos);
let memory: MemoryRow[] = [];
const browser = await launchChromium();
try {
  for (const c of cases) {
    const page = await browser.newPage();
    await page.goto(`${app.url}/tests/browser/harness.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    let out: Out;
    const gpu = watchProcesses('--type=gpu-process');
    try {
      const r = (await page.evaluate(
        ([h, repo, p, l, n, plain]) => (window as unknown as { harness: { bench: Function } }).harness.bench(h, repo, p, l, n, plain),
        [app.hub, `bench/${c.model}`, [c.backend], c.lengths, c.repeats, c.plain] as const,
      )) as Omit<Out, 'case' | 'model'>;
      out = { case: c.name, model: c.model, ...r };
    } catch (e) {
      // onnxruntime's messages start with its source path: keep what follows it.
      const msg = (e as Error).message.split('\n')[0]!.replace(/\/\S+\/onnxruntime\/\S+ /, '');
      out = {
        case: c.name,
        model: c.model,
        backend: c.backend,
        threads: null,
        rows: c.lengths.map((tokens) => ({ tokens, inspect: null, plain: null, error: msg.slice(0, 300) })),
      };
    }
    const gpuPeak = gpu.stop();
    out.gpuPeakMiB = c.backend === 'webgpu' ? gpuPeak : null;
    forward.push(out);
    process.stderr.write(`${c.name}: ${JSON.stringify(out.rows)}\n`);
    await page.close();
  }
  if (wanted.includes('inspector')) inspector = await timeInspector(browser, app.url, app.hub, repos['bench/135m']!);
  if (mem) memory = await measureMemory(app.url, app.hub, mem.dir, mem.params);
} finally {
  await browser.close();
  await app.server.close();
}

forward.unshift(...(earlier.forward ?? []).filter((o) => !forward.some((n) => n.case === o.case)));
forward.sort((x, y) => FORWARD.findIndex((c) => c.name === x.case) - FORWARD.findIndex((c) => c.name === y.case));
if (!wanted.includes('inspector')) inspector = earlier.inspector ?? [];
if (!mem) memory = earlier.memory ?? [];
mem?.cleanup();
const memLines = memory.length
  ? [
      `SmolLM2-135M's config, whole (${MEMORY_MODEL.replace('--', '/')}, random BF16 weights), on wasm: the renderer processes' peak RSS added by the load.`,
      '',
      '| how | peak MiB | bytes per parameter | load ms | error |',
      '| --- | ---: | ---: | ---: | --- |',
      ...memory.map((m) => `| ${m.how} | ${m.peakMiB ?? ''} | ${m.bytesPerParam ?? ''} | ${m.loadMs.toLocaleString('en-US')} | ${m.error ?? ''} |`),
    ]
  : [];
const f0 = (v: number | null) => (v === null ? '—' : v.toFixed(0));
const ratio = (x: number | null | undefined, y: number | null | undefined) => (x == null || y == null ? '—' : `${(x / y).toFixed(2)}×`);
const lines = [
  '| model | backend | threads | sessions | tokens | inspection pass (ms) | plain forward (ms) | inspection ÷ plain | GPU-process peak RSS (MiB) | note |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
];
const cold = (o: Out) => (FORWARD.find((c) => c.name === o.case)?.repeats === 0 ? 'one cold run, no warm-up' : '');
for (const o of forward)
  for (const r of o.rows)
    lines.push(
      `| ${o.model} | ${o.backend} | ${o.threads ?? '—'} | ${o.segments ?? '—'} | ${r.tokens} | ${f0(r.inspect)} | ${f0(r.plain)} | ${ratio(r.inspect, r.plain)} | ${o.gpuPeakMiB ?? '—'} | ${r.error ?? cold(o)} |`,
    );
// Ratios: WebGPU ÷ wasm per model and length; Chromium wasm ÷ Node native (docs/bench/latest.json, the CPU reference).
const notes: string[] = [];
const row = (model: string, backend: string, tokens: number) =>
  forward.find((o) => o.model === model && o.backend === backend)?.rows.find((r) => r.tokens === tokens);
let node: { model: string; runtime: string; kind: string; graph: string; tokens: number; a: number | null }[] = [];
try {
  node = (JSON.parse(readFileSync('docs/bench/latest.json', 'utf8')) as { results: typeof node }).results;
} catch {
  /* no Node bench yet */
}
for (const o of forward) {
  for (const r of o.rows) {
    const other = row(o.model, 'wasm', r.tokens);
    if (o.backend === 'webgpu' && other) notes.push(`${o.model} @ ${r.tokens}: WebGPU (software) ÷ wasm = ${ratio(r.inspect, other.inspect)}`);
    const native = node.find((n) => n.kind === 'inspect' && n.runtime === 'native' && n.model === o.model && n.tokens === r.tokens);
    if (o.backend === 'wasm' && native) notes.push(`${o.model} @ ${r.tokens}: Chromium wasm ÷ Node native = ${ratio(r.inspect, native.a)}`);
  }
}
const num = (x: number | null | undefined) => (x === null || x === undefined ? '' : Math.round(x).toLocaleString('en-US'));
const insp = inspector.length
  ? [
      '| step (demo model unless named; wasm; Chromium) | ms | ÷ forward | = ratio | target | before | note |',
      '| --- | ---: | ---: | ---: | --- | --- | --- |',
      ...inspector.map((s) => `| ${s.step} | ${num(s.ms)} | ${num(s.againstMs)} | ${s.ratio ?? ''} | ${s.target ?? ''} | ${s.before ?? ''} | ${s.note} |`),
    ]
  : [];
console.log([...lines, '', ...notes, '', ...insp].join('\n'));
mkdirSync('docs/bench', { recursive: true });
const when = new Date().toISOString();
writeFileSync(
  'docs/bench/browser.json',
  `${JSON.stringify({ when, browser: 'Debian Chromium, headless, WebGPU on SwiftShader', forward, inspector, memory }, null, 2)}\n`,
);
writeFileSync(
  'docs/bench/browser.md',
  `# Browser benchmark\n\nLatest \`npm run bench:browser\` (${when}): headless Debian Chromium on this 2-core machine. WebGPU is the SwiftShader *software* adapter (a CPU emulation: compare ratios, not times, and expect a real GPU to differ). Random-weight models of the demo's shape and of SmolLM2-135M's (\`135m-2l\`: its widths, 2 of its 30 layers, so every tensor has the whole model's size). Median of the repeats after two warm-ups, unless the note says otherwise. "sessions": on WebGPU the model runs as segments of layers, one onnxruntime session each (model/memory/memory.ts \`layersPerSegment\`). "GPU-process peak RSS": Chromium's GPU process, where the software adapter keeps its buffers, while the case ran (model loading included).\n\n${lines.join('\n')}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n\n## The inspector\n\n${insp.join('\n')}\n\n## Loading memory\n\n${memLines.join('\n')}\n\nRaw numbers: [browser.json](browser.json). Node: [README.md](README.md).\n`,
);
console.log('wrote docs/bench/browser.json and docs/bench/browser.md');

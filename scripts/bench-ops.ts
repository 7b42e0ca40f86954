/**
 * `npm run bench:ops`: where one inspection pass spends its time, per operator type, on Node wasm
 * (onnxruntime-web) and native (onnxruntime-node), read from onnxruntime's own profiler. It says which
 * operators make up the wasm ÷ native gap of `npm run bench`. Same random-weight models and graph as the
 * bench (every layer explicit). The profiler adds a little time per node: read shares and ratios.
 *   BENCH_MODEL=135m   demo or 135m (default 135m)
 *   BENCH_TOKENS=2048  (default 2048)
 * Writes docs/bench/ops.md and docs/bench/ops.json. Never pass/fail on time.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCheckpoint } from '../src/model/checkpoint/checkpoint';
import { buildGraph } from '../src/model/graph/graph';
import { resolveWeights } from '../src/model/checkpoint/weights';
import { ModelSession } from '../src/runtime/ort-runtime';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles } from '../tests/helpers/tiny-model';
import { BENCH_MODELS, benchIds, inspectionPass } from '../tests/helpers/bench-shapes';

type Runtime = 'wasm' | 'native';
interface ProfileEvent {
  cat: string;
  name: string;
  dur: number;
  ts: number;
  args?: { op_name?: string };
}

/** Child: one session with the profiler on, two warm-up passes and one more; the events go to stdout. */
async function child(runtime: Runtime, model: string, tokens: number): Promise<void> {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(BENCH_MODELS[model]!)));
  const { spec } = ckpt;
  const graph = buildGraph(spec, resolveWeights(spec, ckpt), { attention: 'explicit', kvCache: true });
  const dir = mkdtempSync(join(tmpdir(), 'inertia-lens-ops-'));
  const session = await ModelSession.create(graph, spec, { prefer: [runtime], profile: { filePrefix: join(dir, 'profile') } });
  const pass = inspectionPass(benchIds(tokens, spec.vocabSize));
  for (let i = 0; i < 3; i++) await session.forward(pass);
  await session.endProfiling(); // wasm: printed to stdout by onnxruntime itself
  // native: a file. Written out before the process exits (a pipe would otherwise cut it short).
  const files = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  rmSync(dir, { recursive: true, force: true });
  await new Promise((done) => process.stdout.write(`${files}\nthreads ${session.report.threads ?? 'ORT default'}\n`, done));
}

/** ms per operator type in the last pass of a profile (events after the last model_run began). */
function perOp(text: string): { byOp: Map<string, number>; passMs: number } {
  const events: ProfileEvent[] = text
    .split('\n')
    .filter((l) => l.startsWith('{"cat"'))
    .map((l) => JSON.parse(l.replace(/,\s*$/, '')) as ProfileEvent);
  const runs = events.filter((e) => e.name === 'model_run');
  const last = runs[runs.length - 1];
  if (!last) throw new Error('the profile has no model_run event');
  const byOp = new Map<string, number>();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || e.ts < last.ts) continue;
    const op = e.args?.op_name ?? '?';
    byOp.set(op, (byOp.get(op) ?? 0) + e.dur / 1000);
  }
  return { byOp, passMs: last.dur / 1000 };
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Runtime, process.argv[4]!, Number(process.argv[5]));
  process.exit(0);
}

const model = process.env.BENCH_MODEL ?? '135m';
const tokens = Number(process.env.BENCH_TOKENS ?? 2048);
const profiles = {} as Record<Runtime, { byOp: Map<string, number>; passMs: number; threads: string }>;
for (const runtime of ['wasm', 'native'] as const) {
  process.stderr.write(`profiling ${model} @ ${tokens} tokens on ${runtime} … `);
  const out = execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', runtime, model, String(tokens)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 30,
  });
  profiles[runtime] = { ...perOp(out), threads: /threads (.+)/.exec(out)?.[1] ?? '?' };
  process.stderr.write(`${profiles[runtime].passMs.toFixed(0)} ms\n`);
}

const ops = [...new Set([...profiles.wasm.byOp.keys(), ...profiles.native.byOp.keys()])];
const total = (r: Runtime) => [...profiles[r].byOp.values()].reduce((a, b) => a + b, 0);
ops.sort((a, b) => (profiles.wasm.byOp.get(b) ?? 0) - (profiles.wasm.byOp.get(a) ?? 0));
const share = (r: Runtime, op: string) => `${((100 * (profiles[r].byOp.get(op) ?? 0)) / total(r)).toFixed(1)}%`;
const ms = (r: Runtime, op: string) => (profiles[r].byOp.get(op) ?? 0).toFixed(0);
const ratio = (op: string) => {
  const n = profiles.native.byOp.get(op) ?? 0;
  return n > 0 ? `${((profiles.wasm.byOp.get(op) ?? 0) / n).toFixed(2)}×` : '—';
};
// What the gap would be if wasm ran this operator type as fast as native (the rest unchanged).
const without = (op: string) => `${((total('wasm') - (profiles.wasm.byOp.get(op) ?? 0) + (profiles.native.byOp.get(op) ?? 0)) / total('native')).toFixed(2)}×`;
const lines = [
  `| operator | wasm (ms) | wasm share | native (ms) | native share | wasm ÷ native | whole pass ÷ native, were this operator as fast on wasm |`,
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...ops
    .filter((op) => (profiles.wasm.byOp.get(op) ?? 0) + (profiles.native.byOp.get(op) ?? 0) >= 1)
    .map((op) => `| ${op} | ${ms('wasm', op)} | ${share('wasm', op)} | ${ms('native', op)} | ${share('native', op)} | ${ratio(op)} | ${without(op)} |`),
  `| **all operators** | ${total('wasm').toFixed(0)} | | ${total('native').toFixed(0)} | | **${(total('wasm') / total('native')).toFixed(2)}×** | |`,
];
const when = new Date().toISOString();
const head = `${model} @ ${tokens} tokens, one inspection pass (the last of three), every layer explicit. wasm: onnxruntime-web ${profiles.wasm.threads} threads; native: onnxruntime-node, ${profiles.native.threads} threads. Operators under 1 ms on both are left out.`;
console.log([head, '', ...lines].join('\n'));
mkdirSync('docs/bench', { recursive: true });
const json = Object.fromEntries(
  (['wasm', 'native'] as const).map((r) => [r, { passMs: profiles[r].passMs, threads: profiles[r].threads, byOp: Object.fromEntries(profiles[r].byOp) }]),
);
writeFileSync('docs/bench/ops.json', `${JSON.stringify({ when, model, tokens, ...json }, null, 2)}\n`);
writeFileSync(
  'docs/bench/ops.md',
  `# Where the wasm time goes\n\nLatest \`npm run bench:ops\` (${when}), this 2-core machine. ${head}\n\n${lines.join('\n')}\n\nRaw numbers: [ops.json](ops.json). The whole bench: [README.md](README.md).\n`,
);
console.log('wrote docs/bench/ops.md and docs/bench/ops.json');

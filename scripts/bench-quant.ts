/**
 * `npm run bench:quant`: what q8 and q4 weights cost and save, measured, and where real models fit at each
 * precision, planned. Writes docs/bench/quant-memory.md and .json. Each measured case runs in its own process.
 *   1. Speed: the inspection pass of the SmolLM2-135M shape (random weights) at each precision, wasm and native.
 *   2. Memory: Qwen2.5-0.5B-Instruct's real shape, whole, loaded at each precision on wasm and native (the peak
 *      the load and a 16-token pass add, per parameter, beyond a fixed overhead measured on a 1.7M-parameter
 *      model); Qwen3-4B-Instruct-2507 cut to 2 of its 36 layers (every tensor its real size) at q4 on wasm,
 *      against what the plan says for it.
 *   3. Plans: every real config here, at each precision: wasm (3.5 GiB) and WebGPU at 2,048 tokens.
 *   4. GPU (not by default): Llama-3.1-8B cut to 2 layers at q4g128 and q4 on Chromium's software WebGPU
 *      adapter, the GPU process's memory against the plan.
 *   5. Long (not by default): the Qwen3-4B cut at q4g128 and q4 on wasm, scoring a conversation of about 1,100
 *      tokens: onnxruntime's heap after that pass against the plan for the same cut and length.
 *   BENCH_QUANT_PARTS=speed,memory,plans,gpu,long   which parts (default the first three)
 *   BENCH_QUANT_SPEED=none,q4g128   time only these, in a table of their own (default: all, the main table)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeConfig } from '../src/model/config/config';
import { planBackend } from '../src/model/memory/load-plan';
import { WASM_LIMITS } from '../src/model/memory/memory';
import type { Quant } from '../src/model/precision/quantize';
import { parameterCount, tensorPlan } from '../src/model/checkpoint/weights';
import { loadCheckpoint } from '../src/model/checkpoint/checkpoint';
import { resolveWeights } from '../src/model/checkpoint/weights';
import { buildGraph } from '../src/model/graph/graph';
import { ModelSession } from '../src/runtime/ort-runtime';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles } from '../tests/helpers/tiny-model';
import { BENCH_MODELS, benchIds, inspectionPass, medianMs } from '../tests/helpers/bench-shapes';
import { cutConfig } from './rehearse/build-model';
import { virtualCheckpoint } from '../tests/helpers/virtual-checkpoint';
import { f32ToBf16 } from '../src/model/precision/dtype';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { shippedFiles } from '../tests/helpers/real-tokenizers';
import { startAppServer } from '../tests/helpers/app-server';
import { diskRepo } from '../tests/helpers/hub-server';
import { launchChromium } from '../tests/helpers/chromium';
import { watchProcesses } from '../tests/helpers/process-memory';

/**
 * A checkpoint for memory measurements: the real config's header, then one block of random BF16 values
 * repeated (memory does not depend on the values; random ones for every weight take minutes to write).
 */
function writeModel(
  name: string,
  config: Record<string, unknown>,
  tokenizer: Parameters<typeof shippedFiles>[0] = 'qwen2_5',
): { dir: string; config: Record<string, unknown> } {
  const dir = join(OUT, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const { json, config: tok } = shippedFiles(tokenizer);
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tok));
  const v = virtualCheckpoint(config);
  const headLength = 8 + Number(new DataView(v.read(0, 8).buffer).getBigUint64(0, true));
  const block = new Uint16Array(1 << 20);
  for (let i = 0; i < block.length; i++) block[i] = f32ToBf16(Math.sin(i * 12.9898) * 0.05);
  const fd = openSync(join(dir, 'model.safetensors'), 'w');
  writeSync(fd, v.read(0, headLength));
  for (let left = v.size - headLength; left > 0; left -= block.byteLength) writeSync(fd, new Uint8Array(block.buffer), 0, Math.min(left, block.byteLength));
  closeSync(fd);
  return { dir, config };
}

const QUANTS: Quant[] = ['none', 'q8', 'q4', 'q4g128'];
const parts = (process.env.BENCH_QUANT_PARTS ?? 'speed,memory,plans').split(',');
const OUT = '.tmp/bench-quant';
const gib = (n: number) => (n / 2 ** 30).toFixed(2);

/** The speed case, in the child process. */
async function speedCase(runtime: 'wasm' | 'native', quant: Quant, tokens: number) {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ ...BENCH_MODELS['135m']!, dtype: 'BF16' })));
  const session = await ModelSession.create(buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt), { quant }), ckpt.spec, { prefer: [runtime] });
  const ids = benchIds(tokens, ckpt.spec.vocabSize);
  const ms = await medianMs(() => session.forward(inspectionPass(ids)), tokens >= 2048 ? 1 : 3);
  await session.release();
  return { ms, peakMiB: Math.round(process.resourceUsage().maxRSS / 1024) };
}

if (process.argv[2] === '--speed') {
  const [runtime, quant, tokens] = process.argv.slice(3) as ['wasm' | 'native', Quant, string];
  process.stdout.write(`${JSON.stringify(await speedCase(runtime, quant, Number(tokens)))}\n`);
  process.exit(0);
}

const child = (args: string[], env: Record<string, string> = {}) =>
  JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ...env },
      maxBuffer: 1 << 24,
    })
      .trim()
      .split('\n')
      .pop()!,
  );
const earlier = existsSync('docs/bench/quant-memory.json') ? JSON.parse(readFileSync('docs/bench/quant-memory.json', 'utf8')) : {};
const doc: Record<string, unknown> = { ...earlier, when: new Date().toISOString().slice(0, 10) };

if (parts.includes('speed')) {
  // BENCH_QUANT_SPEED=none,q4g128: only these precisions, timed in a run of their own (each case builds a 135M model:
  // minutes), written apart from the full table so no ratio mixes two runs.
  const only = process.env.BENCH_QUANT_SPEED?.split(',') as Quant[] | undefined;
  const timed = only ?? QUANTS;
  const rows: Record<string, unknown>[] = [];
  for (const runtime of ['wasm', 'native'] as const) {
    for (const tokens of [512, 2048]) {
      for (const quant of timed) {
        process.stderr.write(`speed ${runtime} ${tokens} ${quant} … `);
        const r = child([process.argv[1]!, '--speed', runtime, quant, String(tokens)]);
        process.stderr.write(`${r.ms.toFixed(0)} ms\n`);
        rows.push({ runtime, tokens, quant, ...r });
      }
    }
  }
  if (only) doc.speedG128 = { when: doc.when, rows };
  else doc.speed = rows;
}

if (parts.includes('memory')) {
  const rows = [];
  const nodeCase = (dir: string, backend: string, quant: Quant) => child(['scripts/rehearse/node-case.ts', dir, backend], { QUANT: quant });
  // The fixed overhead: onnxruntime's runtime and our own code, with a model of 1.7M parameters.
  const fixed: Record<string, number> = {};
  let fixedHeap = 0;
  for (const backend of ['wasm', 'native']) {
    const r = nodeCase('models/inertia-demo', backend, 'none');
    fixed[backend] = r.peakBytes;
    if (backend === 'wasm') fixedHeap = r.wasmHeapBytes;
  }
  const heapCols = (r: any, params: number) => ({
    wasmHeapBytes: r.wasmHeapBytes ?? null,
    fixedHeapBytes: r.wasmHeapBytes ? fixedHeap : null,
    heapBytesPerParam: r.wasmHeapBytes ? (r.wasmHeapBytes - fixedHeap) / params : null,
  });
  const qwen = writeModel(
    'Qwen--Qwen2.5-0.5B-Instruct',
    JSON.parse(readFileSync('tests/fixtures/real-models/Qwen--Qwen2.5-0.5B-Instruct/config.json', 'utf8')),
  );
  const params = parameterCount(normalizeConfig(qwen.config));
  for (const backend of ['wasm', 'native']) {
    for (const quant of QUANTS) {
      process.stderr.write(`memory Qwen2.5-0.5B ${backend} ${quant} … `);
      const r = nodeCase(qwen.dir, backend, quant);
      const beyond = r.peakBytes - fixed[backend]!;
      process.stderr.write(
        `${r.error ?? `${(r.peakBytes / 2 ** 20).toFixed(0)} MiB, ${(beyond / params).toFixed(2)} B/param beyond the fixed ${(fixed[backend]! / 2 ** 20).toFixed(0)} MiB`}\n`,
      );
      rows.push({
        model: 'Qwen/Qwen2.5-0.5B-Instruct (whole)',
        params,
        backend,
        quant,
        peakBytes: r.peakBytes,
        fixedBytes: fixed[backend],
        bytesPerParam: beyond / params,
        plannedHeld: r.plan ? r.plan.weights + r.plan.overhead : null,
        loadMs: r.loadMs,
        error: r.error ?? null,
        ...heapCols(r, params),
      });
    }
  }
  // Qwen3-4B cut to 2 layers: the embedding (389M) and two layers, every tensor its real size.
  const q4Dir = writeModel(
    'Qwen--Qwen3-4B-Instruct-2507-2l',
    cutConfig(JSON.parse(readFileSync('tests/fixtures/more-models/Qwen--Qwen3-4B-Instruct-2507/config.json', 'utf8')), 2),
  );
  const cutParams = parameterCount(normalizeConfig(q4Dir.config));
  for (const backend of ['wasm', 'native']) {
    for (const quant of ['q8', 'q4', 'q4g128'] as const) {
      process.stderr.write(`memory Qwen3-4B cut ${backend} ${quant} … `);
      const r = nodeCase(q4Dir.dir, backend, quant);
      process.stderr.write(`${r.error ?? `${(r.peakBytes / 2 ** 20).toFixed(0)} MiB`}\n`);
      rows.push({
        model: 'Qwen/Qwen3-4B-Instruct-2507 (2 of 36 layers)',
        params: cutParams,
        backend,
        quant,
        peakBytes: r.peakBytes,
        fixedBytes: fixed[backend],
        bytesPerParam: (r.peakBytes - fixed[backend]!) / cutParams,
        plannedHeld: r.plan ? r.plan.weights + r.plan.overhead : null,
        loadMs: r.loadMs,
        error: r.error ?? null,
        ...heapCols(r, cutParams),
      });
    }
  }
  doc.memory = rows;
}

if (parts.includes('gpu')) {
  // The GPU buffers of an 8B model at q4g128, measured on Chromium's software WebGPU adapter (SwiftShader keeps
  // them in its GPU process's memory) for Llama-3.1-8B cut to 2 of its 32 layers (every tensor its real size),
  // against the plan for the same cut. Not in the default parts: a 3 GB checkpoint and minutes of SwiftShader.
  const cut = writeModel(
    'meta-llama--Llama-3.1-8B-Instruct-2l',
    cutConfig(JSON.parse(readFileSync('tests/fixtures/real-models/meta-llama--Llama-3.1-8B-Instruct/config.json', 'utf8')), 2),
    'llama3_1',
  );
  const spec = normalizeConfig(cut.config);
  const disk = diskRepo(cut.dir);
  const app = await startAppServer({ 'bench/llama-8b-2l': disk.files });
  const rows = [];
  try {
    for (const quant of ['q4g128', 'q4'] as const) {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`${app.url}/tests/browser/harness.html`);
        await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { timeout: 120_000 });
        const before = watchProcesses('--type=gpu-process').stop() ?? 0;
        const gpu = watchProcesses('--type=gpu-process');
        process.stderr.write(`gpu Llama-3.1-8B cut webgpu ${quant} … `);
        type H = { rehearseLoad: Function };
        const load = await page.evaluate(([h, q]) => (window as unknown as { harness: H }).harness.rehearseLoad(h, 'bench/llama-8b-2l', ['webgpu'], q), [
          app.hub,
          quant,
        ] as const);
        const peak = gpu.stop() ?? 0;
        const plan = planBackend(
          { spec, dtypes: new Map(tensorPlan(spec).map((t) => [t.name, 'BF16'])), holdsFileBytes: true, plannedTokens: 16, computeDtype: 'fp32', quant },
          { backend: 'webgpu', totalBytes: null, maxBufferBytes: null },
        );
        process.stderr.write(
          `${load.error ?? `${load.backend}, GPU process +${peak - before} MiB, planned ${((plan.weights + plan.overhead) / 2 ** 20).toFixed(0)} MiB`}\n`,
        );
        rows.push({
          model: 'meta-llama/Llama-3.1-8B-Instruct (2 of 32 layers)',
          params: parameterCount(spec),
          quant,
          backend: load.backend,
          gpuBeforeMiB: before,
          gpuPeakMiB: peak,
          gpuAddedMiB: peak - before,
          plannedMiB: (plan.weights + plan.overhead) / 2 ** 20,
          plannedWeightsMiB: plan.weights / 2 ** 20,
          loadMs: load.loadMs,
          error: load.error,
        });
      } finally {
        await browser.close();
      }
    }
  } finally {
    await app.server.close();
    disk.close();
  }
  doc.gpu = rows;
}

if (parts.includes('long')) {
  // A pass as long as the plan promises Qwen3-4B on wasm (≥ 1,024 tokens), on its cut: the heap it leaves
  // (its peak) against the plan for the cut at that length. A maze episode's turns repeated to the length.
  const cut = join(OUT, 'Qwen--Qwen3-4B-Instruct-2507-2l');
  // The memory part writes this cut; written here too when this part runs alone.
  if (!existsSync(join(cut, 'model.safetensors')))
    writeModel(
      'Qwen--Qwen3-4B-Instruct-2507-2l',
      cutConfig(JSON.parse(readFileSync('tests/fixtures/more-models/Qwen--Qwen3-4B-Instruct-2507/config.json', 'utf8')), 2),
    );
  const spec = normalizeConfig(JSON.parse(readFileSync(join(cut, 'config.json'), 'utf8')));
  const maze = JSON.parse(readFileSync('examples/maze.json', 'utf8')).messages as { role: string }[];
  const turns = maze.filter((m) => m.role !== 'system');
  const conv = join(OUT, 'long-conversation.json');
  // The episode once and its first two turns again: about 1,100 tokens in Qwen's tokenizer, between the 1,024 asked
  // for and the plan's 1,169.
  writeFileSync(conv, JSON.stringify({ messages: [maze[0], ...turns, ...turns.slice(0, 4)] }));
  const rows = [];
  for (const quant of ['q4g128', 'q4'] as const) {
    process.stderr.write(`long pass Qwen3-4B cut wasm ${quant} … `);
    const r = child(['scripts/rehearse/node-case.ts', cut, 'wasm', conv], { QUANT: quant });
    const tokens = r.analyses?.[0]?.tokens ?? 0;
    const plan = planBackend(
      { spec, dtypes: new Map(tensorPlan(spec).map((t) => [t.name, 'BF16'])), holdsFileBytes: true, plannedTokens: tokens, computeDtype: 'fp32', quant },
      WASM_LIMITS,
    );
    process.stderr.write(
      `${r.error ?? `${tokens} tokens, heap ${(r.wasmHeapBytes / 2 ** 20).toFixed(0)} MiB, planned ${((plan.weights + plan.overhead) / 2 ** 20).toFixed(0)} MiB`}\n`,
    );
    rows.push({
      quant,
      tokens,
      ms: r.analyses?.[0]?.ms ?? null,
      wasmHeapBytes: r.wasmHeapBytes,
      plannedBytes: plan.weights + plan.overhead,
      error: r.error ?? null,
    });
  }
  doc.long = rows;
}

if (parts.includes('plans')) {
  const dirs = ['tests/fixtures/real-models', 'tests/fixtures/more-models', 'tests/fixtures/multimodal'];
  const rows = [];
  // The papers' two models as their published AWQ checkpoints: every layer's matrices 4-bit in groups of 128
  // (hugging-quants/Meta-Llama-3.1-8B-Instruct-AWQ-INT4, Qwen/Qwen3-8B-AWQ), the embedding and head in F16.
  const awq = ['meta-llama--Llama-3.1-8B-Instruct', 'Qwen--Qwen3-8B'].map((m) => ({ base: 'tests/fixtures/real-models', m, awq: true }));
  const cases = [
    ...dirs.flatMap((base) =>
      readdirSync(base)
        .filter((d) => d.includes('--'))
        .sort()
        .map((m) => ({ base, m, awq: false })),
    ),
    ...awq,
  ];
  for (const { base, m, awq: published } of cases) {
    const spec = normalizeConfig(JSON.parse(readFileSync(join(base, m, 'config.json'), 'utf8')));
    const dtypes = new Map(
      tensorPlan(spec).map((t) => [t.name, published ? (t.shape.length === 2 && t.name.includes('.layers.') ? 'AWQ:128' : 'F16') : 'BF16']),
    );
    const plan = (quant: Quant, tokens: number, limits: typeof WASM_LIMITS, computeDtype: 'fp32' | 'fp16' = 'fp32') =>
      planBackend({ spec, dtypes, holdsFileBytes: true, plannedTokens: tokens, computeDtype, quant }, limits);
    const row: Record<string, unknown> = {
      model: `${m.replace('--', '/')}${published ? ', published AWQ (4-bit, groups of 128; the rest at the precision chosen)' : ''}`,
      parameters: parameterCount(spec),
    };
    for (const quant of QUANTS) {
      const w = plan(quant, 1024, WASM_LIMITS);
      // WebGPU: the weights and one 2,048-token pass (GPU memory, unbounded here: the figure is the point).
      const gpu = { backend: 'webgpu' as const, totalBytes: null, maxBufferBytes: null };
      const [g, h] = [plan(quant, 2048, gpu), plan(quant, 2048, gpu, 'fp16')];
      row[quant] = {
        wasmFits: !w.problem,
        wasmMaxTokens: w.maxTokens,
        wasmHeld: w.weights + w.overhead,
        webgpu2048: g.weights + g.overhead,
        webgpu2048f16: h.weights + h.overhead,
      };
    }
    rows.push(row);
  }
  doc.plans = rows;
}

writeFileSync('docs/bench/quant-memory.json', `${JSON.stringify(doc, null, 1)}\n`);
writeFileSync('docs/bench/quant-memory.md', markdown(doc));
process.stdout.write(markdown(doc));

function markdown(d: Record<string, any>): string {
  const out = [
    `# Quantized weights: speed, memory and where models fit\n\nLatest \`npm run bench:quant\` (${d.when}), this 2-core machine (read the ratios). q8 / q4 / q4g128: every linear layer, the head and the embedding in 8 / 4 / 4 bits, blocks of 32 / 32 / 128 with a scale and zero point each, run by onnxruntime's MatMulNBits.\n`,
  ];
  if (d.speed) {
    const qs = QUANTS.filter((q) => q !== 'none' && d.speed.some((x: any) => x.quant === q));
    out.push(
      `## Speed: the inspection pass, SmolLM2-135M shape (random BF16 weights)\n\n| runtime | tokens | none (ms) | ${qs.map((q) => `${q} (ms)`).join(' | ')} | ${qs.map((q) => `${q} ÷ none`).join(' | ')} | peak RSS none / ${qs.join(' / ')} (MiB) |\n| --- | ---: | ---: | ${qs.map(() => '---: | ---:').join(' | ')} | --- |`,
    );
    for (const runtime of ['wasm', 'native'])
      for (const tokens of [512, 2048]) {
        const r = (q: string) => d.speed.find((x: any) => x.runtime === runtime && x.tokens === tokens && x.quant === q);
        if (!r('none')) continue;
        out.push(
          `| ${runtime} | ${tokens} | ${r('none').ms.toFixed(0)} | ${qs.map((q) => r(q).ms.toFixed(0)).join(' | ')} | ${qs.map((q) => (r(q).ms / r('none').ms).toFixed(2)).join(' | ')} | ${['none', ...qs].map((q) => r(q).peakMiB).join(' / ')} |`,
        );
      }
    out.push('');
  }
  if (d.speedG128) {
    out.push(
      `## Speed of q4g128, timed against full precision in one run of its own (${d.speedG128.when}; \`BENCH_QUANT_SPEED=none,q4g128\`)\n\n| runtime | tokens | none (ms) | q4g128 (ms) | q4g128 ÷ none |\n| --- | ---: | ---: | ---: | ---: |`,
    );
    for (const runtime of ['wasm', 'native'])
      for (const tokens of [512, 2048]) {
        const r = (q: string) => d.speedG128.rows.find((x: any) => x.runtime === runtime && x.tokens === tokens && x.quant === q);
        if (r('none') && r('q4g128'))
          out.push(`| ${runtime} | ${tokens} | ${r('none').ms.toFixed(0)} | ${r('q4g128').ms.toFixed(0)} | ${(r('q4g128').ms / r('none').ms).toFixed(2)} |`);
      }
    out.push('');
  }
  if (d.memory) {
    out.push(
      "## Memory, measured: the peak a load and a 16-token pass add (Node)\n\nTwo measures. The process's peak (VmHWM): everything, the JavaScript side's garbage (each tensor's quantized copy before onnxruntime takes it) included. On wasm, onnxruntime's heap besides: what the wasm backend is limited by (4 GiB, planned as 3.5), and what the plan forecasts for it; it never shrinks, so its size after the pass is its peak. A browser holds the JavaScript side outside that limit.\n\n| model | parameters | runtime | precision | process peak (MiB) | B/param beyond the fixed | wasm heap (MiB) | heap B/param beyond the fixed | planned (MiB) |\n| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of d.memory)
      out.push(
        `| ${r.model} | ${r.params.toLocaleString('en-US')} | ${r.backend} | ${r.quant} | ${r.error ? `✗ ${r.error.slice(0, 80)}` : (r.peakBytes / 2 ** 20).toFixed(0)} | ${r.error ? '–' : r.bytesPerParam.toFixed(2)} | ${r.wasmHeapBytes ? (r.wasmHeapBytes / 2 ** 20).toFixed(0) : '–'} | ${r.heapBytesPerParam ? r.heapBytesPerParam.toFixed(2) : '–'} | ${r.plannedHeld ? (r.plannedHeld / 2 ** 20).toFixed(0) : '–'} |`,
      );
    const f = d.memory[0];
    out.push(
      `\nThe fixed overhead (onnxruntime and this tool, with the 1.7M-parameter demo model): ${(f.fixedBytes / 2 ** 20).toFixed(0)} MiB on ${f.backend}${d.memory.find((x: any) => x.backend !== f.backend) ? `, ${(d.memory.find((x: any) => x.backend !== f.backend).fixedBytes / 2 ** 20).toFixed(0)} MiB on ${d.memory.find((x: any) => x.backend !== f.backend).backend}` : ''}; its wasm heap ${f.fixedHeapBytes ? (f.fixedHeapBytes / 2 ** 20).toFixed(0) : '–'} MiB.\n`,
    );
  }
  if (d.long) {
    out.push(
      `## A long pass on wasm, measured: Qwen3-4B cut to 2 of its 36 layers\n\n\`BENCH_QUANT_PARTS=long\`. The plan lets the whole Qwen3-4B-Instruct-2507 run on wasm at q4g128 up to ${d.plans?.find((p: any) => p.model === 'Qwen/Qwen3-4B-Instruct-2507')?.q4g128?.wasmMaxTokens?.toLocaleString('en-US') ?? '–'} tokens; here its cut scores a conversation of the length in the table below, past 1,024, under Full (one pass, the final layer's attention kept), and onnxruntime's heap after it (its peak) is set against the plan for the same cut and length.\n\n| precision | tokens | pass (s) | wasm heap (MiB) | planned (MiB) | heap ÷ planned |\n| --- | ---: | ---: | ---: | ---: | ---: |`,
    );
    for (const r of d.long)
      out.push(
        `| ${r.quant} | ${r.tokens.toLocaleString('en-US')} | ${r.error ? `✗ ${r.error.slice(0, 80)}` : (r.ms / 1000).toFixed(1)} | ${r.wasmHeapBytes ? (r.wasmHeapBytes / 2 ** 20).toFixed(0) : '–'} | ${(r.plannedBytes / 2 ** 20).toFixed(0)} | ${r.wasmHeapBytes ? (r.wasmHeapBytes / r.plannedBytes).toFixed(2) : '–'} |`,
      );
    out.push('');
  }
  if (d.gpu) {
    out.push(
      "## GPU memory, measured: an 8B model cut to 2 layers on Chromium's software WebGPU adapter\n\n`BENCH_QUANT_PARTS=gpu`. SwiftShader keeps the GPU buffers in Chromium's GPU process: its peak resident memory while the model loads and runs 16 tokens, beyond what it held before, against the plan for the same cut (fp32 compute: this adapter has no shader-f16).\n\n| model | parameters | precision | backend | GPU process added (MiB) | planned (MiB) | of which weights (MiB) | added ÷ planned |\n| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |",
    );
    for (const r of d.gpu)
      out.push(
        `| ${r.model} | ${r.params.toLocaleString('en-US')} | ${r.quant} | ${r.backend ?? '–'} | ${r.error ? `✗ ${r.error.slice(0, 80)}` : r.gpuAddedMiB} | ${r.plannedMiB.toFixed(0)} | ${r.plannedWeightsMiB.toFixed(0)} | ${r.error ? '–' : (r.gpuAddedMiB / r.plannedMiB).toFixed(2)} |`,
      );
    out.push(
      '\nThe plan is of GPU memory on a hardware adapter: the weights as the graph holds them and one pass. The software adapter\'s process also holds, at its peak, the staging copies each tensor is uploaded through (its buffers live in the same host memory), so it measures more than the plan; the rehearsal finds the same for fp32 weights on this adapter (docs/rehearsal.md, "GPU"). On this adapter the app runs wasm unless asked for WebGPU.\n',
    );
  }
  if (d.plans) {
    out.push(
      `## Where real models fit, planned before any weight is read (model/memory/load-plan.ts)\n\nwasm: fits its 3.5 GiB heap, and the longest pass that does; WebGPU: GPU memory for the weights and one 2,048-token pass (explicit attention in every layer), computing in fp32 (an adapter without shader-f16, as this machine's) and, after the slash, in fp16 (one with it: norms, softmax and the attention probabilities stay fp32).\n\n| model | parameters | ${QUANTS.map((q) => `wasm ${q}`).join(' | ')} | ${QUANTS.map((q) => `WebGPU ${q}`).join(' | ')} |\n| --- | ---: | ${QUANTS.map(() => '---').join(' | ')} | ${QUANTS.map(() => '---:').join(' | ')} |`,
    );
    const cell = (x: any) => (x.wasmFits ? `${gib(x.wasmHeld)} GiB, ≤ ${x.wasmMaxTokens === null ? '∞' : x.wasmMaxTokens.toLocaleString('en-US')} tok` : '✗');
    for (const r of d.plans)
      out.push(
        `| ${r.model} | ${r.parameters.toLocaleString('en-US')} | ${QUANTS.map((q) => (r[q] ? cell(r[q]) : '–')).join(' | ')} | ${QUANTS.map((q) => (r[q] ? `${gib(r[q].webgpu2048)} / ${gib(r[q].webgpu2048f16)} GiB` : '–')).join(' | ')} |`,
      );
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

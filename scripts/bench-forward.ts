/**
 * Benchmark: one forward pass at 512 tokens on Node wasm, for the largest test model and for a
 * random-weight model shaped like SmolLM2-135M. Prints times (this machine is shared: read the
 * ratios, not the milliseconds) — never asserted in tests.
 *   npm run bench     (BENCH_TOKENS=1024 for another length, BENCH_THREADS=N for ORT's wasm threads)
 */
import { loadCheckpoint } from '../src/model/checkpoint';
import { parameterCount } from '../src/model/config';
import { buildGraph } from '../src/model/graph';
import { resolveWeights } from '../src/model/weights';
import { configureRuntime, ModelSession } from '../src/runtime/ort-runtime';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../tests/helpers/tiny-model';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 512);
const REPEATS = 5;
if (process.env.BENCH_THREADS) await configureRuntime({ numThreads: Number(process.env.BENCH_THREADS) });

const MODELS: [string, TinyOptions][] = [
  ['largest test model (qwen3, 6 heads, head_dim 12)', { family: 'qwen3', dtype: 'BF16', tie: true, heads: 6, kvHeads: 2, headDim: 12, seed: 7 }],
  ['SmolLM2-135M-shaped (llama, 30 × 576, 9/3 heads, random)', { family: 'llama', layers: 30, hidden: 576, heads: 9, kvHeads: 3, intermediate: 1536, vocab: 49152, tie: true, seed: 1 }],
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function time(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

for (const [name, opts] of MODELS) {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
  const t0 = performance.now();
  const graph = buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt));
  const buildMs = performance.now() - t0;
  const t1 = performance.now();
  const session = await ModelSession.create(graph, ckpt.spec);
  const sessionMs = performance.now() - t1;
  const ids = Array.from({ length: TOKENS }, (_, i) => (i * 31 + 5) % ckpt.spec.vocabSize);
  const rows: [number, number] = [TOKENS - 64, TOKENS];
  const variants: [string, () => Promise<unknown>][] = [
    ['last logits + head-mean rows of the last 64 tokens', () => session.forward({ ids, attnRows: rows })],
    ['+ per-head rows of the last 64 tokens', () => session.forward({ ids, attnRows: rows, perHead: true })],
    ['full per-head matrix + all logits', () => session.forward({ ids, attnRows: [0, TOKENS], logitRows: [0, TOKENS], perHead: true })],
  ];
  console.log(`\n${name}: ${parameterCount(ckpt.spec).toLocaleString('en-US')} parameters, ${TOKENS} tokens, ${session.report.backend}`);
  console.log(`  graph build ${buildMs.toFixed(0)} ms, session create ${sessionMs.toFixed(0)} ms`);
  let base = 0;
  for (const [label, run] of variants) {
    await run(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) times.push(await time(run));
    const ms = median(times);
    base ||= ms;
    console.log(`  ${label.padEnd(52)} median ${ms.toFixed(0).padStart(6)} ms  (× ${(ms / base).toFixed(2)})`);
  }
  await session.release();
}

/** The shapes and the timer the benches and the tests share (Node's scripts/bench.ts, the Chromium harness, the segment tests). */
import { median } from '../../src/metrics/stats';
import type { ForwardRequest } from '../../src/runtime/ort-runtime';
import type { TinyOptions } from './tiny-model';

export const BENCH_MODELS: Record<string, TinyOptions> = {
  // The demo model's shape (models/inertia-demo/config.json).
  demo: { family: 'llama', layers: 2, hidden: 256, heads: 8, kvHeads: 2, intermediate: 768, vocab: 917, tie: true, seed: 1 },
  '135m': { family: 'llama', layers: 30, hidden: 576, heads: 9, kvHeads: 3, intermediate: 1536, vocab: 49152, tie: true, seed: 1 },
  /** The 135M shape cut to 2 of its 30 layers: every tensor the same size as in the whole model, for the
   *  runs the software WebGPU adapter is too slow to do 30 layers of (the 1 GiB buffer limit is per tensor). */
  '135m-2l': { family: 'llama', layers: 2, hidden: 576, heads: 9, kvHeads: 3, intermediate: 1536, vocab: 49152, tie: true, seed: 1 },
};

/** The benches' input: `n` token ids spread over the vocabulary. */
export function benchIds(n: number, vocabSize: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 31 + 5) % vocabSize);
}

/** The benches' inspection pass: the final layer's per-head rows of the last 64 tokens, no logits. */
export function inspectionPass(ids: number[]): ForwardRequest {
  return { ids, attnRows: [Math.max(0, ids.length - 64), ids.length], perHead: true, skipLogits: true };
}

/**
 * Median ms of `repeats` runs after two warm-up runs. onnxruntime-node's first two runs of a new shape
 * are 5× slower than the rest (its memory arena grows); one warm-up left the second slow run in the
 * timing. On WebGPU the warm-up also compiles the shaders for this shape.
 */
export async function medianMs(f: () => Promise<unknown>, repeats: number): Promise<number> {
  await f();
  await f();
  const xs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    await f();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { buildGraph } from '../../src/model/graph/graph';
import { referenceForward } from '../../src/model/graph/reference';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { ModelSession } from '../../src/runtime/ort-runtime';
import { maxAbsDiff } from '../helpers/compare';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

/** onnxruntime-node runs the same graph (the bench's CPU reference): it must compute the same numbers. */
describe('the native runtime (onnxruntime-node) against the float64 reference', () => {
  it('logits, attention and KV-cache decoding within 1e-4', async () => {
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'qwen2', heads: 4, kvHeads: 2, seed: 5 })));
    const { spec } = ckpt;
    const weights = resolveWeights(spec, ckpt);
    const session = await ModelSession.create(buildGraph(spec, weights, { kvCache: true }), spec, { prefer: ['native'] });
    expect(session.report.backend).toBe('native');
    expect(session.report.threads).toBeNull();
    const S = 23;
    const V = spec.vocabSize;
    const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % V);
    const ref = await referenceForward(spec, weights, ids);
    const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
    expect(maxAbsDiff(out.logits!.data, ref.logits)).toBeLessThanOrEqual(1e-4);
    expect(maxAbsDiff(out.attention[0]!.perHead!.data, ref.attention)).toBeLessThanOrEqual(1e-4);
    let step = await session.forward({ ids: ids.slice(0, 20), layers: [], keepCache: true });
    for (let t = 20; t < S; t++) {
      step = await session.forward({ ids: [ids[t]!], layers: [], keepCache: true, past: step.present! });
      expect(maxAbsDiff(step.logits!.data, ref.logits.subarray(t * V, (t + 1) * V))).toBeLessThanOrEqual(1e-4);
    }
    await session.release();
  });

  it("beside it, wasm runs on every core (at most 8), not on ORT's default of half of them", async () => {
    const { cpus } = await import('node:os');
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', seed: 6 })));
    const session = await ModelSession.create(buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt)), ckpt.spec, { prefer: ['wasm'] });
    expect(session.report.backend).toBe('wasm');
    expect(session.report.threads).toBe(Math.min(8, cpus().length));
    await session.release();
  });

  it('with the profiler on (npm run bench:ops), writes one timed event per node of each pass', async () => {
    const { mkdtempSync, readdirSync, readFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'inertia-lens-profile-'));
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', seed: 7 })));
    const session = await ModelSession.create(buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt)), ckpt.spec, {
      prefer: ['native'],
      profile: { filePrefix: join(dir, 'p') },
    });
    await session.forward({ ids: [1, 2, 3, 4], layers: [] });
    await session.endProfiling();
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const events = JSON.parse(readFileSync(join(dir, files[0]!), 'utf8')) as { cat: string; name: string; args?: { op_name?: string } }[];
    expect(events.filter((e) => e.name === 'model_run')).toHaveLength(1);
    const ops = new Set(events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time')).map((e) => e.args?.op_name));
    for (const op of ['Gemm', 'Softmax']) expect(ops).toContain(op);
    await session.release();
    rmSync(dir, { recursive: true, force: true });
  });
});

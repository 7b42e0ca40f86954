import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { withAnswer } from '../../src/analysis/answer';
import { DEMO_MODEL_FILES, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel } from '../../src/runtime/open-model';
import { modelClient, setModelClient } from '../../src/state/model-client';
import { useInspector } from '../../src/state/inspector-store';
import { modelStore, useModelStore } from '../../src/state/model-store';

const storeB = modelStore(1);
import { sameTokens } from '../../src/export/figures';
import { inProcessClient, memoryFiles } from '../helpers/in-process-worker';
import { MAZE_TEXT } from '../helpers/maze';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

const idle = () =>
  new Promise<void>((resolve) => {
    const check = () => {
      const s = useInspector.getState();
      const loading = useModelStore.getState().load.status === 'loading' || storeB.getState().load.status === 'loading';
      if (!s.analyzing && !s.sweeping && !loading) setTimeout(() => (useInspector.getState().analyzing ? check() : resolve()), 300);
      else setTimeout(check, 50);
    };
    check();
  });

describe('compare models: one conversation, turn and policy scored by two to four models, each in its own worker', () => {
  const filesA = tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 2, seed: 71 });
  const filesB = new Map(DEMO_MODEL_FILES.map((f) => [f, new Uint8Array(readFileSync(join(DEMO_MODEL_PATH, f)))]));
  beforeAll(async () => {
    setModelClient(inProcessClient(), 0);
    setModelClient(inProcessClient(), 1);
    await useModelStore.getState().loadModel(memoryFiles(filesA, 'model A'));
    await storeB.getState().loadModel(memoryFiles(filesB, 'model B'));
    expect(useModelStore.getState().load.error).toBeNull();
    expect(storeB.getState().load.error).toBeNull();
    useInspector.getState().setText(MAZE_TEXT, true);
    await idle();
  });

  it("each model's figures equal its own fresh analysis; their tokenizers differ, so they compare by message", async () => {
    useInspector.getState().setPolicy('clip:12:1');
    useInspector.getState().setCompareModels(true);
    await idle();
    const s = useInspector.getState();
    expect(s.analysisError).toBeNull();
    expect(s.results.map((r) => [r.policy, r.slot ?? 0])).toEqual([
      ['clip:12:1', 0],
      ['clip:12:1', 1],
    ]);
    expect(s.results[1]!.label).toBe('Clip-12→1 · model B');
    const conv = s.parsed.conversation!;
    for (const [r, files] of [
      [s.results[0]!, filesA],
      [s.results[1]!, filesB],
    ] as const) {
      const m = await openModel(memorySource(files));
      const fresh = await analyzePolicy(m, conv, 'clip:12:1');
      await m.session.release();
      expect(r.layer).toBe(fresh.layer);
      // The tokens-per-turn series follows the figures (the analysis sends the scored turn first).
      const slot = r.slot;
      await vi.waitFor(() => expect(useInspector.getState().results.find((x) => x.slot === slot)!.cost).toEqual(fresh.cost), { timeout: 60_000 });
      expect(Math.abs(r.diagonal - fresh.diagonal)).toBeLessThan(1e-6);
      for (const c of Object.keys(fresh.ratios) as (keyof typeof fresh.ratios)[]) expect(Math.abs(r.ratios[c] - fresh.ratios[c])).toBeLessThan(1e-6);
    }
    expect(sameTokens(s.results[0]!, s.results[1]!)).toBe(false);
    // Model B's sweep over turns (it starts after A's), drawn over A's: one point per scored turn, the last one the turn shown.
    // Both sweeps done (A's may still be filling in while B's lands on a loaded machine), then compared.
    await vi.waitFor(
      () => {
        expect(useInspector.getState().sweeps[1]).toBeTruthy();
        expect(useInspector.getState().sweeping).toBeNull();
        // Each sweep fills as its turns arrive: both whole, one point per scored turn (under CI's load A's came in later).
        expect(useInspector.getState().sweeps[1]!.points.length).toBe(useInspector.getState().sweeps[0]!.points.length);
      },
      { timeout: 60_000 },
    );
    const b = useInspector.getState().sweeps[1]!.points;
    expect(Math.abs(b[b.length - 1]!.diagonal - s.results[1]!.diagonal)).toBeLessThan(1e-6);
  });

  it("generation: each model writes its own answer under the policy, and each model's figures score its own", async () => {
    await useInspector.getState().generate();
    await idle();
    const s = useInspector.getState();
    const [a, b] = [s.generated[0]?.['clip:12:1'], s.generated[1]?.['clip:12:1']];
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    const conv = s.parsed.conversation!;
    const turn = s.results[0]!.turn;
    for (const [r, files, answer] of [
      [s.results[0]!, filesA, a!],
      [s.results[1]!, filesB, b!],
    ] as const) {
      const m = await openModel(memorySource(files));
      const fresh = await analyzePolicy(m, withAnswer(conv, turn, answer), 'clip:12:1', { turn });
      await m.session.release();
      expect(Math.abs(r.diagonal - fresh.diagonal)).toBeLessThan(1e-6);
      expect(r.messages.find((x) => x.kind === 'current')!.generated).toBe(true);
    }
  });

  it('four models: one inspect request per model slot per edit, each slot its own figures, sweep and Δ against A', async () => {
    const files = [
      tinyModelFiles({ family: 'qwen3', heads: 4, kvHeads: 2, layers: 2, seed: 72 }),
      tinyModelFiles({ family: 'gemma3_text', heads: 4, kvHeads: 1, layers: 2, seed: 73 }),
    ];
    for (const [i, f] of files.entries()) {
      setModelClient(inProcessClient(), i + 2);
      await modelStore(i + 2)
        .getState()
        .loadModel(memoryFiles(f, `model ${'CD'[i]}`));
      expect(modelStore(i + 2).getState().load.error).toBeNull();
    }
    useInspector.getState().clearGenerated();
    await idle();
    // Count the requests each slot's worker gets for one edit.
    const asked: Record<number, string[]> = {};
    const clients = [0, 1, 2, 3].map((slot) => modelClient(slot));
    const calls = clients.map((c) => c.call.bind(c));
    clients.forEach((c, slot) => {
      c.call = ((method: string, ...rest: unknown[]) => {
        (asked[slot] ??= []).push(method);
        return (calls[slot] as (...a: unknown[]) => unknown)(method, ...rest);
      }) as typeof c.call;
    });
    try {
      useInspector.getState().setText(MAZE_TEXT.replace('north', 'north '));
      await idle();
    } finally {
      clients.forEach((c, slot) => (c.call = calls[slot]!));
    }
    expect(asked).toEqual({ 0: ['inspect'], 1: ['inspect'], 2: ['inspect'], 3: ['inspect'] });
    const s = useInspector.getState();
    expect(s.analysisError).toBeNull();
    expect(s.results.map((r) => [r.slot ?? 0, r.label])).toEqual([
      [0, 'Clip-12→1'],
      [1, 'Clip-12→1 · model B'],
      [2, 'Clip-12→1 · model C'],
      [3, 'Clip-12→1 · model D'],
    ]);
    for (const [i, f] of files.entries()) {
      const r = s.results[i + 2]!;
      const m = await openModel(memorySource(f));
      const fresh = await analyzePolicy(m, s.parsed.conversation!, 'clip:12:1');
      await m.session.release();
      expect(Math.abs(r.diagonal - fresh.diagonal)).toBeLessThan(1e-6);
      expect(Math.abs(r.ratios.prior - fresh.ratios.prior)).toBeLessThan(1e-6);
    }
    await vi.waitFor(() => expect(useInspector.getState().sweeps.filter(Boolean).length).toBe(4), { timeout: 60_000 });
  });

  it('turning it off shows model A alone again, from what was computed', async () => {
    useInspector.getState().setCompareModels(false);
    await idle();
    const s = useInspector.getState();
    expect(s.results.map((r) => r.slot ?? 0)).toEqual([0]);
  });
});

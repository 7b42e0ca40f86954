import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { withAnswer } from '../../src/analysis/answer';
import { DEMO_MODEL_FILES, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel } from '../../src/runtime/open-model';
import { setModelClient } from '../../src/state/model-client';
import { useInspector } from '../../src/state/inspector-store';
import { useModelBStore, useModelStore } from '../../src/state/model-store';
import { sameTokens } from '../../src/export/figures';
import { inProcessClient, memoryFiles } from '../helpers/in-process-worker';
import { MAZE_TEXT } from '../helpers/maze';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

const idle = () => new Promise<void>((resolve) => {
  const check = () => {
    const s = useInspector.getState();
    const loading = useModelStore.getState().load.status === 'loading' || useModelBStore.getState().load.status === 'loading';
    if (!s.analyzing && !s.sweeping && !loading) setTimeout(() => (useInspector.getState().analyzing ? check() : resolve()), 300);
    else setTimeout(check, 50);
  };
  check();
});

describe('compare models: one conversation, turn and policy scored by two models, each in its own worker', () => {
  const filesA = tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 2, seed: 71 });
  const filesB = new Map(DEMO_MODEL_FILES.map((f) => [f, new Uint8Array(readFileSync(join(DEMO_MODEL_PATH, f)))]));
  beforeAll(async () => {
    setModelClient(inProcessClient(), 'a');
    setModelClient(inProcessClient(), 'b');
    await useModelStore.getState().loadModel(memoryFiles(filesA, 'model A'));
    await useModelBStore.getState().loadModel(memoryFiles(filesB, 'model B'));
    expect(useModelStore.getState().load.error).toBeNull();
    expect(useModelBStore.getState().load.error).toBeNull();
    useInspector.getState().setText(MAZE_TEXT, true);
    await idle();
  });

  it("each model's figures equal its own fresh analysis; their tokenizers differ, so they compare by message", async () => {
    useInspector.getState().setPolicy('clip:12:1');
    useInspector.getState().setCompareModels(true);
    await idle();
    const s = useInspector.getState();
    expect(s.analysisError).toBeNull();
    expect(s.results.map((r) => [r.policy, r.model ?? 'a'])).toEqual([['clip:12:1', 'a'], ['clip:12:1', 'b']]);
    expect(s.results[1]!.label).toBe('Clip-12→1 · model B');
    const conv = s.parsed.conversation!;
    for (const [r, files] of [[s.results[0]!, filesA], [s.results[1]!, filesB]] as const) {
      const m = await openModel(memorySource(files));
      const fresh = await analyzePolicy(m, conv, 'clip:12:1');
      await m.session.release();
      expect(r.layer).toBe(fresh.layer);
      // The tokens-per-round series follows the figures (the analysis sends the scored round first).
      const model = r.model;
      await vi.waitFor(() => expect(useInspector.getState().results.find((x) => x.model === model)!.cost).toEqual(fresh.cost), { timeout: 60_000 });
      expect(Math.abs(r.diagonal - fresh.diagonal)).toBeLessThan(1e-6);
      for (const c of Object.keys(fresh.ratios) as (keyof typeof fresh.ratios)[]) expect(Math.abs(r.ratios[c] - fresh.ratios[c])).toBeLessThan(1e-6);
    }
    expect(sameTokens(s.results[0]!, s.results[1]!)).toBe(false);
    // Model B's rounds sweep (it starts after A's), drawn over A's: one point per scored turn, the last one the turn shown.
    await vi.waitFor(() => expect(useInspector.getState().sweepB).not.toBeNull(), { timeout: 60_000 });
    const b = useInspector.getState().sweepB!.points;
    expect(b.length).toBe(s.sweep!.points.length);
    expect(Math.abs(b[b.length - 1]!.diagonal - s.results[1]!.diagonal)).toBeLessThan(1e-6);
  });

  it("generation: each model writes its own answer under the policy, and each model's figures score its own", async () => {
    await useInspector.getState().generate();
    await idle();
    const s = useInspector.getState();
    const [a, b] = [s.generated['clip:12:1'], s.generatedB['clip:12:1']];
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    const conv = s.parsed.conversation!;
    const turn = s.results[0]!.turn;
    for (const [r, files, answer] of [[s.results[0]!, filesA, a!], [s.results[1]!, filesB, b!]] as const) {
      const m = await openModel(memorySource(files));
      const fresh = await analyzePolicy(m, withAnswer(conv, turn, answer), 'clip:12:1', { turn });
      await m.session.release();
      expect(Math.abs(r.diagonal - fresh.diagonal)).toBeLessThan(1e-6);
      expect(r.messages.find((x) => x.kind === 'current')!.generated).toBe(true);
    }
  });

  it('turning it off shows model A alone again, from what was computed', async () => {
    useInspector.getState().setCompareModels(false);
    await idle();
    const s = useInspector.getState();
    expect(s.results.map((r) => r.model ?? 'a')).toEqual(['a']);
  });
});

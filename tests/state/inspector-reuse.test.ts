import { beforeAll, describe, expect, it, vi } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { turnsSweep } from '../../src/analysis/sweep';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { MemoryLimitError, ModelSession } from '../../src/runtime/ort-runtime';
import { setModelClient } from '../../src/state/model-client';
import { useInspector } from '../../src/state/inspector-store';
import { useModelStore } from '../../src/state/model-store';
import { inProcessClient, memoryFiles } from '../helpers/in-process-worker';
import { MAZE_TEXT } from '../helpers/maze';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

/**
 * The inspector does work once: a change that only re-reads what a pass computed (the radius, the
 * head, a layer the pass fetched, a policy already scored) runs no model pass. Counted, not timed.
 */
const idle = () =>
  new Promise<void>((resolve) => {
    const check = () => {
      const s = useInspector.getState();
      if (!s.analyzing && !s.sweeping && useModelStore.getState().load.status !== 'loading')
        setTimeout(() => {
          const t = useInspector.getState();
          if (!t.analyzing && !t.sweeping) resolve();
          else check();
        }, 400);
      else setTimeout(check, 50);
    };
    check();
  });

describe('the inspector reuses what it computed', () => {
  let passes = 0;
  let counting = true;
  /** Every pass refused, as the memory check refuses a paste too long for the backend. */
  let refuse = false;
  /** The same model, opened here, for independent fresh analyses. */
  let reference: OpenModel;
  beforeAll(async () => {
    // The stores talk to the model worker's host over a MessageChannel, as in the page.
    setModelClient(inProcessClient());
    const files = tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 2, seed: 61 });
    const forward = ModelSession.prototype.forward;
    ModelSession.prototype.forward = function (this: ModelSession, req) {
      if (counting) passes++;
      if (refuse) return Promise.reject(new MemoryLimitError('wasm: needs about 9 GiB for this pass (test refusal)'));
      return forward.call(this, req);
    };
    await useModelStore.getState().loadModel(memoryFiles(files));
    expect(useModelStore.getState().load.error).toBeNull();
    reference = await openModel(memorySource(files), { inspectLayers: 'all' });
    useInspector.getState().setText(MAZE_TEXT, true);
    await idle();
  });

  it('radius, head and layer: no pass; figures equal a fresh analysis', async () => {
    const before = passes;
    const r5 = useInspector.getState().results[0]!;
    expect(useInspector.getState().sweeps[0]!.points.length).toBeGreaterThan(0);
    useInspector.getState().setRadius(1);
    useInspector.getState().setHead(2);
    useInspector.getState().setLayer(0);
    await idle();
    expect(passes).toBe(before);
    const s = useInspector.getState();
    expect(s.results[0]).toMatchObject({ layer: 0, radius: 1 });
    expect(s.sweeps[0]!.radius).toBe(1);
    expect(r5.diagonal).not.toBe(s.results[0]!.diagonal);
    // What was re-read equals a fresh pass at that layer and radius (figures and sweep).
    counting = false;
    const fresh = await analyzePolicy(reference, s.parsed.conversation!, 'full', { layer: 0, radius: 1 });
    expect(Math.abs(fresh.diagonal - s.results[0]!.diagonal)).toBeLessThan(1e-6);
    const sweep = await turnsSweep(reference, s.parsed.conversation!, 'full', { layer: 0, radius: 1 });
    counting = true;
    sweep.forEach((p, i) => expect(Math.abs(p.diagonal - s.sweeps[0]!.points[i]!.diagonal)).toBeLessThan(1e-6));
  });

  it('compare: a new policy costs its own passes only; turning compare off costs none', async () => {
    const before = passes;
    useInspector.getState().setCompare(true); // adds Clip-12→1 beside Full
    await idle();
    expect(useInspector.getState().results.map((r) => r.policy)).toEqual(['full', 'clip:12:1']);
    expect(passes).toBe(before + 1); // Clip's pass; Full and its sweep are reused
    useInspector.getState().setCompare(false);
    await idle();
    expect(passes).toBe(before + 1);
  });

  it('a curve made with heads switched off is not shown as the curve with every head on, nor the other way', async () => {
    // The final layer: a head switched off in layer 0 changes what layer 1 attends to (not layer 0's own pattern).
    useInspector.getState().setLayer(null);
    await idle();
    const on = useInspector.getState().sweeps[0]!;
    expect(on.of[6]).toBe('');
    // Whether the curve on screen ever went while the new one was computed (it must: it is of something else).
    let dropped = false;
    const stop = useInspector.subscribe((st) => (dropped ||= st.sweeps[0] === null));
    useInspector.getState().toggleOff([0, 1]);
    // The new curve is waited for, not only an idle page: on a slow machine the pass may start after the first check.
    await vi.waitFor(() => expect(useInspector.getState().sweeps[0]?.of[6]).toBe('zero:0.1'), { timeout: 60_000 });
    await idle();
    expect(dropped).toBe(true);
    const off = useInspector.getState().sweeps[0]!;
    expect(off.of[6]).toBe('zero:0.1');
    expect(off.points.some((p, i) => p.diagonal !== on.points[i]!.diagonal)).toBe(true);
    dropped = false;
    useInspector.getState().toggleOff([0, 1]);
    await vi.waitFor(() => expect(useInspector.getState().sweeps[0]?.of[6]).toBe(''), { timeout: 60_000 });
    await idle();
    stop();
    expect(dropped).toBe(true);
    expect(useInspector.getState().sweeps[0]!.of[6]).toBe('');
    useInspector.getState().sweeps[0]!.points.forEach((p, i) => expect(p.diagonal).toBe(on.points[i]!.diagonal));
  });

  it('a refused analysis marks the figures on screen as stale: they are of the view before', async () => {
    const before = useInspector.getState().results[0]!;
    refuse = true;
    useInspector.getState().setTurn(2);
    await idle();
    refuse = false;
    const s = useInspector.getState();
    expect(s.analysisError).toContain('test refusal');
    expect(s.stale).toBe(true);
    expect(s.results[0]!.turn).toBe(before.turn); // still the earlier figures, and marked as such
    useInspector.getState().setTurn(null);
    await idle();
    expect(useInspector.getState()).toMatchObject({ stale: false, analysisError: null });
  });
});

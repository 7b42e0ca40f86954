import { beforeAll, describe, expect, it } from 'vitest';
import { headMask, meanBias, withHeadsOff, type HeadRef } from '../../src/analysis/ablation';
import { generateAnswer } from '../../src/analysis/answer';
import { analyzeHeads, headMeans } from '../../src/analysis/heads';
import { parseConversation } from '../../src/conversation/parse';
import { policyCost } from '../../src/context/cost';
import { parsePolicy } from '../../src/context/policy';
import { asRenderer, encodeChat } from '../../src/context/render';
import { CATEGORIES } from '../../src/metrics/categories';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import type { InspectEvent, InspectRequest } from '../../src/worker/api';
import { Inspection } from '../../src/worker/inspection';
import { MAZE_TEXT } from '../helpers/maze';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

const maze = parseConversation(MAZE_TEXT).conversation!;
const turns = maze.messages.filter((m) => m.role === 'assistant').length;

/** A request as the page sends it: Full and AO at the last turn, the final layer, every head on unless `off`. */
const request = (off: HeadRef[], heads = true): InspectRequest => ({
  modelId: 1,
  conversation: maze,
  generated: {},
  policies: ['full', 'ao'],
  turn: turns,
  layer: 1,
  layers: [0, 1],
  radius: 5,
  fullMatrix: false,
  fullMatrixMaxTokens: 4096,
  sweep: null,
  heads,
  contexts: [],
  off,
  offKind: 'zero',
});

async function run(inspection: Inspection, req: InspectRequest): Promise<InspectEvent[]> {
  const events: InspectEvent[] = [];
  await inspection.inspect(req, { emit: (e) => events.push(e), cancelled: () => false, pause: async () => undefined });
  return events;
}

/**
 * One request per slot brings the layers × heads grid after the figures, and runs every pass with the
 * request's heads switched off: the figures equal those of a session whose head mask is set directly (the
 * CLI's --ablate path), and results made with every head on are never served to a request with heads off.
 */
describe("the worker's inspection: every layer and head, and heads switched off", () => {
  const files = tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 2, seed: 83 });
  let model: OpenModel;
  let masked: OpenModel;
  const off: HeadRef[] = [
    [0, 1],
    [0, 3],
  ];
  beforeAll(async () => {
    model = await openModel(memorySource(files), { headFigures: true, inspectLayers: 'all' });
    // The independent path: another session of the same files, its head mask set once (as --ablate does).
    masked = await openModel(memorySource(files), { headFigures: true, inspectLayers: 'all' });
    masked.session.headMask = headMask(off, 2, 4);
  });

  it("brings each policy's figures, then its grid, equal to analyzeHeads on the same model", async () => {
    const events = await run(new Inspection(model), request([]));
    expect(events.map((e) => e.kind)).toEqual(['figures', 'heads', 'heads', 'cost', 'cost']);
    const grid = events.find((e) => e.kind === 'heads' && e.policy === 'ao') as Extract<InspectEvent, { kind: 'heads' }>;
    const direct = await analyzeHeads(model, maze, 'ao', { turn: turns, radius: 5 });
    expect(grid.layers).toEqual(direct);
    expect(grid.layers).toHaveLength(2);
    expect(grid.layers[0]!.perHead).toHaveLength(4);
  });

  it('with heads off, the figures and the grid are those of a session masked directly, and differ from every head on', async () => {
    const inspection = new Inspection(model);
    const on = await run(inspection, request([]));
    const withOff = await run(inspection, request(off));
    const again = await run(inspection, request([]));
    const figures = (events: InspectEvent[]) => (events[0] as Extract<InspectEvent, { kind: 'figures' }>).results;
    const ref = await run(new Inspection(masked), request([]));
    expect(figures(withOff).map((r) => r.headsOff)).toEqual([
      ['0.1', '0.3'],
      ['0.1', '0.3'],
    ]);
    expect(figures(on)[0]!.headsOff).toBeUndefined();
    for (const [k, r] of figures(withOff).entries()) {
      const want = figures(ref)[k]!;
      for (const c of CATEGORIES) expect(Math.abs(r.ratios[c] - want.ratios[c])).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(r.diagonal - want.diagonal)).toBeLessThanOrEqual(1e-6);
    }
    const change = Math.max(...CATEGORIES.map((c) => Math.abs(figures(withOff)[0]!.ratios[c] - figures(on)[0]!.ratios[c])));
    expect(change).toBeGreaterThan(1e-4);
    // Every head on again: the first figures exactly, not the masked ones kept under the same conversation.
    const read = (events: InspectEvent[]) => figures(events).map((r) => ({ ratios: r.ratios, diagonal: r.diagonal, heads: r.perHead.map((h) => h.diagonal) }));
    expect(read(again)).toEqual(read(on));
    const grid = (events: InspectEvent[]) => (events.find((e) => e.kind === 'heads') as Extract<InspectEvent, { kind: 'heads' }>).layers;
    // Layer 0's own attention is computed before its heads' outputs are dropped: unchanged. Layer 1 reads what is left.
    expect(grid(withOff)[0]).toEqual(grid(on)[0]);
    expect(grid(withOff)[1]).not.toEqual(grid(on)[1]);
  });

  it('mean ablation: the figures are those of a session whose switched-off heads write their mean output over the conversation', async () => {
    const events = await run(new Inspection(model), { ...request(off), offKind: 'mean' });
    const figures = (events[0] as Extract<InspectEvent, { kind: 'figures' }>).results;
    expect(figures[0]!.headsOffBy).toBe('mean');
    const means = await headMeans(model, maze, { turn: turns });
    const direct = await openModel(memorySource(files), { headFigures: true, inspectLayers: 'all' });
    direct.session.headMask = headMask(off, 2, 4);
    direct.session.headBias = meanBias(off, means, 4, direct.session.spec.headDim);
    const want = (await run(new Inspection(direct), request([])))[0] as Extract<InspectEvent, { kind: 'figures' }>;
    for (const [k, r] of figures.entries()) expect(Math.abs(r.diagonal - want.results[k]!.diagonal)).toBeLessThanOrEqual(1e-6);
    // Not zero ablation's figures.
    const zero = ((await run(new Inspection(model), request(off)))[0] as Extract<InspectEvent, { kind: 'figures' }>).results;
    expect(Math.abs(zero[0]!.diagonal - figures[0]!.diagonal)).toBeGreaterThan(1e-5);
    await direct.session.release();
  });

  it('sends the tokens-per-turn series of the policies in the table of what each keeps, equal to the cost of each rendered context', async () => {
    const events = await run(new Inspection(model), { ...request([], false), contexts: ['window:6', 'lt', 'de'] });
    const costs = events.filter((e): e is Extract<InspectEvent, { kind: 'cost' }> => e.kind === 'cost');
    expect(costs.map((e) => e.policy)).toEqual(['full', 'ao', 'window:6', 'lt', 'de']);
    const renderer = asRenderer(model.tokenizer);
    for (const e of costs) {
      const want = policyCost(maze, turns, parsePolicy(e.policy), (m, g) => encodeChat(renderer, m, g));
      expect(e.cost, e.policy).toEqual(want);
    }
    // DE reads no earlier turn: fewer tokens than LT (the last one), which reads fewer than Full at the last turn.
    const at = (p: string) => costs.find((e) => e.policy === p)!.cost[turns - 1]!.contextTokens;
    expect(at('de')).toBeLessThan(at('lt'));
    expect(at('lt')).toBeLessThan(at('full'));
  });

  it('sends the sweep over turns as it goes: each progress event brings the points so far, the last equal to the sweep', async () => {
    const events = await run(new Inspection(model), { ...request([], false), policies: ['full'], sweep: 'full' });
    const progress = events.filter((e): e is Extract<InspectEvent, { kind: 'sweeping' }> => e.kind === 'sweeping');
    const sweep = events.find((e): e is Extract<InspectEvent, { kind: 'sweep' }> => e.kind === 'sweep')!;
    expect(progress.length).toBe(turns - 1);
    progress.forEach((e, i) => expect(e.points).toHaveLength(i + 1));
    expect(progress[progress.length - 1]!.points).toEqual(sweep.points);
  });

  it('names a head the model does not have', async () => {
    await expect(run(new Inspection(model), request([[2, 0]]))).rejects.toThrow('head 2.0: this model has layers 0..1 and heads 0..3');
  });

  it('generation with heads off writes what the directly masked session writes', async () => {
    const a = await generateAnswer(withHeadsOff(model, off), maze, 'full', turns, { maxTokens: 12 });
    const b = await generateAnswer(masked, maze, 'full', turns, { maxTokens: 12 });
    expect(a).toBe(b);
  });
});

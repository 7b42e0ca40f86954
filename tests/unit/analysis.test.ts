import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePolicy, roundsSweep, SummaryCache } from '../../src/analysis/analyze';
import { greedyGenerate } from '../../src/analysis/generate';
import { parseConversation } from '../../src/conversation/parse';
import { referenceForward } from '../../src/model/reference';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { memorySource } from '../helpers/memory-source';
import { MAZE_TEXT } from '../helpers/maze';
import { tinyModelFiles } from '../helpers/tiny-model';

const conv = parseConversation(MAZE_TEXT).conversation!;

describe('analysis on a real (tiny) model against the float64 reference', () => {
  let model: OpenModel;
  beforeAll(async () => {
    model = await openModel(memorySource(tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, seed: 51 })), { inspectLayers: [0, 1] });
  });

  for (const spec of ['full', 'clip:3:1', 'ao', 'filler']) {
    it(`${spec}: ratios, diagonal and per-head figures equal loops over the reference attention`, async () => {
      const r = await analyzePolicy(model, conv, spec, { radius: 5 });
      const ids = r.tokens.map((t) => t.id);
      const { spec: s } = model.checkpoint;
      const ref = (await referenceForward(s, model.weights, ids)).attention; // [H, S, S]
      const S = ids.length;
      const H = s.numHeads;
      const rows = Array.from({ length: r.query.end - r.query.start }, (_, i) => r.query.start + i);
      const mean = (q: number, k: number) => Array.from({ length: H }, (_, h) => ref[(h * S + q) * S + k]!).reduce((a, b) => a + b, 0) / H;
      for (const cat of ['sink', 'system', 'user', 'prior', 'current'] as const) {
        let want = 0;
        for (const q of rows) for (let k = 0; k < S; k++) if (r.tokens[k]!.category === cat) want += mean(q, k) / rows.length;
        expect(Math.abs(r.ratios[cat] - want)).toBeLessThan(1e-5);
      }
      let diag = 0;
      rows.forEach((q, i) => {
        for (const m of r.messages.filter((x) => x.category === 'prior')) {
          for (let j = Math.max(0, i - 5); j <= Math.min(m.content.length - 1, i + 5); j++) diag += mean(q, m.content.start + j) / rows.length;
        }
      });
      expect(Math.abs(r.diagonal - diag)).toBeLessThan(1e-5);
      let head1Prior = 0;
      for (const q of rows) for (let k = 0; k < S; k++) if (r.tokens[k]!.category === 'prior') head1Prior += ref[(1 * S + q) * S + k]! / rows.length;
      expect(Math.abs(r.perHead[1]!.ratios.prior - head1Prior)).toBeLessThan(1e-5);
      expect(r.ratios.sink + r.ratios.system + r.ratios.user + r.ratios.prior + r.ratios.current).toBeCloseTo(1, 5);
      expect(r.diagonal).toBeLessThanOrEqual(r.ratios.prior + 1e-9);
      expect(r.perMessage.reduce((a, m) => a + m.mass, 0)).toBeCloseTo(1, 5);
      // The query rows are exactly the current answer's content.
      expect(model.tokenizer.decode(ids.slice(r.query.start, r.query.end))).toBe(conv.messages[conv.messages.length - 1]!.content);
    });
  }

  it('scores an earlier turn and ignores what follows', async () => {
    const r = await analyzePolicy(model, conv, 'full', { turn: 2, layer: 0 });
    expect(r.turn).toBe(2);
    expect(r.layer).toBe(0);
    expect(model.tokenizer.decode(r.tokens.slice(r.query.start, r.query.end).map((t) => t.id))).toBe('Thought: keep going east.\nAction: east');
    expect(r.messages.map((m) => m.kind)).toEqual(['system', 'user', 'assistant', 'user', 'current']);
  });

  it('r = ∞ makes the diagonal equal the attention to earlier answers’ content', async () => {
    const r = await analyzePolicy(model, conv, 'full', { radius: Infinity });
    const content = r.messages.filter((m) => m.category === 'prior').reduce((a, m) => a + r.perMessage[r.messages.indexOf(m)]!.mass, 0);
    expect(r.diagonal).toBeLessThanOrEqual(content + 1e-9);
    expect(r.diagonalPerAnswer).toHaveLength(3);
  });

  it('generates missing summaries greedily with paper 1’s prompt and marks them generated', async () => {
    const cache = new SummaryCache(model, conv);
    const r = await analyzePolicy(model, conv, 'sum', {}, cache);
    const summaries = r.messages.filter((m) => m.kind === 'summary');
    expect(summaries).toHaveLength(3);
    expect(summaries.every((m) => m.generated)).toBe(true);
    // Greedy decoding's first tokens are the reference's argmax, step by step.
    const prompt = model.tokenizer.encode(model.tokenizer.render([{ role: 'user', content: 'Summarize the following assistant response in exactly one sentence: hi' }], true));
    const got = await greedyGenerate(model.session, prompt, { maxTokens: 3, stopIds: [] });
    const ids = [...prompt];
    for (const g of got) {
      const logits = (await referenceForward(model.checkpoint.spec, model.weights, ids)).logits.subarray((ids.length - 1) * 259);
      expect(g).toBe(logits.indexOf(Math.max(...logits)));
      ids.push(g);
    }
  });

  it('sweeps the rounds: one point per turn t ≥ 2', async () => {
    const points = await roundsSweep(model, conv, 'full');
    expect(points.map((p) => p.turn)).toEqual([2, 3, 4]);
    expect(points[0]!.tokens).toBeLessThan(points[2]!.tokens);
  });

  it('awaits the pause hook before every turn, and a cancellation seen after a pause stops the sweep', async () => {
    const log: string[] = [];
    let stop = false;
    const pause = async () => {
      log.push('pause');
      await new Promise((r) => setTimeout(r, 0));
    };
    const points = await roundsSweep(model, conv, 'full', { pause, onTurn: (d) => log.push(`turn ${d}`), cancelled: () => stop });
    expect(points).toHaveLength(3);
    expect(log).toEqual(['pause', 'turn 1', 'pause', 'turn 2', 'pause', 'turn 3']);
    let pauses = 0;
    // A newer request arrives while the page paints before the second turn: only the first turn is scored.
    const cut = await roundsSweep(model, conv, 'full', { pause: async () => void (stop = ++pauses === 2), cancelled: () => stop });
    expect(cut.map((p) => p.turn)).toEqual([2]);
  });
});

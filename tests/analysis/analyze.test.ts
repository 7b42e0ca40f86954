import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePolicy, analyzePolicyLayers, SummaryCache } from '../../src/analysis/analyze';
import { turnsSweep } from '../../src/analysis/sweep';
import { atRadius, sweepAtRadius } from '../../src/analysis/rescore';
import type { SweepRows } from '../../src/analysis/sweep-rows';
import { greedyGenerate } from '../../src/analysis/generate';
import { parseConversation } from '../../src/conversation/parse';
import { referenceForward } from '../../src/model/graph/reference';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { memorySource } from '../helpers/memory-source';
import { MAZE_TEXT } from '../helpers/maze';
import { shippedFiles } from '../helpers/real-tokenizers';
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
    const prompt = model.tokenizer.encode(
      model.tokenizer.render([{ role: 'user', content: 'Summarize the following assistant response in exactly one sentence: hi' }], true),
    );
    const got = await greedyGenerate(model.session, prompt, { maxTokens: 3, stopIds: [] });
    const ids = [...prompt];
    for (const g of got) {
      const logits = (await referenceForward(model.checkpoint.spec, model.weights, ids)).logits.subarray((ids.length - 1) * 259);
      expect(g).toBe(logits.indexOf(Math.max(...logits)));
      ids.push(g);
    }
  });

  it('sweeps the turns: one point per turn t ≥ 2', async () => {
    const points = await turnsSweep(model, conv, 'full');
    expect(points.map((p) => p.turn)).toEqual([2, 3, 4]);
    expect(points[0]!.tokens).toBeLessThan(points[2]!.tokens);
    // Each point's chance, counted by hand from that turn's own analysis: every answer row shares its weight evenly
    // over itself and the tokens before it, so the prior assistant answers get their part of those.
    for (const p of points) {
      const r = await analyzePolicy(model, conv, 'full', { turn: p.turn });
      let sum = 0;
      for (let q = r.query.start; q < r.query.end; q++) sum += r.tokens.slice(0, q + 1).filter((t) => t.category === 'prior').length / (q + 1);
      expect(p.chance.prior).toBeCloseTo(sum / (r.query.end - r.query.start), 12);
      expect(Object.values(p.chance).reduce((x, v) => x + v, 0)).toBeCloseTo(1, 12);
    }
  });

  it('awaits the pause hook before every turn, and a cancellation seen after a pause stops the sweep', async () => {
    const log: string[] = [];
    let stop = false;
    const pause = async () => {
      log.push('pause');
      await new Promise((r) => setTimeout(r, 0));
    };
    const points = await turnsSweep(model, conv, 'full', { pause, onTurn: (d) => log.push(`turn ${d}`), cancelled: () => stop });
    expect(points).toHaveLength(3);
    expect(log).toEqual(['pause', 'turn 1', 'pause', 'turn 2', 'pause', 'turn 3']);
    let pauses = 0;
    // A newer request arrives while the page paints before the second turn: only the first turn is scored.
    const cut = await turnsSweep(model, conv, 'full', { pause: async () => void (stop = ++pauses === 2), cancelled: () => stop });
    expect(cut.map((p) => p.turn)).toEqual([2]);
  });
});

describe('work done once: figures re-read from what a pass kept', () => {
  let model: OpenModel;
  beforeAll(async () => {
    model = await openModel(memorySource(tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 3, seed: 52 })), { inspectLayers: 'all' });
  });
  const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(1e-6);

  it('one pass for every layer gives what one pass per layer gives', async () => {
    const all = await analyzePolicyLayers(model, conv, 'full', [0, 1, 2], { keepAttention: 'answer' });
    for (const r of all) {
      const one = await analyzePolicy(model, conv, 'full', { layer: r.layer });
      close(r.diagonal, one.diagonal);
      for (const c of ['sink', 'system', 'user', 'prior', 'current'] as const) close(r.ratios[c], one.ratios[c]);
      r.perHead.forEach((h, i) => close(h.diagonal, one.perHead[i]!.diagonal));
    }
  });

  it('another radius, re-read from the kept attention, equals a new analysis at that radius (answer rows and full matrix)', async () => {
    for (const keepAttention of ['answer', 'all'] as const) {
      const r5 = await analyzePolicy(model, conv, 'full', { radius: 5, keepAttention });
      for (const radius of [0, 2, Infinity]) {
        const re = atRadius(r5, radius)!;
        const fresh = await analyzePolicy(model, conv, 'full', { radius });
        expect(re.radius).toBe(radius);
        close(re.diagonal, fresh.diagonal);
        re.diagonalPerAnswer.forEach((d, i) => close(d.value, fresh.diagonalPerAnswer[i]!.value));
        re.perHead.forEach((h, i) => close(h.diagonal, fresh.perHead[i]!.diagonal));
      }
    }
    expect(atRadius({ ...(await analyzePolicy(model, conv, 'full')), attention: undefined }, 2)).toBeNull(); // nothing kept: score again
  });

  it('under Full the whole sweep over turns is one pass, equal to a pass per turn within 1e-5; other policies one per turn', async () => {
    let passes = 0;
    const counting = {
      ...model,
      session: Object.assign(Object.create(model.session), {
        forward: (req: Parameters<typeof model.session.forward>[0]) => (passes++, model.session.forward(req)),
      }),
    };
    const swept = await turnsSweep(counting, conv, 'full', { radius: 5 });
    expect(passes).toBe(1);
    expect(swept.map((p) => p.turn)).toEqual([2, 3, 4]);
    for (const p of swept) {
      const own = await analyzePolicy(model, conv, 'full', { turn: p.turn, radius: 5 });
      expect(p.tokens).toBe(own.tokens.length);
      expect(Math.abs(p.diagonal - own.diagonal)).toBeLessThan(1e-5);
      for (const c of ['sink', 'system', 'user', 'prior', 'current'] as const) expect(Math.abs(p.ratios[c] - own.ratios[c])).toBeLessThan(1e-5);
      expect([p.contextTokens, p.prefilled]).toEqual([own.cost[own.cost.length - 1]!.contextTokens, own.cost[own.cost.length - 1]!.prefilled]);
    }
    passes = 0;
    await turnsSweep(counting, conv, 'window:1', {});
    expect(passes).toBe(3);
  });

  it("under Full the analysis's own pass serves its sweep over turns: one pass in all, points equal a pass per turn, the result's buffers the page's alone", async () => {
    let passes = 0;
    const counting = {
      ...model,
      session: Object.assign(Object.create(model.session), {
        forward: (req: Parameters<typeof model.session.forward>[0]) => (passes++, model.session.forward(req)),
      }),
    };
    for (const keep of ['answer', 'all'] as const) {
      passes = 0;
      const [last] = await analyzePolicyLayers(counting, conv, 'full', [1], { radius: 5, keepAttention: keep });
      // The worker transfers the result's attention to the page: the sweep must not read those buffers.
      structuredClone(last!.attention!.mean.data.buffer, { transfer: [last!.attention!.mean.data.buffer as ArrayBuffer] });
      const swept = await turnsSweep(counting, conv, 'full', { radius: 5, layer: 1, known: { ...last!, attention: undefined } });
      expect(passes).toBe(1);
      expect(swept.map((p) => p.turn)).toEqual([2, 3, 4]);
      for (const p of swept.slice(0, -1)) {
        const own = await analyzePolicy(model, conv, 'full', { turn: p.turn, radius: 5, layer: 1 });
        expect(Math.abs(p.diagonal - own.diagonal)).toBeLessThan(1e-5);
        for (const c of ['sink', 'system', 'user', 'prior', 'current'] as const) expect(Math.abs(p.ratios[c] - own.ratios[c])).toBeLessThan(1e-5);
      }
    }
  });

  it('a conversation that grows by a turn: its pass under Full starts from the shared prefix, and its sweep still needs none', async () => {
    const fed: number[] = [];
    const counting = {
      ...model,
      session: Object.assign(Object.create(model.session), {
        forward: (req: Parameters<typeof model.session.forward>[0]) => (fed.push(req.ids.length), model.session.forward(req)),
      }),
    };
    const earlier = await analyzePolicy(counting, conv, 'full', { turn: 3, layer: 1 });
    const [later] = await analyzePolicyLayers(counting, conv, 'full', [1], { turn: 4, radius: 5 });
    // Turn 3's conversation is a prefix of turn 4's: the kept rows of its answers serve, so the pass runs on what is new.
    expect(fed[1]!).toBeLessThan(later!.tokens.length - earlier.tokens.length / 2);
    const swept = await turnsSweep(counting, conv, 'full', { radius: 5, layer: 1, known: later });
    expect(fed.length).toBe(2);
    for (const p of swept.slice(0, -1)) {
      const own = await analyzePolicy(model, conv, 'full', { turn: p.turn, radius: 5, layer: 1 });
      expect(Math.abs(p.diagonal - own.diagonal)).toBeLessThan(1e-5);
      for (const c of ['sink', 'system', 'user', 'prior', 'current'] as const) expect(Math.abs(p.ratios[c] - own.ratios[c])).toBeLessThan(1e-5);
    }
  });

  it("falls back to a pass per turn where earlier turns render differently (Qwen3's template adds a think block to the scored answer only)", async () => {
    const files = tinyModelFiles({ family: 'qwen3', hidden: 16, heads: 2, kvHeads: 1, headDim: 8, intermediate: 16, vocab: 151_936, seed: 53 });
    const { json, config } = shippedFiles('qwen3');
    files.set('tokenizer.json', new TextEncoder().encode(JSON.stringify(json)));
    files.set('tokenizer_config.json', new TextEncoder().encode(JSON.stringify(config)));
    const qwen = await openModel(memorySource(files));
    let passes = 0;
    const counting = {
      ...qwen,
      session: Object.assign(Object.create(qwen.session), {
        forward: (req: Parameters<typeof qwen.session.forward>[0]) => (passes++, qwen.session.forward(req)),
      }),
    };
    const swept = await turnsSweep(counting, conv, 'full', {});
    expect(passes).toBe(swept.length); // no turn's tokens are a prefix of the last turn's
    await qwen.session.release();
  });

  it('a pass over tokens that share a prefix with the last runs on the new tokens only, from its cache; figures equal a fresh pass', async () => {
    const fed: number[] = [];
    const counting = {
      ...model,
      session: Object.assign(Object.create(model.session), {
        forward: (req: Parameters<typeof model.session.forward>[0]) => (fed.push(req.ids.length), model.session.forward(req)),
      }),
    };
    const full = await analyzePolicy(counting, conv, 'full', { turn: 3 });
    const later = await analyzePolicy(counting, conv, 'full', { turn: 4 }); // turn 3's conversation is a prefix of turn 4's
    expect(fed[1]!).toBeLessThan(later.tokens.length);
    const fresh = await analyzePolicy({ ...model, session: Object.create(model.session) }, conv, 'full', { turn: 4 }); // a session object with no cache yet: a whole pass
    expect(Math.abs(later.diagonal - fresh.diagonal)).toBeLessThan(1e-5);
    for (const c of ['sink', 'system', 'user', 'prior', 'current'] as const) expect(Math.abs(later.ratios[c] - fresh.ratios[c])).toBeLessThan(1e-5);
    expect(full.turn).toBe(3);
  });

  it('a pass under another policy in between does not cost Full its prefix: one cache is kept per kind of policy', async () => {
    const fed: number[] = [];
    const counting = {
      ...model,
      session: Object.assign(Object.create(model.session), {
        forward: (req: Parameters<typeof model.session.forward>[0]) => (fed.push(req.ids.length), model.session.forward(req)),
      }),
    };
    const earlier = await analyzePolicy(counting, conv, 'full', { turn: 3 });
    await analyzePolicy(counting, conv, 'ao', { turn: 4 }); // these two share little with Full's tokens
    await analyzePolicy(counting, conv, 'window:1', { turn: 4 });
    const later = await analyzePolicy(counting, conv, 'full', { turn: 4 });
    expect(fed[3]!).toBeLessThan(later.tokens.length - earlier.tokens.length / 2);
    const fresh = await analyzePolicy({ ...model, session: Object.create(model.session) }, conv, 'full', { turn: 4 });
    expect(Math.abs(later.diagonal - fresh.diagonal)).toBeLessThan(1e-5);
  });

  it("the sweep over turns keeps each turn's rows: another radius re-reads every point", async () => {
    const keepRows = new Map<number, SweepRows>();
    const at5 = await turnsSweep(model, conv, 'full', { radius: 5, keepRows });
    const at1 = await turnsSweep(model, conv, 'full', { radius: 1 });
    const re = sweepAtRadius(at5, keepRows, 1)!;
    re.forEach((p, i) => close(p.diagonal, at1[i]!.diagonal));
  });
});

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { DEMO_MODEL_PATH } from '../../src/model/demo';
import { referenceForward } from '../../src/model/graph/reference';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { median } from '../../src/metrics/stats';
import { heldOutContinuations, heldOutEpisodeFigures, heldOutEpisodes, inertiaFigures, mazeExample, type InertiaFigures } from '../../training/figures';
import { summaryOf } from '../../training/data';
import { SummaryCache } from '../../src/analysis/analyze';
import { maxAbsDiff } from '../helpers/compare';

/**
 * The committed demo model: what it shows (issue 4), measured with the analysis pipeline itself, at the
 * issue's thresholds (the figures are deterministic for a given checkpoint; the margins are in the model
 * card). On held-out episodes, issue 16's targets: full ÷ filler ≥ 2× and ρ ≥ 0.8 as medians (measured ×11.3, 0.926).
 */
describe('the embedded demo model', () => {
  let model: OpenModel;
  let figures: InertiaFigures;
  beforeAll(async () => {
    model = await openModel(dirSource(DEMO_MODEL_PATH));
    figures = await inertiaFigures(model);
  });

  it('is a llama checkpoint in Hugging Face layout, all files together ≤ 25 MB', () => {
    const files = readdirSync(DEMO_MODEL_PATH);
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors', 'README.md']) expect(files).toContain(f);
    const bytes = files.reduce((n, f) => n + statSync(join(DEMO_MODEL_PATH, f)).size, 0);
    expect(bytes).toBeLessThanOrEqual(25 * 1024 * 1024);
    expect(model.checkpoint.spec.family).toBe('llama');
  });

  it("reproduces the training script's own logits on the fixed input to 1e-4", async () => {
    const fx = JSON.parse(readFileSync('tests/fixtures/demo-forward.json', 'utf8')) as { ids: number[]; positions: number[]; logits: number[][] };
    const out = await model.session.forward({ ids: fx.ids, logitRows: [fx.positions[0]!, fx.positions[fx.positions.length - 1]! + 1], layers: [] });
    const d = maxAbsDiff(out.logits!.data, fx.logits.flat());
    console.log(`demo model: max |Δ| logits, ONNX graph vs train.py = ${d.toExponential(2)}`);
    expect(d).toBeLessThanOrEqual(1e-4);
    // and the float64 reference agrees with both
    const ref = (await referenceForward(model.checkpoint.spec, model.weights, fx.ids)).logits;
    const V = model.checkpoint.spec.vocabSize;
    expect(maxAbsDiff(ref.subarray(fx.positions[0]! * V), fx.logits.flat())).toBeLessThanOrEqual(1e-4);
  });

  it('continues held-out conversations in the format it was taught', async () => {
    const c = await heldOutContinuations(model);
    console.log(`demo model: ${c.wellFormed}/${c.total} held-out continuations well-formed, ${c.exact} exact`);
    expect(c.wellFormed / c.total).toBeGreaterThanOrEqual(0.8);
  });

  it('attends to the content of its earlier answers: diagonal ratio ≥ 2× that on filler of the same length', () => {
    console.log(
      `demo model: diagonal full ${figures.diagonalFull.toFixed(4)}, filler ${figures.diagonalFiller.toFixed(4)}, ×${(figures.diagonalFull / figures.diagonalFiller).toFixed(2)}`,
    );
    expect(figures.diagonalFull).toBeGreaterThanOrEqual(2 * figures.diagonalFiller);
  });

  it('over the turns, the prior-answer share rises with the turn (ρ ≥ 0.8) and faster than the user share (paper 2 Fig. 2)', () => {
    console.log(`demo model: prior ρ ${figures.priorSpearman.toFixed(3)}, slopes prior ${figures.priorSlope.toFixed(4)} user ${figures.userSlope.toFixed(4)}`);
    expect(figures.priorSpearman).toBeGreaterThanOrEqual(0.8);
    expect(figures.priorSlope).toBeGreaterThan(0);
    expect(figures.userSlope).toBeLessThan(figures.priorSlope);
  });

  it('shows the same on maze episodes it never saw, not only on the example', async () => {
    const eps = await heldOutEpisodeFigures(model);
    const rho = eps.map((e) => e.priorSpearman);
    const ratio = eps.map((e) => e.fillerRatio);
    console.log(
      `demo model, ${eps.length} held-out episodes: prior ρ median ${median(rho).toFixed(3)} (min ${Math.min(...rho).toFixed(3)}), full ÷ filler median ${median(ratio).toFixed(2)}`,
    );
    expect(median(rho)).toBeGreaterThanOrEqual(0.8);
    expect(median(ratio)).toBeGreaterThanOrEqual(2);
  });

  it("summarises its own answers with paper 1's prompt, naming the cell and the move (SUM and Summary score real summaries)", async () => {
    // The maze example and four held-out episodes: 69 answers.
    let n = 0,
      formed = 0,
      cell = 0,
      move = 0;
    const cellOf = (t: string) => /cell (\d+)/.exec(t)?.[1];
    const moveOf = (t: string) => /(moved \w+|reached the goal)/.exec(t)?.[1];
    for (const conv of [mazeExample(), ...heldOutEpisodes(4).map((e) => e.conv)]) {
      const answers = conv.messages.map((m, i) => (m.role === 'assistant' ? i : -1)).filter((i) => i >= 0);
      const summaries = new SummaryCache(model, conv);
      await summaries.ensure(answers);
      for (const i of answers) {
        const got = summaries.get(i)!.text;
        const want = summaryOf(conv.messages[i]!.content);
        n++;
        if (/^At cell \d+ the agent (moved (north|south|east|west)|reached the goal)\.$/.test(got)) formed++;
        if (cellOf(got) === cellOf(want)) cell++;
        if (moveOf(got) === moveOf(want)) move++;
      }
    }
    console.log(`demo model: ${n} summaries, ${formed} in form, the right cell in ${cell}, the right move in ${move}`);
    // One of 69 is out of form (a goal-reached answer summarised as "moved the goal"): see the model card.
    expect(formed / n).toBeGreaterThanOrEqual(0.95);
    expect(cell / n).toBeGreaterThanOrEqual(0.75);
    expect(move / n).toBeGreaterThanOrEqual(0.75);
  });

  it('Clip lowers the mean diagonal ratio over the turns', () => {
    console.log(`demo model: mean diagonal ${JSON.stringify(figures.meanDiagonal)}`);
    expect(figures.meanDiagonal['clip:12:1']!).toBeLessThan(figures.meanDiagonal.full!);
    expect(figures.meanDiagonal['clip:6:1']!).toBeLessThan(figures.meanDiagonal.full!);
  });

  it('ships example conversations that parse: a maze of ≥ 10 turns, arithmetic, mixed chat', () => {
    for (const f of ['maze', 'arithmetic', 'mixed-chat']) {
      const r = parseConversation(readFileSync(`examples/${f}.json`, 'utf8'));
      expect(r.conversation, f).not.toBeNull();
      if (f === 'maze') expect(r.conversation!.messages.filter((m) => m.role === 'assistant').length).toBeGreaterThanOrEqual(10);
    }
  });
});

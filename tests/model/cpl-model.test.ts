import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dirSource } from '../../src/cli/dir-source';
import { CPL_DE_MODEL_PATH, CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { change, cplAttention, medianChange } from '../../training/cpl-figures';
import { heldOutContinuations } from '../../training/figures';
import { maxAbsDiff } from '../helpers/compare';

/** The largest gap between a model's logits and the ones its training script wrote for a fixed input (`path`). */
async function fixtureGap(model: OpenModel, path: string): Promise<number> {
  const fx = JSON.parse(readFileSync(path, 'utf8')) as { ids: number[]; positions: number[]; logits: number[][] };
  const out = await model.session.forward({ ids: fx.ids, logitRows: [fx.positions[0]!, fx.positions[fx.positions.length - 1]! + 1], layers: [] });
  return maxAbsDiff(out.logits!.data, fx.logits.flat());
}

/**
 * The committed CPL-tuned demo model against the base demo model (paper 2 Fig. 7 at demo scale),
 * measured with the analysis pipeline itself. The figures are deterministic for a given checkpoint;
 * the thresholds leave the margins stated in its model card.
 */
describe('the CPL-tuned demo model', () => {
  let base: OpenModel;
  let cpl: OpenModel;
  let a: Awaited<ReturnType<typeof cplAttention>>;
  let b: Awaited<ReturnType<typeof cplAttention>>;
  beforeAll(async () => {
    base = await openModel(dirSource(DEMO_MODEL_PATH));
    cpl = await openModel(dirSource(CPL_MODEL_PATH));
    a = await cplAttention(base);
    b = await cplAttention(cpl);
  });

  it("reproduces the training script's own logits (the merged LoRA weights) to 1e-4", async () => {
    expect(existsSync(`${CPL_MODEL_PATH}/README.md`)).toBe(true);
    expect(await fixtureGap(cpl, 'tests/fixtures/cpl-forward.json')).toBeLessThanOrEqual(1e-4);
  });

  // The figures are deterministic for the checkpoint. Paper 2 reports −10% or more under every policy;
  // this twin falls short under Full and under Clip on held-out episodes (its model card), and the
  // thresholds pin what it does, not the paper's figure.
  it('lowers the diagonal ratio under Full, more than the prior-assistant share (measured: example −5.3% against −3.7%, held-out median −7.2% against −4.8%)', () => {
    const d = (x: typeof a) => x.episodes.map((e) => e.diagonal.full!);
    const p = (x: typeof a) => x.episodes.map((e) => e.prior.full!);
    expect(change(a.example.diagonal.full!, b.example.diagonal.full!)).toBeLessThan(-0.03);
    expect(change(a.example.diagonal.full!, b.example.diagonal.full!)).toBeLessThan(change(a.example.prior.full!, b.example.prior.full!));
    expect(medianChange(d(a), d(b))).toBeLessThan(-0.05);
    expect(medianChange(d(a), d(b))).toBeLessThan(medianChange(p(a), p(b)));
  });

  it('lowers the diagonal ratio under Clip-12→1 (measured: example −11.9%, held-out median −7.2%)', () => {
    expect(change(a.example.diagonal['clip:12:1']!, b.example.diagonal['clip:12:1']!)).toBeLessThan(-0.08);
    expect(
      medianChange(
        a.episodes.map((e) => e.diagonal['clip:12:1']!),
        b.episodes.map((e) => e.diagonal['clip:12:1']!),
      ),
    ).toBeLessThan(-0.05);
  });

  it('still continues its formats, mostly (measured 23 of 24; the base model 24)', async () => {
    const c = await heldOutContinuations(cpl);
    expect(c.wellFormed).toBeGreaterThanOrEqual(20);
  });
});

/** The second twin (trained toward the answer with no earlier turn, DE): the lesson counts its moves at the wall. */
describe('the second twin, trained toward DE', () => {
  let twin: OpenModel;
  beforeAll(async () => {
    twin = await openModel(dirSource(CPL_DE_MODEL_PATH));
  });

  it("reproduces the training script's own logits (the merged LoRA weights) to 1e-4", async () => {
    expect(existsSync(`${CPL_DE_MODEL_PATH}/README.md`)).toBe(true);
    expect(await fixtureGap(twin, 'tests/fixtures/cpl-de-forward.json')).toBeLessThanOrEqual(1e-4);
  });

  it('still continues its formats, mostly', async () => {
    const c = await heldOutContinuations(twin);
    expect(c.wellFormed).toBeGreaterThanOrEqual(20);
  });
});

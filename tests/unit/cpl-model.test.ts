import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dirSource } from '../../src/cli/dir-source';
import { CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { change, cplAttention, medianChange } from '../../training/cpl-figures';
import { heldOutContinuations } from '../../training/figures';
import { maxAbsDiff } from '../helpers/compare';

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
    const fx = JSON.parse(readFileSync('tests/fixtures/cpl-forward.json', 'utf8')) as { ids: number[]; positions: number[]; logits: number[][] };
    const out = await cpl.session.forward({ ids: fx.ids, logitRows: [fx.positions[0]!, fx.positions[fx.positions.length - 1]! + 1], layers: [] });
    expect(maxAbsDiff(out.logits!.data, fx.logits.flat())).toBeLessThanOrEqual(1e-4);
  });

  it('lowers the diagonal ratio under Full: on the maze example more than the prior-assistant share (−13.3% against −8.4%), over held-out episodes about as much (−9.6% against −9.5%)', () => {
    const d = (x: typeof a) => x.episodes.map((e) => e.diagonal.full!);
    expect(change(a.example.diagonal.full!, b.example.diagonal.full!)).toBeLessThan(-0.1);
    expect(change(a.example.diagonal.full!, b.example.diagonal.full!)).toBeLessThan(change(a.example.prior.full!, b.example.prior.full!));
    expect(medianChange(d(a), d(b))).toBeLessThan(-0.05);
  });

  it('lowers the diagonal ratio under Clip-12→1 over held-out episodes by 10% or more (measured −30.4%)', () => {
    expect(medianChange(a.episodes.map((e) => e.diagonal['clip:12:1']!), b.episodes.map((e) => e.diagonal['clip:12:1']!))).toBeLessThan(-0.1);
  });

  it('still continues its formats, mostly (measured 23 of 24; the base model 23)', async () => {
    const c = await heldOutContinuations(cpl);
    expect(c.wellFormed).toBeGreaterThanOrEqual(20);
  });
});

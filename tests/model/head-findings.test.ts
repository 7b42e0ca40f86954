import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { dirSource } from '../../src/cli/dir-source';
import { CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { ablationFigures, modelHeads, type AblationFigures, type ModelHeads } from '../../training/head-figures';

/** What scripts/head-findings.ts measured and docs/demo-model.md reports (docs/bench/heads-demo.json). */
const recorded = JSON.parse(readFileSync('docs/bench/heads-demo.json', 'utf8')) as {
  episodes: number;
  base: ModelHeads;
  cpl: ModelHeads;
  ablation: AblationFigures;
};
const close = (a: number[], b: number[]) => a.forEach((v, i) => expect(Math.abs(v - b[i]!)).toBeLessThanOrEqual(1e-4));

/**
 * Where the demo models' inertia lives, measured again: the recorded head table, layer profile and ablation
 * are what the committed models compute now, and the findings the docs state hold with their margins.
 */
describe('where the demo models carry the diagonal (docs/bench/heads-demo.json)', () => {
  let base: OpenModel;
  let cpl: OpenModel;
  let fresh: { base: ModelHeads; cpl: ModelHeads };
  beforeAll(async () => {
    const open = (path: string) => openModel(dirSource(path), { headFigures: true, inspectLayers: 'all', prefer: ['wasm'] });
    [base, cpl] = [await open(DEMO_MODEL_PATH), await open(CPL_MODEL_PATH)];
    fresh = { base: await modelHeads(base, recorded.episodes), cpl: await modelHeads(cpl, recorded.episodes) };
  }, 300_000);

  it('the head table and the layer profile are those recorded', () => {
    for (const k of ['base', 'cpl'] as const) {
      close(fresh[k].finalHeads, recorded[k].finalHeads);
      close(fresh[k].finalHeadsOnEpisodes, recorded[k].finalHeadsOnEpisodes);
      close(
        fresh[k].profile.map((p) => p.diagonal),
        recorded[k].profile.map((p) => p.diagonal),
      );
      expect(fresh[k].top).toEqual(recorded[k].top);
      expect(fresh[k].topOnEpisodes).toEqual(recorded[k].topOnEpisodes);
    }
  });

  it('the findings docs/demo-model.md states, with their margins', () => {
    const { base, cpl } = fresh;
    const n = recorded.episodes;
    // Head 1.0 is among the three with the highest diagonal on most held-out episodes; the example's first is not.
    expect(base.topOnEpisodes['1.0']).toBeGreaterThanOrEqual(n / 2);
    expect(base.topOnEpisodes[base.top[0]!] ?? 0).toBeLessThanOrEqual(2);
    // The layer profile: the head-mean diagonal of the two layers within 0.05 of each other ("similar to other layers").
    expect(Math.abs(base.profile[0]!.diagonal - base.profile[1]!.diagonal)).toBeLessThan(0.05);
    // CPL lowers the diagonal in layer 0 and in final-layer heads 4 and 5, not in the final layer's strongest (0, 1).
    expect(base.profile[0]!.diagonal - cpl.profile[0]!.diagonal).toBeGreaterThan(0.03);
    expect(base.finalHeadsOnEpisodes[5]! - cpl.finalHeadsOnEpisodes[5]!).toBeGreaterThan(0.05);
    expect(base.finalHeadsOnEpisodes[4]! - cpl.finalHeadsOnEpisodes[4]!).toBeGreaterThan(0.02);
    for (const h of [0, 1]) expect(Math.abs(base.finalHeadsOnEpisodes[h]! - cpl.finalHeadsOnEpisodes[h]!)).toBeLessThan(0.01);
  });

  it('switching the top heads off: the recorded figures and answers', async () => {
    const a = await ablationFigures(base, recorded.episodes);
    expect(a.heads).toEqual(recorded.ablation.heads);
    close(
      [a.before.diagonal, a.after.diagonal, a.before.prior, a.after.prior],
      [recorded.ablation.before.diagonal, recorded.ablation.after.diagonal, recorded.ablation.before.prior, recorded.ablation.after.prior],
    );
    expect(a.answer).toEqual(recorded.ablation.answer);
    expect(a.episodes.verdicts).toEqual(recorded.ablation.episodes.verdicts);
    expect(Math.abs(a.episodes.meanDiagonalChange - recorded.ablation.episodes.meanDiagonalChange)).toBeLessThanOrEqual(1e-4);
    // The answer changes on every episode (never the same text), its last line (the move) on most; on the
    // example it copies a shorter run of an earlier answer; the final layer's diagonal does not fall.
    expect(a.episodes.verdicts['same answer'] ?? 0).toBe(0);
    expect(a.episodes.verdicts['different last line']).toBeGreaterThanOrEqual(recorded.episodes / 2);
    expect(a.answer.copiedRun.withOff).toBeLessThan(a.answer.copiedRun.withAll);
    expect(a.after.diagonal).toBeGreaterThanOrEqual(a.before.diagonal);
  }, 600_000);
});

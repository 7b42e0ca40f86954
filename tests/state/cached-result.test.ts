import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzePolicy, type PolicyResult } from '../../src/analysis/analyze';
import { turnsSweep } from '../../src/analysis/sweep';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { CATEGORIES } from '../../src/metrics/categories';
import { DEMO_MODEL_PATH } from '../../src/model/demo';
import { openModel, type OpenModel } from '../../src/runtime/open-model';
import { cachedStartResult } from '../../src/state/cached-result';
import { maxAbsDiff } from '../helpers/compare';

/** The start screen's cached figures must be what the demo model computes now (else `npm run cache-example`). */
describe('cached start figures', () => {
  let model: OpenModel;
  let fresh: PolicyResult;
  const cached = cachedStartResult();
  const conv = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!;
  beforeAll(async () => {
    model = await openModel(dirSource(DEMO_MODEL_PATH));
    fresh = await analyzePolicy(model, conv, cached.policy, { keepAttention: 'answer' });
  });

  it('equal a fresh analysis of the maze example on the demo model to 1e-4', () => {
    const c = cached.result;
    expect(c.tokens.map((t) => t.id)).toEqual(fresh.tokens.map((t) => t.id));
    for (const k of CATEGORIES) expect(Math.abs(c.ratios[k] - fresh.ratios[k])).toBeLessThanOrEqual(1e-4);
    expect(Math.abs(c.diagonal - fresh.diagonal)).toBeLessThanOrEqual(1e-4);
    expect(c.cost).toEqual(fresh.cost);
    expect(maxAbsDiff(c.attention!.mean.data, fresh.attention!.mean.data)).toBeLessThanOrEqual(1e-4);
  });

  it('carry the sweep over turns of the same model', async () => {
    const sweep = await turnsSweep(model, conv, cached.policy, { known: fresh });
    expect(sweep.map((p) => p.turn)).toEqual(cached.sweep.map((p) => p.turn));
    expect(
      maxAbsDiff(
        sweep.map((p) => p.ratios.prior),
        cached.sweep.map((p) => p.ratios.prior),
      ),
    ).toBeLessThanOrEqual(1e-4);
    // Chance is counted from the tokens alone: the same to the last digit.
    expect(cached.sweep.map((p) => p.chance)).toEqual(sweep.map((p) => p.chance));
  });

  it('keeping every row changes no figure, and the answer rows are the same rows', async () => {
    const all = await analyzePolicy(model, conv, cached.policy, { keepAttention: 'all' });
    const S = all.tokens.length;
    expect(all.attention!.mean.rowStart).toBe(0);
    expect(all.attention!.mean.rows).toBe(S);
    for (const k of CATEGORIES) expect(Math.abs(all.ratios[k] - fresh.ratios[k])).toBeLessThanOrEqual(1e-6);
    expect(
      maxAbsDiff(
        all.perHead.map((h) => h.diagonal),
        fresh.perHead.map((h) => h.diagonal),
      ),
    ).toBeLessThanOrEqual(1e-6);
    expect(maxAbsDiff(all.attention!.mean.data.subarray(fresh.query.start * S, fresh.query.end * S), fresh.attention!.mean.data)).toBeLessThanOrEqual(1e-6);
    const capped = await analyzePolicy(model, conv, cached.policy, { keepAttention: 'all', fullMatrixMaxTokens: S - 1 });
    expect(capped.attention!.mean.rowStart).toBe(fresh.query.start);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzePolicy, type PolicyResult } from '../../../src/analysis/analyze';
import { figureChange, largestChange, largestShareChange } from '../../../src/analysis/fidelity';
import { dirSource } from '../../../src/cli/dir-source';
import { parseConversation } from '../../../src/conversation/parse';
import { DEMO_MODEL_PATH } from '../../../src/model/demo';
import type { Quant } from '../../../src/model/precision/quantize';
import { openModel } from '../../../src/runtime/open-model';

const EXAMPLES = ['maze', 'arithmetic', 'mixed-chat'];
const POLICIES = ['full', 'clip:12:1'];

async function figures(quant: Quant): Promise<PolicyResult[]> {
  const model = await openModel(dirSource(DEMO_MODEL_PATH), { quant });
  expect(model.graph.quant).toBe(quant);
  const out: PolicyResult[] = [];
  for (const name of EXAMPLES) {
    const conv = parseConversation(readFileSync(`examples/${name}.json`, 'utf8')).conversation!;
    for (const p of POLICIES) out.push(await analyzePolicy(model, conv, p));
  }
  await model.session.release();
  return out;
}

describe('quantized demo model: what q8, q4 and q4g128 do to the figures (docs/bench/quant.md)', () => {
  it('q8 moves no share and no diagonal by more than 0.005; q4 and q4g128 move them, by less than 0.05 (docs/bench/quant.md)', async () => {
    const base = await figures('none');
    const [q8, q4, g128] = [await figures('q8'), await figures('q4'), await figures('q4g128')];
    const c8 = largestChange(base.map((b, i) => figureChange(b, q8[i]!)));
    const c4 = largestChange(base.map((b, i) => figureChange(b, q4[i]!)));
    const c128 = largestChange(base.map((b, i) => figureChange(b, g128[i]!)));
    console.log(
      `demo model, largest |Δ| share / diagonal: q8 ${largestShareChange(c8).toFixed(4)} / ${c8.diagonal.toFixed(4)}, q4 ${largestShareChange(c4).toFixed(4)} / ${c4.diagonal.toFixed(4)}, q4g128 ${largestShareChange(c128).toFixed(4)} / ${c128.diagonal.toFixed(4)}`,
    );
    expect(largestShareChange(c8)).toBeLessThanOrEqual(0.005);
    expect(c8.diagonal).toBeLessThanOrEqual(0.005);
    // The weights really are quantized: the figures move, q4 more than q8.
    expect(largestShareChange(c8)).toBeGreaterThan(1e-5);
    expect(largestShareChange(c4)).toBeGreaterThan(largestShareChange(c8));
    expect(largestShareChange(c4)).toBeLessThan(0.05);
    expect(c4.diagonal).toBeLessThan(0.05);
    expect(largestShareChange(c128)).toBeGreaterThan(largestShareChange(c8));
    expect(largestShareChange(c128)).toBeLessThan(0.05);
    expect(c128.diagonal).toBeLessThan(0.05);
  });

  it('figureChange is |Δ| per figure (a hand-computed case)', () => {
    const a = { ratios: { sink: 0.1, system: 0.2, user: 0.3, prior: 0.25, current: 0.15 }, diagonal: 0.05 };
    const b = { ratios: { sink: 0.12, system: 0.18, user: 0.3, prior: 0.2, current: 0.2 }, diagonal: 0.04 };
    const c = figureChange(a, b);
    expect(c.shares.sink).toBeCloseTo(0.02, 12);
    expect(c.shares.prior).toBeCloseTo(0.05, 12);
    expect(c.diagonal).toBeCloseTo(0.01, 12);
    expect(largestShareChange(largestChange([c, figureChange(a, a)]))).toBeCloseTo(0.05, 12);
  });
});

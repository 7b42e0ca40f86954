import { describe, expect, it } from 'vitest';
import { policySpecs } from '../../src/context/policy';
import { stepNo } from '../../src/views/lesson/order';
import { buttonsMet, policiesMet } from '../../src/views/lesson/policies-met';

describe("the lesson's policy table", () => {
  const specs = policySpecs({ window: 6, clipAt: 6, clipTo: 1 });
  const rows = (step: number | null) => {
    const met = policiesMet(step);
    return met ? specs.filter(met) : specs;
  };
  it('shows the policies the card has named by then, and every one elsewhere', () => {
    expect(rows(stepNo('contexts') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'lt', 'de']);
    // AO's step has AO's row; AO-last and its control come with their own step.
    expect(rows(stepNo('hide') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'ao', 'lt', 'de']);
    expect(rows(stepNo('hide-last') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'ao', 'ao-last', 'ao-second-last', 'lt', 'de']);
    expect(rows(null)).toEqual(specs);
    expect(rows(stepNo('diagonal') - 1)).toEqual(specs);
  });

  it("shows the lesson's policy buttons as its cards name them, every one outside it", () => {
    const buttons = (step: number | null) => {
      const met = buttonsMet(step);
      return met ? specs.filter(met) : specs;
    };
    expect(buttons(stepNo('generate') - 1)).toEqual(['full', 'de']);
    expect(buttons(stepNo('contexts') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'lt', 'de']);
    expect(buttons(stepNo('hide') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'ao', 'lt', 'de']);
    expect(buttons(stepNo('hide-last') - 1)).toEqual(['full', 'window:6', 'clip:6:1', 'summary:6:1', 'ao', 'ao-last', 'ao-second-last', 'lt', 'de']);
    expect(buttons(stepNo('diagonal') - 1)).toEqual(specs.filter((p) => !/^(sum|filler|cut-last)$/.test(p)));
    expect(buttons(stepNo('filler') - 1)).toEqual(specs.filter((p) => p !== 'sum'));
    expect(buttons(null)).toEqual(specs);
  });
});

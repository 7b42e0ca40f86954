import { describe, expect, it } from 'vitest';
import { parsePolicy, policyLabel, policySpecs } from '../../src/context/policy';
import { GLOSSARY } from '../../src/views/lesson/glossary';
import { STEP_IDS } from '../../src/views/lesson/order';
import { buttonsMet } from '../../src/views/lesson/policies-met';
import { foldSummary, splitSaid } from '../../src/views/lesson/RevealBox';
import { TABLE } from '../../src/views/lesson/policy-numbers';

describe('the reveal, cut where a newcomer stops', () => {
  it('shows the first sentence and folds the rest, whole', () => {
    const said = 'Under Full it moves south. Under DE it moves east, an open way. Could it be luck? No.';
    expect(splitSaid(said)).toEqual({ lead: 'Under Full it moves south.', rest: 'Under DE it moves east, an open way. Could it be luck? No.' });
  });
  it('keeps a one-sentence reveal unfolded, with nothing left over', () => {
    expect(splitSaid('You guessed 40 %; the answer gives 53 %.')).toEqual({ lead: 'You guessed 40 %; the answer gives 53 %.', rest: '' });
  });
  it('does not cut inside a figure or after a colon', () => {
    expect(splitSaid('It is 1.5 times chance: more. Then 2.').lead).toBe('It is 1.5 times chance: more.');
  });
  it('names in its summary only what the fold holds', () => {
    const luck = [{ label: 'Full against DE', p: 0.001, said: 'less than 1 time in 1,000', clear: true }];
    expect(foldSummary({ said: 'a', luck }, 'b')).toBe('Read more: more in words · could it be luck?');
    // Where the lesson teaches luck, its meter is shown: the fold does not name it.
    expect(foldSummary({ said: 'a', luck, more: 'figures' }, '', true)).toBe('Read more: the figures behind this');
  });
});

describe('the words used here', () => {
  it('names every policy the lesson offers, by the label the tables use, and no other', () => {
    const terms = GLOSSARY.map((g) => g.term);
    const offered = buttonsMet(STEP_IDS.length - 1)!;
    for (const spec of policySpecs(TABLE)) expect(terms.includes(policyLabel(parsePolicy(spec))), spec).toBe(offered(spec));
    expect(terms).not.toContain('SUM');
  });
  it('says each word once, in a sentence', () => {
    const terms = GLOSSARY.map((g) => g.term);
    expect(new Set(terms).size).toBe(terms.length);
    for (const g of GLOSSARY) expect(g.means).toMatch(/^[^A-Z].*\.$/);
  });
});

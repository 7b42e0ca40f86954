import { describe, expect, it } from 'vitest';
import { bottomHeads, compareAnswers, headMask, lastLayerSets, parseHeads, topHeads } from '../../src/analysis/ablation';
import type { LayerFigures } from '../../src/analysis/heads';

const ratios = { sink: 0, system: 0, user: 0, prior: 0, current: 0 };
const layer = (l: number, diagonals: number[]): LayerFigures => ({
  layer: l,
  ratios,
  diagonal: 0,
  diagonalPerAnswer: [],
  perHead: diagonals.map((d) => ({ ratios, diagonal: d, diagonalPerAnswer: [d] })),
});

describe('switching heads off: names, masks, choices', () => {
  it('reads "L.H" lists in order, once each, and names the first bad entry', () => {
    expect(parseHeads('3.1, 0.2,3.1', 4, 4)).toEqual([
      [0, 2],
      [3, 1],
    ]);
    expect(parseHeads('', 4, 4)).toEqual([]);
    expect(parseHeads('3-1', 4, 4)).toBe('"3-1" is not a head: write layer.head, e.g. 3.0');
    expect(parseHeads('4.0', 4, 2)).toBe('head 4.0: this model has layers 0..3 and heads 0..1');
    expect(parseHeads('1.2', 4, 2)).toBe('head 1.2: this model has layers 0..3 and heads 0..1');
  });
  it('builds the [layers × heads] mask: 0 for a head off, and refuses a head the model lacks', () => {
    expect([...headMask([[1, 0]], 2, 3)]).toEqual([1, 1, 1, 0, 1, 1]);
    // Head 3 of a 3-head layer would be head 0 of the next layer in a flat mask: refused, not aliased.
    expect(() => headMask([[0, 3]], 2, 3)).toThrow('head 0.3: this model has layers 0..1 and heads 0..2');
  });
  it('picks the top k by diagonal ratio across layers, ties to the earlier head', () => {
    const layers = [layer(0, [0.1, 0.5, 0.2]), layer(1, [0.5, 0.05, 0.3])];
    expect(topHeads(layers, 3)).toEqual([
      [0, 1],
      [1, 0],
      [1, 2],
    ]);
    // With heads switched off: the highest of those still on.
    expect(topHeads(layers, 2, [[0, 1]])).toEqual([
      [1, 0],
      [1, 2],
    ]);
    // The control: the lowest, ties to the earlier head too.
    expect(bottomHeads([...layers, layer(2, [0.05])], 3)).toEqual([
      [1, 1],
      [2, 0],
      [0, 0],
    ]);
  });
  it("picks the final layer's highest and lowest heads, whatever the layers before hold", () => {
    const stack = [layer(0, [0.9, 0.8, 0.7, 0.6]), layer(1, [0.2, 0.5, 0.1, 0.4, 0.3])];
    expect(lastLayerSets(stack)).toEqual({
      first: [
        [1, 1],
        [1, 3],
        [1, 4],
      ],
      control: [
        [1, 2],
        [1, 0],
        [1, 4],
      ],
    });
  });
  it('compares two answers in plain words by their text and their last line', () => {
    expect(compareAnswers('Path: 1 2.\nMove: east', 'Path: 1 2.\nMove: east\n')).toBe('same answer');
    expect(compareAnswers('Path: 1 2.\nThought: go.\nMove: east', 'Path: 1 2 3.\nMove: east')).toBe('different wording, same last line');
    expect(compareAnswers('Path: 1 2.\nMove: east', 'Path: 1 2.\nMove: north')).toBe('different last line');
  });
});

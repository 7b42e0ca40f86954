import { describe, expect, it } from 'vitest';
import type { LayerFigures } from '../../src/analysis/heads';
import { cellColour, cellsOf, difference, largestChange, meanOf, sharedMax } from '../../src/views/heads/heads-model';

const rgb = (c: string) => (c.match(/\d+/g) ?? []).map(Number) as [number, number, number];
const ratios = (prior: number) => ({ sink: 0, system: 0, user: 1 - prior, prior, current: 0 });
const layer = (l: number, d: number[]): LayerFigures => ({
  layer: l,
  ratios: ratios(0.5),
  diagonal: d.reduce((s, v) => s + v, 0) / d.length,
  diagonalPerAnswer: [],
  perHead: d.map((x) => ({ ratios: ratios(x), diagonal: x, diagonalPerAnswer: [] })),
});

describe('the layers × heads grid: values, scales and colours', () => {
  const a = [layer(0, [0.1, 0.3]), layer(1, [0.2, 0.4])];
  const b = [layer(0, [0.05, 0.3]), layer(1, [0.25, 0.4])];
  it('reads a cell per head, the head mean per layer, and the difference of two grids', () => {
    expect(cellsOf(a, 'diagonal')).toEqual([
      [0.1, 0.3],
      [0.2, 0.4],
    ]);
    expect(cellsOf(a, 'prior')).toEqual(cellsOf(a, 'diagonal'));
    expect(meanOf(a, 'diagonal').map((v) => +v.toFixed(6))).toEqual([0.2, 0.3]);
    const d = difference(cellsOf(a, 'diagonal'), cellsOf(b, 'diagonal')).map((r) => r.map((v) => +v.toFixed(6)));
    expect(d).toEqual([
      [-0.05, 0],
      [0.05, 0],
    ]);
    expect(sharedMax([cellsOf(a, 'diagonal'), cellsOf(b, 'diagonal')])).toBe(0.4);
    expect(+largestChange(d).toFixed(6)).toBe(0.05);
  });
  it('colours a difference red where it fell and blue where it rose, as the caption says', () => {
    const [r1, , b1] = rgb(cellColour(-0.05, 0.05, true));
    const [r2, , b2] = rgb(cellColour(0.05, 0.05, true));
    expect(r1).toBeGreaterThan(b1);
    expect(b2).toBeGreaterThan(r2);
    // Values: dark to light cividis.
    const lum = (c: string) => rgb(c).reduce((s, v) => s + v, 0);
    expect(lum(cellColour(0.4, 0.4, false))).toBeGreaterThan(lum(cellColour(0, 0.4, false)));
  });
});

describe('a model read from files is named by its folder, architecture and size', () => {
  it('takes the folder from the paths, and writes the size as a person reads it', async () => {
    const { folderOf } = await import('../../src/views/model-loader/dropped-files');
    const { filesModelName } = await import('../../src/state/model-loads');
    expect(folderOf(['Qwen2.5-0.5B-Instruct/config.json', 'Qwen2.5-0.5B-Instruct/model.safetensors'])).toBe('Qwen2.5-0.5B-Instruct');
    expect(folderOf(['config.json', 'model.safetensors'])).toBe('2 picked files');
    expect(folderOf(['a/config.json', 'b/model.safetensors'])).toBe('2 picked files');
    const spec = { family: 'qwen2' } as Parameters<typeof filesModelName>[1]['spec'];
    expect(filesModelName('Qwen2.5-0.5B-Instruct', { spec, parameters: 494_032_768 })).toBe('Qwen2.5-0.5B-Instruct · qwen2, 494M parameters');
    expect(filesModelName('x', { spec, parameters: 1_747_456 })).toBe('x · qwen2, 1.7M parameters');
    expect(filesModelName('x', { spec, parameters: 8_030_261_248 })).toBe('x · qwen2, 8.0B parameters');
  });
});

describe('the loading line', () => {
  it('writes a small file in kB, not "0.0 MB"', async () => {
    const { mb } = await import('../../src/views/model-loader/LoadProgress');
    expect(mb(1_234)).toBe('1 kB');
    expect(mb(42_000)).toBe('42 kB');
    expect(mb(988_000_000)).toBe('988.0 MB');
  });
});

import { describe, expect, it } from 'vitest';
import { focusOf, hoverReducer, inMatrix, NO_HOVER } from '../../src/state/hover-lock';

describe('hover lock', () => {
  const a = { row: 1, col: 2 };
  const b = { row: 3, col: 4 };
  it('follows the pointer until a click locks a cell, then ignores movement', () => {
    let s = hoverReducer(NO_HOVER, { type: 'move', at: a });
    expect(focusOf(s)).toEqual(a);
    s = hoverReducer(s, { type: 'click', at: a });
    expect(s.locked).toEqual(a);
    s = hoverReducer(s, { type: 'move', at: b });
    expect(focusOf(s)).toEqual(a);
    expect(s.hover).toEqual(b);
  });
  it('moves the lock on a click elsewhere; frees it on a second click, a click outside, or Escape', () => {
    let s = hoverReducer(hoverReducer(NO_HOVER, { type: 'click', at: a }), { type: 'click', at: b });
    expect(s.locked).toEqual(b);
    expect(hoverReducer(s, { type: 'click', at: { ...b } }).locked).toBeNull();
    expect(hoverReducer(s, { type: 'click', at: null }).locked).toBeNull();
    s = hoverReducer(s, { type: 'escape' });
    expect(s.locked).toBeNull();
    expect(focusOf(hoverReducer(s, { type: 'move', at: null }))).toBeNull();
  });
  it('pins a cell on lock, whatever was locked, and a second lock on it keeps it (a click would free it)', () => {
    const s = hoverReducer(hoverReducer(NO_HOVER, { type: 'click', at: a }), { type: 'lock', at: b });
    expect(s).toEqual({ hover: b, locked: b });
    expect(hoverReducer(s, { type: 'lock', at: { ...b } })).toBe(s);
  });
  it('a cell outside the matrix drawn is no cell of it (the hover outlives a result for a render)', () => {
    expect(inMatrix(b, 4, 5)).toBe(b);
    expect(inMatrix(b, 3, 5)).toBeNull();
    expect(inMatrix(b, 4, 4)).toBeNull();
    expect(inMatrix(null, 4, 5)).toBeNull();
  });
  it('returns the same state for a move to the same cell (no re-render)', () => {
    const s = hoverReducer(NO_HOVER, { type: 'move', at: a });
    expect(hoverReducer(s, { type: 'move', at: { ...a } })).toBe(s);
  });
});

import { describe, expect, it } from 'vitest';
import { focusOf, hoverReducer, NO_HOVER } from '../../src/state/hover-lock';

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
  it('returns the same state for a move to the same cell (no re-render)', () => {
    const s = hoverReducer(NO_HOVER, { type: 'move', at: a });
    expect(hoverReducer(s, { type: 'move', at: { ...a } })).toBe(s);
  });
});

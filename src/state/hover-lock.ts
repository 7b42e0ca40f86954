/** Hover with lock: a click pins the pointed cell so the person can read it; another click or Escape frees it. */
export interface Cell {
  row: number;
  col: number;
}

export interface HoverState {
  hover: Cell | null;
  locked: Cell | null;
}

/** `lock` pins a cell whatever was locked before (a view pointing at a cell for the person); `click` toggles, as a click does. */
export type HoverAction = { type: 'move'; at: Cell | null } | { type: 'click'; at: Cell | null } | { type: 'lock'; at: Cell } | { type: 'escape' };

export const NO_HOVER: HoverState = { hover: null, locked: null };

const same = (a: Cell | null, b: Cell | null) => a === b || (a !== null && b !== null && a.row === b.row && a.col === b.col);

export function hoverReducer(s: HoverState, a: HoverAction): HoverState {
  switch (a.type) {
    case 'move':
      return same(s.hover, a.at) ? s : { ...s, hover: a.at };
    case 'click':
      // Clicking the locked cell (or outside the matrix) unlocks; clicking elsewhere moves the lock.
      if (a.at === null || same(s.locked, a.at)) return { hover: a.at, locked: null };
      return { hover: a.at, locked: a.at };
    case 'lock':
      return same(s.locked, a.at) && same(s.hover, a.at) ? s : { hover: a.at, locked: a.at };
    case 'escape':
      return { ...s, locked: null };
  }
}

/** The cell the views follow: the locked one, else the hovered one. */
export function focusOf(s: HoverState): Cell | null {
  return s.locked ?? s.hover;
}

/** The cell where it lies within a matrix of `rows` × `cols`, else null. */
export const inMatrix = (c: Cell | null, rows: number, cols: number): Cell | null => (c && c.row < rows && c.col < cols ? c : null);

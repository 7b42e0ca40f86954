import { create } from 'zustand';
import { focusOf, hoverReducer, NO_HOVER, type Cell, type HoverAction, type HoverState } from './hover-lock';

/**
 * The hovered and locked cell, in a store of its own: pointer moves change it many times a second, and
 * only the views that follow it (the heatmap's outline, the token view's query row) should re-render.
 */
export const useHover = create<{ hover: HoverState; dispatch(a: HoverAction): void }>()((set) => ({
  hover: NO_HOVER,
  dispatch: (a) =>
    set((s) => {
      const next = hoverReducer(s.hover, a);
      return next === s.hover ? s : { hover: next };
    }),
}));

/** Forgets the cell (a new conversation, turn or matrix: the old cell means nothing there). */
export function resetHover(): void {
  useHover.setState({ hover: NO_HOVER });
}

/** The query row the views follow (the locked cell's, else the hovered one's), or null. */
export const useFocusRow = (): number | null => useHover((s) => focusOf(s.hover)?.row ?? null);
export type { Cell };

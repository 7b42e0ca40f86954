import { useHover } from '../../state/hover-store';
import { motion } from './card-scroll';

/**
 * Brings one token of the Tokens panel into view and marks it for a moment: a bar of the card names a token far
 * from what the page shows (a comma in turn 1, while the move sits in turn 10). The token pointed at is locked
 * first, at that token, so the shading still shows where it looks once the focus moves to the button, and the
 * readout names the look.
 */
export function showToken(k: number): void {
  const { hover, dispatch } = useHover.getState();
  // Locked on the same row, at the token shown: the readout then says how much the row gives it.
  const at = hover.locked ?? hover.hover;
  if (at && hover.locked?.col !== k) dispatch({ type: 'click', at: { row: at.row, col: k } });
  const el = document.querySelector<HTMLElement>(`[data-testid="token-view"] [data-k="${k}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: motion() });
  el.classList.add('tok-shown');
  setTimeout(() => el.classList.remove('tok-shown'), 3000);
}

import { useHover } from '../../state/hover-store';
import { motion } from './card-scroll';

/**
 * Brings one token of the Tokens panel into view and marks it for a moment: a bar of the card names a token far
 * from what the page shows (a comma in turn 1, while the move sits in turn 10). The token pointed at is locked
 * first, so the shading still shows where it looks once the focus moves to the button.
 */
export function showToken(k: number): void {
  const { hover, dispatch } = useHover.getState();
  if (!hover.locked && hover.hover) dispatch({ type: 'click', at: hover.hover });
  const el = document.querySelector<HTMLElement>(`[data-testid="token-view"] [data-k="${k}"]`);
  if (!el) return;
  el.scrollIntoView({ block: 'center', behavior: motion() });
  el.classList.add('tok-shown');
  setTimeout(() => el.classList.remove('tok-shown'), 3000);
}

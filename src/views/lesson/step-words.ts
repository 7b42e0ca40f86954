/** Small pieces of the steps' texts, filled from the page's figures and the stored counts. */
import { evenShare, figuresOf, type LessonWorld, percent } from './world';

/**
 * The shares step's ask, with chance so the guess has a scale (as the diagonal step's): the prior assistant answers'
 * part of the tokens, and the question the guess answers, whether it leans on them beyond that.
 */
export function shareAsk(r: ReturnType<typeof figuresOf>): string {
  const even = r ? evenShare(r, 'prior') : 0;
  return even > 0
    ? `Its prior assistant answers are ${percent(even)} of those tokens, so reading every token alike would give them ${percent(even)}, an "even share"; do they get more?`
    : 'How much goes to its prior assistant answers?';
}

/** "all 9 " prior assistant answers, as many as the answer reads; "all the " before its figures are in. */
export function priorCount(w: LessonWorld): string {
  const n = figuresOf(w)?.diagonalPerAnswer.length;
  return n ? `all ${n} ` : 'all the ';
}

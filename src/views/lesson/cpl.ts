/** The CPL step's reading of two models: the last answer under both, then turn by turn over the conversation. */
import type { SweepPoint } from '../../analysis/sweep';
import { answerOf } from '../../export/figures';
import { change, figuresOf, share, twinOf, type LessonWorld } from './world';

/**
 * Two models turn by turn: over the turns both have scored, how many give the second less attention on prior
 * assistant answers, and a smaller diagonal ratio, than the first. One turn can mislead; the count over a whole
 * conversation is the lesson's closest thing to "over many conversations".
 */
export function turnByTurn(a: readonly SweepPoint[], b: readonly SweepPoint[]): { turns: number; priorLower: number; diagonalLower: number } {
  const theirs = new Map(b.map((p) => [p.turn, p]));
  let turns = 0;
  let priorLower = 0;
  let diagonalLower = 0;
  for (const p of a) {
    const q = theirs.get(p.turn);
    if (!q) continue;
    turns++;
    if (q.ratios.prior < p.ratios.prior) priorLower++;
    if (q.diagonal < p.diagonal) diagonalLower++;
  }
  return { turns, priorLower, diagonalLower };
}

/**
 * The CPL step's reveal: the last answer under both models, then the count over every turn (the sweeps): whether
 * a change too small to read on one answer holds across the conversation.
 */
export function cplReveal(w: LessonWorld): string {
  const a = figuresOf(w);
  const b = twinOf(w);
  if (!a || !b) return '';
  if (answerOf(a) !== answerOf(b))
    return 'The two models score different answers (one wrote its own): go back a step and forth to score the same answer with both.';
  const last = `On the last answer the diagonal ratio is ${share(a.diagonal)} for the demo model and ${share(b.diagonal)} for its CPL twin (${change(a.diagonal, b.diagonal)}); the attention on prior assistant answers ${share(a.ratios.prior)} and ${share(b.ratios.prior)} (${change(a.ratios.prior, b.ratios.prior)}).`;
  const [mine, twin] = [w.sweeps[0], w.sweeps[1]];
  if (w.sweeping || !mine || !twin || twin.length < mine.length) return `${last} Every turn is being scored with both models: the count follows.`;
  const t = turnByTurn(mine, twin);
  const verdict =
    t.priorLower * 2 > t.turns && t.diagonalLower * 2 > t.turns
      ? 'so over this whole conversation the twin leans less on its own answers, even where one turn changes little'
      : 'so on this conversation the twin does not lean clearly less: one conversation is too few to show it';
  return `${last} Turn by turn, the twin gives its prior assistant answers less attention at ${t.priorLower} of ${t.turns} turns and has the smaller diagonal ratio at ${t.diagonalLower} of ${t.turns}: ${verdict}.`;
}

/**
 * The reveals of the steps that read the attention figures against a yardstick: the prior assistant share, the
 * diagonal ratio, and the diagonal under Filler. Plain functions of the page's snapshot.
 */
import { change, evenDiagonal, figuresOf, type LessonWorld, LOADING, percent, priorYardstick, type Reveal, share, SILENT } from './world';

/** The shares step: the guess, the share on prior assistant answers and its yardstick; the other shares folded. */
export function sharesReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  if (!r) return LOADING;
  return {
    said: `You guessed ${percent(w.guesses.prior ?? 0)}; the answer gives ${percent(r.ratios.prior)} of its attention to its prior assistant answers (the figure "prior assistant", ${share(r.ratios.prior)}).${priorYardstick(r)}`,
    more: `The rest: ${percent(r.ratios.user)} to the user's turns, ${percent(r.ratios.system)} to the system prompt, ${percent(r.ratios.current)} to the answer itself.`,
  };
}

/** The diagonal step: the guess, the diagonal ratio, and what attention spread evenly would put in its band. */
export function diagonalReveal(w: LessonWorld): Reveal {
  const r = figuresOf(w);
  if (!r) return LOADING;
  const even = evenDiagonal(r);
  const k = even > 0 ? r.diagonal / even : 0;
  // A verdict on the ratio, so the number is read, not only shown.
  const said =
    k >= 2 ? 'well above what chance puts there' : k >= 1.2 ? 'more than chance puts there, though not many times more' : 'about what chance puts there';
  const times =
    even > 0
      ? ` Spread evenly over every token it can see, the band would get ${percent(even)}: this model puts ${k.toFixed(1)} times that there, ${said}.`
      : '';
  return {
    said: `You guessed ${percent(w.guesses.diagonal ?? 0)}; ${percent(r.diagonal)} of all the answer's attention sits on the diagonal (the figure "diagonal ratio", ${share(r.diagonal)}).${times}${w.walls === null ? '' : ' In this maze part of it is copying the task asks for (the list of cells); the move at the wall, in the second step, is where copying goes wrong.'}`,
    more: `It is part of the ${percent(r.ratios.prior)} the answer gives its prior assistant answers in all.`,
  };
}

/** The Filler step: its diagonal ratio against Full's at the step's start, and whether it falls below chance. */
export function fillerReveal(w: LessonWorld, base: LessonWorld | null): Reveal {
  const r = figuresOf(w, 'filler');
  const full = figuresOf(base, 'full');
  if (!r || !full) return SILENT;
  // Below chance, not only below Full: say so with the yardstick of the diagonal step.
  const even = evenDiagonal(r);
  return {
    said: `Under Filler the diagonal ratio is ${share(r.diagonal)}, against ${share(full.diagonal)} with the real answers (${change(full.diagonal, r.diagonal)}): ${r.diagonal < full.diagonal / 2 ? 'with the words gone the diagonal mostly goes, so it follows what the prior assistant answers say, not where their tokens sit' : 'much of the diagonal stays without the words, so part of it follows positions alone'}.`,
    more:
      even > 0 && r.diagonal < even
        ? `That is below even the ${percent(even)} attention spread evenly would put in the band: the model barely looks at text it has nothing to copy from.`
        : '',
  };
}

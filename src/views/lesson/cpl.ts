/** The CPL step's reading of two models: the move each writes at the wall, then their attention turn by turn. */
import { PAPERS } from './papers';
import type { SweepPoint } from '../../analysis/sweep';
import { compareMoves, moveClause, offGoal } from './moves';
import { twinAboveNoHistory, twinTally } from './twin-tally';
import { byChance, ltBringsMost, movePct } from './wall-counts';
import { stepNo } from './order';
import { WALL_COUNTS } from './wall-records';
import { evenShare, figuresOf, percent, SILENT, twinOf, type LessonWorld, type Reveal } from './world';

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
 * Two shares as "a against b", to one decimal where whole per cents would read the same: readers met "smaller at 9
 * of 9 turns" beside "19 % against 19 %".
 */
export function closeTwo(a: number, b: number): string {
  const [x, y] = [percent(a), percent(b)];
  return x !== y ? `${x} against ${y}` : `${(a * 100).toFixed(1)} % against ${(b * 100).toFixed(1)} %`;
}

/** What the two moves say together, told from the walls the turn's user message names and where the goal lies. */
const together = (mine: string, twin: string, walls: string[] | null, toGoal: string[] | null): string => {
  // Off the wall is not toward the goal: a twin that leaves the wall the wrong way is not called the better player.
  const better = offGoal(twin, walls, toGoal) ? ', though its move leads away from the goal' : '';
  return compareMoves(mine, twin, walls, {
    same: 'Both models make the same move here.',
    secondEscapes: `So on this answer the twin avoids the wall the demo model walks into${better}.`,
    secondWalls: 'Here the twin walks into a wall the demo model avoids: training against inertia does not fix every move.',
    bothWalls: 'Both run into walls: neither model finds the way here.',
    bothOpen: 'Both moves are open ways: the training changed the move, not whether it works.',
  });
};

/**
 * The CPL step's reveal: the move each model writes at the wall and the count over many such turns (said), then
 * their attention counted turn by turn (the sweeps): whether a change too small to read on one answer holds
 * across the conversation.
 */
export function cplReveal(w: LessonWorld): Reveal {
  const mine = w.generated.full;
  const twin = w.generatedB.full;
  if (mine === undefined || twin === undefined) return SILENT;
  // The moves, not the whole answers: those are in the conversation panel, and the card stays short.
  const tally = twinTally();
  // Where both models read the conversation's last answer: their attention on the prior assistant answers, side by
  // side, ties the training to what the earlier steps measured; the count over many turns is drawn, and said in the fold.
  const [me, it] = [figuresOf(w, 'full'), twinOf(w)];
  const chance = it ? evenShare(it, 'prior') : 0;
  // The twin's attention on its answers down to chance while it still repeats more than with no history: the plainest
  // sign in the lesson that a share of attention is a clue, not the inertia itself.
  const atChance = !!it && chance > 0 && it.ratios.prior < chance * 1.1 && twinAboveNoHistory();
  const look =
    me && it
      ? `On this answer the twin gives its prior assistant answers ${percent(it.ratios.prior)} of its attention${chance > 0 ? ` (even share ${percent(chance)})` : ''}, the demo model ${percent(me.ratios.prior)}${
          atChance
            ? `: about its even share, while at the wall it still repeats the blocked move in ${movePct(WALL_COUNTS, 'twin')} of its moves, so a share of attention need not follow the inertia`
            : ''
        }.`
      : null;
  const diagonals =
    me && it
      ? ` Diagonal ratio ${closeTwo(it.diagonal, me.diagonal)}${
          // About equal: the diagonal is mostly the list of cells, which the training leaves alone (the diagonal step).
          Math.abs(it.diagonal - me.diagonal) < 0.02 ? ': both still copy the list of cells' : ''
        }.`
      : '';
  // The moves and the count over many turns on the card (with what the training aimed at); the moves' reading (the
  // moves already say where each leads) and the attention of this one answer in the fold, apart from the counts.
  // One answer, said as one: readers took this answer's escape for the twin's record.
  const moves = `On this one answer, the demo model ${moveClause(mine, w.walls, w.toGoal)}; its CPL twin ${moveClause(twin, w.walls, w.toGoal)}.`;
  const reading = together(mine, twin, w.walls, w.toGoal ?? null);
  // The count first: it is the sentence the card shows unfolded; this one answer's moves after it.
  const said = `${tally.said} ${moves}`;
  const counted = `${look ? `${look} ` : ''}${reading} ${tally.more}${diagonals}`;
  const [a, b] = [w.sweeps[0], w.sweeps[1]];
  const takeaway = tally.takeaway;
  // A null result beside the paper's: said unfolded, so "could be luck" is not read as "CPL does not work".
  const twinClear = byChance(WALL_COUNTS.split.full.twin).clear;
  // Where its target (LT) repeats about as much as Full, the null was to be expected: said first (readers caught it); else
  // the size of the model.
  const caveat = twinClear
    ? {}
    : {
        caveat: ltBringsMost(WALL_COUNTS)
          ? `its preferred answers saw only the turn before, which repeats nearly as much as Full (step ${stepNo('contexts')}), so little change was expected.`
          : 'the paper saw CPL help large agents; a twin this tiny, trained on few mazes, may be too small to show it.',
      };
  if (w.sweeping || !a || !b || b.length < a.length)
    return {
      takeaway,
      said,
      ...caveat,
      more: `Every turn is being scored with both models: their attention follows. ${counted}`,
      ...(tally.luck && { luck: tally.luck }),
      ...(tally.counts && { counts: tally.counts }),
    };
  const t = turnByTurn(a, b);
  const verdict =
    t.priorLower * 2 > t.turns && t.diagonalLower * 2 > t.turns
      ? ': it leans less on them over the whole conversation'
      : ': on this conversation it does not lean clearly less';
  // The chart on the page draws it: said on the card, so the twin's lower line is not left unread.
  // All turns lower while the count at the wall barely moves: attention is not the move, said where it shows.
  // Of this conversation: readers set the chart's one conversation against the counts over every turn at a wall.
  const at = t.priorLower === t.turns ? 'every turn of this conversation' : `${t.priorLower} of this conversation's ${t.turns} turns`;
  const yet = t.priorLower * 2 > t.turns && !twinClear;
  // Where to look, unfolded under the reveal's sentence: the chart is below the card's reach.
  const lines = `look at "Shares by turn" in the Charts panel, where the twin's line ("CPL twin: prior assistant share") lies under the demo model's ("prior assistant") at ${at}.`;
  // What else the chart shows, in the fold: the card keeps where to look.
  const chart = `Both lines rise as the answers pile up, and so does their even share (grey, dashed), since there is more text to read.${atChance ? ` The twin's line ends on the even-share line here, yet over the stored turns at a wall it still walks back in ${movePct(WALL_COUNTS, 'twin')} of its moves.` : ''}`;
  return {
    // Less attention on its answers at most turns, about as many repeats: the step's point, where the chart shows it.
    takeaway: yet ? 'The twin pays its prior assistant answers less attention, yet does not repeat clearly less.' : takeaway,
    ...(tally.luck && { luck: tally.luck }),
    ...(tally.counts && { counts: tally.counts }),
    said,
    ...caveat,
    next: lines,
    more: `${chart} Less attention on them did not clearly mean fewer repeats.${ltBringsMost(WALL_COUNTS) && !twinClear ? ' The paper saw CPL help large agents; a twin this tiny, trained on few mazes, may also be too small to show it.' : ''} Their attention, turn by turn: the twin gives its prior assistant answers less attention at ${t.priorLower} of ${t.turns} turns and has the smaller diagonal ratio at ${t.diagonalLower} of ${t.turns}${verdict}. ${counted} ${paperCpl()}`,
  };
}

/** The paper's own CPL figures, with their units and model, where the twin is met: readers found them only in the close. */
export const paperCpl = (): string =>
  `For scale, the paper's figures: in an 8-billion-parameter model (Qwen3-8B), CPL made the diagonal ${PAPERS.inertia.diagonalCut} smaller and raised the agents' task success by ${PAPERS.inertia.successGain}, across eight task environments (as its abstract gives them).`;

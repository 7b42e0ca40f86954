/**
 * The played-through step: every policy plays the mazes from their first turn on its own answers (closed-loop.ts),
 * so a policy is judged on where it leads, not on the turns Full got stuck at. Readers asked for this result on a
 * card of its own, before the recap, and for it to say plainly what cutting the history did to the task.
 */
import { CLOSED_LOOP, type ClosedLoopRecord, closedSaid, goalLuck, goalSplit, noGoalGain, type Player, playTally } from './closed-loop';
import type { Reveal } from './world';

/** The players the step draws (the twin waits for its own step) and their names on the card. */
const DRAWN: { player: Player; label: string }[] = [
  { player: 'full', label: 'Full' },
  { player: 'lt', label: 'LT' },
  { player: 'de', label: 'DE' },
  { player: 'ao', label: 'AO' },
  { player: 'ao-last', label: 'AO-last' },
  { player: 'ao-second-last', label: 'AO-second-last' },
];

/** One bar of the goals chart: the mazes where the goal was reached, of those played. */
export interface GoalRow {
  label: string;
  reached: number;
  mazes: number;
  /** Back into the wall right after hitting it, of the moves made there, in whole per cent (on its own turns). */
  repeats: number;
}

export interface GoalChart {
  caption: string;
  rows: GoalRow[];
}

/** The first drawn policy that reached the goal in clearly more mazes than Full (a sign test over the mazes where they part). */
function gainer(loop: ClosedLoopRecord): string {
  const gains = ({ player }: { player: Player }) => {
    const s = goalSplit(loop.played[player], loop.played.full);
    return s.only > s.other && goalLuck(s.only, s.other).clear;
  };
  return DRAWN.find(gains)?.label ?? 'A policy';
}

/**
 * The policy that reached the goal most often, where it is not Full, against Full maze by maze: a reader asked why the
 * bars' longest (AO-second-last's 7) went unsaid. Empty where Full or DE reached it most (said already).
 */
function mostSaid(loop: ClosedLoopRecord): string {
  const reached = (p: Player) => playTally(loop.played[p]).reached;
  const top = DRAWN.reduce((best, d) => (reached(d.player) > reached(best.player) ? d : best), DRAWN[0]!);
  // Full's and DE's goals are said already.
  if (top.player === 'full' || top.player === 'de') return '';
  const s = goalSplit(loop.played[top.player], loop.played.full);
  const luck = goalLuck(s.only, s.other);
  return ` ${top.label} reached it most often (${reached(top.player)}); against Full, maze by maze, ${s.only} to ${s.other}, ${luck.clear ? 'more than luck' : 'a split luck alone could give'}.`;
}

/** The step's reveal: goals reached under each policy, and DE against Full maze by maze, with its luck. */
export function playedReveal(loop: ClosedLoopRecord = CLOSED_LOOP): Reveal {
  if (!loop.played.full.length) return { said: '' };
  const t = (p: Player) => playTally(loop.played[p]);
  const [full, de, ao, latest] = [t('full'), t('de'), t('ao'), t('ao-last')];
  const split = goalSplit(loop.played.de, loop.played.full);
  const luck = goalLuck(split.only, split.other);
  const noGain = noGoalGain(loop);
  // Hiding all its answers or the previous one: said only where neither reached a goal (what the picture shows at a glance).
  const lost =
    ao.reached === 0 && latest.reached === 0
      ? ` Hiding all its answers (AO) or only its previous one (AO-last) left it reaching no goal at all${
          // AO's repeats on its own answers, where as many as Full's: a reader caught step 4's drop gone here, unsaid.
          Math.abs(ao.repeatRate - full.repeatRate) <= 3 ? ', and AO, playing on, repeated as often as Full' : ''
        }.`
      : '';
  return {
    takeaway: noGain ? 'Fewer repeats did not mean more goals for this tiny model.' : `${gainer(loop)} reached the goal clearly more often than Full.`,
    // Each bar with its repeats on its own turns: both measures side by side (readers asked for the two designs together).
    goals: {
      caption: `Goal reached, of the ${full.mazes} mazes that do not start walled in, each played from its first turn under one policy; beside it, how often it walked back into the same wall right after hitting it`,
      rows: DRAWN.map(({ player, label }) => {
        const { reached, mazes, repeatRate } = t(player);
        return { label, reached, mazes, repeats: repeatRate };
      }),
    },
    // The repeats first, on its own answers: at the walls Full hit, no history cut them to 46 %; played through, far less.
    // Named by whose walls it counts: a reader took it for step 2's no-history rate, moved; step 2's beside it was one rate too many.
    said: `With no history it walked back into walls met on its own in ${de.repeatRate} %, Full in ${full.repeatRate} %, and reached the goal in ${de.reached} mazes, not ${full.reached}.${lost}`,
    caveat: `${full.mazes} mazes are few, so a small gain would not show, and this is one tiny model.`,
    // DE against Full maze by maze, the most goals where another policy has them, and the counts behind the bars.
    more: `Maze by maze, only DE reached the goal in ${split.only}, only Full in ${split.other}; were the two alike, luck would split them so ${luck.said}${luck.clear ? '' : ', so it could be luck'}.${mostSaid(loop)} ${closedSaid(loop)} A maze ends at the goal, at an answer with no move, or after its last turn.`,
  };
}

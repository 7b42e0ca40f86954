/**
 * The recap after the behaviour steps: every policy counted at the wall side by side (what it shows of earlier turns,
 * how often the model walks back into the wall, what that tells), read against no history, and why AO is the test
 * of the model's own words. Plain functions over the stored turns; every rate and reading computed from the counts.
 */
import { controlKeeps, followsSwap, hideVerdict, SWAP_PULL, swapSaid, unsettled } from './hidden-counts';
import { countTable } from './count-table';
import { byChance, historyAdds, ltBringsMost, luckWord, moveRate, noMoveRate, openRate } from './wall-counts';
import { type Split, WALL_COUNTS, type WallCounts, type Writer } from './wall-records';
import type { Reveal } from './world';
import { CLOSED_LOOP, type ClosedLoopRecord, goalsOf, PLAYERS, type Player } from './closed-loop';

/** One policy's row of the recap. */
export interface RecapRow {
  label: string;
  writer: Writer;
  /** What the policy shows the model of the earlier turns. */
  sees: string;
  /** Moves back into the wall, of the moves made (the running count's rate). */
  rate: number;
  /** Moves into an open way, of the moves made: a drop in repeats may only swap walls. */
  open: number;
  /** How often luck alone would give its gap to DE, paired turn by turn (none for DE itself). */
  luck?: string;
  /** What the rate tells, read against DE and Full. */
  tells: string;
}

/** How sure a gap is, in plain words: more than luck, or could be luck (luck alone would give it 1 time in 20 or more). */
const verdict = (s: Split): string => luckWord(byChance(s).clear);

/** A row against both ends, DE and Full, as its reading compares it: the chances themselves are in the steps' folds. */
const luckOf = (c: WallCounts, w: Writer): string | undefined =>
  w === 'de' ? undefined : w === 'full' ? `from DE: ${verdict(c.split.de.full)}` : `from DE: ${verdict(c.split.de[w])}; from Full: ${verdict(c.split.full[w])}`;

/** The recap's rows: Full and DE, the two ends; LT, which keeps the latest turn; the three that hide the answers. */
export function recapRows(c: WallCounts = WALL_COUNTS): RecapRow[] {
  const hidden = (w: Writer, words = 'its own words'): string =>
    ({
      below: `it throws the model off${noMoveRate(c, w) >= 20 ? ` (${noMoveRate(c, w)} % of answers make no move)` : ''}: it tells little`,
      pull: unsettled(c, w) ? 'as with no history, but more moves hit other walls: confused too' : `as with no history: the extra repeats went with ${words}`,
      part: 'part of the extra repeats stay',
      all: 'the extra repeats all stay',
    })[hideVerdict(c, w)];
  const row = (label: string, w: Writer, sees: string, tells: string): RecapRow => {
    // Read as verdicts (a newcomer took "1 time in 2" for a bad sign), against both ends: AO-last's claim rests on Full.
    const luck = luckOf(c, w);
    return { label, writer: w, sees, rate: moveRate(c, w), open: openRate(c, w), ...(luck && { luck }), tells };
  };
  return [
    row('Full', 'full', 'every earlier turn', `${historyAdds(c)} more in every 100 moves than DE: the history's pull`),
    row('DE', 'de', 'no earlier turn (the last message still names the walls)', 'its pull with no history at all: the line to read the others against'),
    row(
      'LT',
      'lt',
      'the turn before only',
      ltBringsMost(c) ? 'most of the extra comes back: the pull is in the turn before' : 'little of the extra comes back',
    ),
    row('AO', 'ao', 'every user turn; its answers replaced by a placeholder', hidden('ao')),
    // Not a paper's policy: this tool's direct test of what LT and AO together suggest.
    row(
      'AO-last',
      'ao-last',
      "every turn; only its previous answer replaced by the placeholder (this tool's test)",
      // Read with its control where that keeps the repeats: then the more moves into other walls are not the placeholder's.
      hideVerdict(c, 'ao-last') === 'pull' && controlKeeps(c)
        ? `as with no history${unsettled(c, 'ao-last') ? ', with more moves into other walls' : ''}, while its control keeps them: the pull goes with that answer`
        : hidden('ao-last', 'that answer'),
    ),
    // AO-last's control: the same one placeholder, on the answer before; read against Full, where a placeholder that changes nothing stays.
    row(
      'AO-second-last',
      'ao-second-last',
      'every turn; only the answer two turns back replaced (the control)',
      controlKeeps(c)
        ? 'most of the extra repeats stay: one placeholder alone does not take them away'
        : 'the repeats drop here too: part of any drop is the placeholder',
    ),
  ];
}

/** The recap's reveal: where the counts place the pull, and why AO, of the three that hide the answers, is the test. */
export function recapReveal(c: WallCounts = WALL_COUNTS, loop: ClosedLoopRecord = CLOSED_LOOP): Reveal {
  const [ao, latest] = [hideVerdict(c, 'ao'), hideVerdict(c, 'ao-last')];
  const played = loop.played.full.length > 0;
  const takeaway =
    latest === 'pull' && ltBringsMost(c)
      ? // One plain claim; the confusion that hedges it is the caveat's. "Seem to" where the control does not rule the placeholder out.
        controlKeeps(c)
        ? "The extra repeats come with the model's previous answer."
        : "The extra repeats seem to come with the model's previous answer."
      : ao === 'pull'
        ? "The extra repeats come with the model's own answers, not only the previous one."
        : "The extra repeats do not come only with the model's own words.";
  // Both placeholders unsettling the model: said once, for both.
  // AO-last's extra moves into other walls are confusion only where its control's placeholder does the same.
  const shaken = [unsettled(c, 'ao') && ao === 'pull', unsettled(c, 'ao-last') && latest === 'pull' && unsettled(c, 'ao-second-last')];
  // The previous answer's first where the bold line rests on it (AO-last's drop), AO's else.
  const latestShaken = latest === 'pull' && unsettled(c, 'ao-last');
  const confusion = shaken.every(Boolean)
    ? 'both placeholders confuse it (more moves into other walls), so part of each drop may be confusion.'
    : latestShaken && ltBringsMost(c)
      ? 'hiding its previous answer confuses it (more moves into other walls), so part of its drop in repeats (AO-last) may be confusion.'
      : shaken[0]
        ? "AO's placeholders confuse it (more moves into other walls), so part of its drop may be confusion."
        : '';
  return {
    takeaway,
    // Why AO, of the three that hide all its answers: it keeps what the user said, so only the model's own words are missing.
    // The swap test first, the plainest of them, where it shows the pull: the model follows what its answer says.
    // AO's own reading (it keeps the user's turns, where the walls are) is in the hide step: four sentences at most here.
    // The swap test said as the new test it is on this card (a reader found its figures only in step 5's fold before).
    said: `${followsSwap(c) ? `${swapSaid(c, 'The swap test: with')} ${SWAP_PULL} ` : ''}AO-last is the direct test: only the previous answer hidden; its control hides the answer two turns back${controlKeeps(c) ? ' and keeps the repeats: a placeholder alone does not take them away' : ''}.`,
    // The placeholders' confusion: the limit of the bold line (whole mazes have their own step, just before).
    ...(confusion && { caveat: confusion }),
    table: {
      caption: `Right after walking into a wall, how often it walks into it again (of the moves it makes). Under each rate, how often it finds an open way${
        played ? `, in how many mazes it reached the goal playing whole mazes under that policy on its own answers,` : ','
      } then its gap to DE and to Full: "more than luck" where luck alone would give it less than 1 time in 20.`,
      columns: ['Policy: what the model is shown', 'Back into the wall', 'What that tells'],
      rows: recapRows(c).map(({ writer, open, ...r }) => ({
        ...r,
        figure: `${r.rate} %`,
        also: `open way: ${open} %${played && (PLAYERS as readonly string[]).includes(writer) ? ` · goal: ${goalsOf(loop, writer as Player)}` : ''}`,
      })),
    },
    // The same policies counted over every turn, "no move" a column of its own: the rates' one base, in the fold.
    counts: countTable(
      recapRows(c).map((r) => [r.label, r.writer] as const),
      c,
    ),
    more: `Every rate is of the moves made on the ${c.turns} turns right after a wall, in ${c.episodes} mazes the demo model played; answers that make no move are left out (the table counts them). AO-last hides the previous answer as AO hides each (its placeholder), without AO's line in the system prompt.`,
  };
}

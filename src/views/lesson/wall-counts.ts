/**
 * What the lesson says of the stored turns right after a wall (wall-records.ts): how often the demo model walks
 * into a wall again, under each policy and with heads switched off, against no history and against chance, in the
 * words and per cents the cards use. Plain functions.
 */
import { signFlipTest, signTest } from '../../metrics/stats';
import { countTable, headsCountTable } from './count-table';
import { stepNo } from './order';
import { type HeadSet, type HeadsOffCounts, rate, type Split, WALL_COUNTS, type WallCounts, type Writer } from './wall-records';
import { type LuckRow, type Reveal, SILENT } from './world';

/** The lesson's one line: a gap luck alone gives less than 1 time in 20 is "more than luck" (the words and the meter). */
export const LUCK_LINE = 20;

/**
 * How often luck alone would give a gap the size of `s`'s, in words, and whether that is rarely enough (under 1 time
 * in 20) to call the difference more than luck. Each maze counted once where the split has its mazes (a sign-flip test
 * on each maze's gap: its turns share one history, so they are not independent tosses); else turn by turn.
 */
export function byChance(s: Split): { p: number; said: string; clear: boolean } {
  return s.byMaze ? chanceOf(signFlipTest(s.byMaze)) : turnByTurn(s);
}

/** A split read turn by turn, its mazes left out: step 2 says both ways, turn by turn first. */
const turnsOnly = ({ first, second }: Split): Split => ({ first, second });

/** The same turn by turn: a two-sided sign test on the turns where the two part (the first line of step 2's meter). */
const turnByTurn = (s: Split) => chanceOf(signTest(s.first, s.second));

/** A chance `p` in the lesson's words, and whether it is under the line. */
function chanceOf(p: number): { p: number; said: string; clear: boolean } {
  // One form throughout ("1 time in N"), rounded as a newcomer would say it.
  const said =
    p < 0.001 ? 'less than 1 time in 1,000' : p < 0.01 ? 'less than 1 time in 100' : p >= 0.5 ? '1 time in 2 or more' : `about 1 time in ${Math.round(1 / p)}`;
  return { p, said, clear: p < 1 / LUCK_LINE };
}

/** A comparison for the luck meter, from the same sign test the words use. */
export function luckRow(label: string, s: Split): LuckRow {
  return { label, ...byChance(s) };
}

/**
 * Luck, as the lesson first says it: how often chance alone would give the gap were the two alike, and the line it
 * calls clear (in words, so the card's count of figures stays small).
 */
export function luckSaid(s: Split, two: string): string {
  const b = byChance(s);
  // A question, then its answer: the sentence that defines the lesson's one word for it.
  return `could the gap be luck? Were ${two} alike, luck would make one this size ${b.said}, so ${b.clear ? 'it is more than luck' : 'it could be luck'}.`;
}

/** A writer's repeats among its moves made, counted and in per cent: "80 of 160 moves (50 %)". */
export const ofMoves = (c: WallCounts, w: Writer): string => `${c.repeats[w]} of ${c.moved[w]} moves (${moveRate(c, w)} %)`;

export { rate };
export const of = (n: number, total: number) => `${n} (${rate(n, total)} %)`;
export const pct = (n: number, total: number) => `${rate(n, total)} %`;

/**
 * The lesson's one rate at the wall: repeats of the blocked move among the answers that make a move. Hidden
 * answers often make none (the demo model never trained on them); every rate the cards say and draw is this one,
 * so a bar and its words never count on different bases.
 */
export const moveRate = (c: WallCounts, w: Writer): number => rate(c.repeats[w], c.moved[w] || 1);
export const movePct = (c: WallCounts, w: Writer) => `${moveRate(c, w)} %`;
/** Moves into an open way, of the moves made (the bars' green). */
export const openRate = (c: WallCounts, w: Writer): number => rate(c.open[w], c.moved[w] || 1);

/** Turns with no move at all (none written, or "stay"), of all the turns, in whole per cent. */
export const noMoveRate = (c: WallCounts, w: Writer): number => rate(c.turns - c.moved[w], c.turns);

/** How many more repeats in every 100 moves at a wall the whole history brings than none (the per cents as said). */
export const historyAdds = (c: WallCounts): number => moveRate(c, 'full') - moveRate(c, 'de');

/** The generation step's "not only this once": how often, over all the episodes, Full and DE repeat the move. */
export function wallTally(c: WallCounts = WALL_COUNTS): Reveal {
  // Each maze counted once: its chance read by the meter and said in the fold, worked out once.
  const byMaze = byChance(c.split.de.full);
  // AO keeps every user turn and hides only the model's own answers: the control that tells what the history's pull is.
  const gap = historyAdds(c);
  return {
    // With no history it still repeats often: the goal beyond the wall is the task's own pull; inertia is the gap.
    takeaway:
      gap > 0
        ? `After hitting a wall (${c.mazes} mazes), it walks into it again in ${movePct(c, 'full')} of moves with its whole history, ${movePct(c, 'de')} with none. The gap is the history's pull.`
        : 'Here the history adds no repeats into the wall: no inertia shows in the move.',
    // The card keeps the two rates (the chart draws them); how many turns, mazes and extra repeats, in the fold.
    // Luck introduced here, where the first comparison is: every later count reads the same way.
    // What the chart counts is its caption (the mazes, the moves made): the card keeps the reading.
    said: `C${luckSaid(c.split.de.full, 'Full and DE').slice(1)}`,
    caveat: `even with no history it walks into the wall again in ${movePct(c, 'de')}, because its goal often lies just beyond it; the part above that is the history's pull.`,
    // The same gap with each maze counted once, its size kept: the stricter test, for the turns of a maze are not independent.
    luck: [
      { label: 'Full against DE, turn by turn', ...turnByTurn(c.split.de.full) },
      {
        label: 'the same, each maze counted once',
        ...byMaze,
        note: "The second line counts each maze once, by how many more of its turns repeat under Full: a maze's turns share one history, so they are not independent tosses. From here on, every gap is read this stricter way.",
      },
    ],
    counts: countTable(
      [
        ['Full', 'full'],
        ['DE', 'de'],
      ],
      c,
    ),
    more: `Over ${c.turns} turns right after a wall, in the ${c.mazes} of the ${c.episodes} mazes where it hit one, the whole history adds ${gap} repeats in every 100 moves (${moveRate(c, 'full')} − ${moveRate(c, 'de')}); the next two steps find where they come from. ${parted(turnsOnly(c.split.de.full), 'only Full repeats the blocked move', 'only DE')} ${mazeSaid(c.split.de.full.byMaze ?? [], byMaze.said)}`,
  };
}

/**
 * The Full–DE gap tested maze by maze, in words: the turns of one maze share its history, so the turn-by-turn count
 * treats them as more independent tosses than they are.
 */
function mazeSaid(d: readonly number[], chance: string): string {
  const [more, fewer] = [d.filter((x) => x > 0), d.filter((x) => x < 0).map((x) => -x)];
  // By how much, each way: the test weighs each maze by its gap, and a reader counting mazes alone saw a weak split.
  const by = (xs: number[]) => {
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    return xs.length ? ` (by ${lo === hi ? lo : `${lo} to ${hi}`} ${hi === 1 ? 'turn' : 'turns'})` : '';
  };
  return `The turns of one maze share its history, so they are not independent tosses. Counted maze by maze, Full repeats more in ${more.length} of the ${d.length} mazes with a wall${by(more)}, DE in ${fewer.length}${by(fewer)}; were the two alike, flipping the sign of each maze's gap at random would give a total this far from even ${chance}.`;
}

/** Whether fewer than half the stored repeats look back plainly: then the inside recap calls attention a clue, not the cause. */
export const looksRare = (c: WallCounts = WALL_COUNTS): boolean => c.looks.back * 2 < c.looks.of;
/** The share of the stored repeats into a wall that look back at the earlier same moves (in per cent, as said). */
export const looksBackShare = (c: WallCounts = WALL_COUNTS): string => pct(c.looks.back, c.looks.of);

/** One writer's row of the running count: where its move went on the turns right after a wall, in per cent as the card says them. */
export interface BoardRow {
  /** The writer the row counts (absent: a row of the heads step's count, heads switched off). */
  writer?: Writer;
  label: string;
  /** Back into the same wall, of the answers that make a move. */
  repeats: number;
  /** An open way, of the answers that make a move. */
  open: number;
  /** No move at all (none written, or "stay"), of all the turns. */
  noMove: number;
  /** The figure written beside the bar, where the card's words count something else than the repeats (the heads step: "39 % changed"). */
  figure?: string;
}

/**
 * The policies that cut the history in steps (Window, Clip, Summary): drawn in the drop-turns step's fold, not on the
 * running count, which leads with Full, LT and DE (readers lost the thread among nine bars).
 */
export const CUTTING = ['window:6', 'clip:6:1', 'summary:6:1'] as const satisfies readonly Writer[];

/** The running count at the wall: a row per writer the learner has reached, and DE's rate, the mark to read the others against. */
export interface Board {
  turns: number;
  episodes: number;
  /** The mazes the turns come from (those where it hit a wall), said in the caption beside all the episodes. */
  mazes?: number;
  rows: BoardRow[];
  /** DE's rate: the goal's own pull, marked on every bar (null: no mark, the heads step's count). */
  noHistory: number | null;
  /** What the bars count, when not the running count's turns after a wall. */
  caption?: string;
  /** The key's words for the bars' first part, when not "back into the wall" (the heads step: the moves unchanged). */
  repeatKey?: string;
}

/**
 * The card's running count at the wall: what the agent does on the turns right after one, under each writer whose
 * step the learner has reached (Full and DE from the generation step, LT from the contexts step, AO from the hide
 * step with AO-last and its control, the twin from the CPL step), in the order taught. Cut-last, SUM and Filler are
 * left to the folds: a newcomer met too many names at once.
 */
export function scoreboard(
  // aoLast: AO-last's row, drawn once its count is revealed (in the hide step, after its click); drawn when absent.
  reached: { generate: boolean; contexts: boolean; hide: boolean; cpl: boolean; aoLast?: boolean },
  c: WallCounts = WALL_COUNTS,
  // The writers a step reads (the CPL step: Full, LT, DE and the twin); all those reached when absent.
  only?: readonly Writer[],
): Board | null {
  if (!reached.generate) return null;
  const row = (label: string, w: Writer): BoardRow => ({
    writer: w,
    label,
    repeats: moveRate(c, w),
    open: openRate(c, w),
    noMove: noMoveRate(c, w),
  });
  const rows = [row('whole history (Full)', 'full')];
  if (reached.contexts)
    rows.push(
      row('last 6 turns (Window-6)', 'window:6'),
      row('piled up to 6, then the last (Clip-6→1)', 'clip:6:1'),
      row('as Clip, with summaries (Summary-6→1)', 'summary:6:1'),
      row('turn before only (LT)', 'lt'),
    );
  if (reached.hide)
    rows.push(
      row('own answers hidden (AO)', 'ao'),
      ...(reached.aoLast === false
        ? []
        : [row('previous answer hidden (AO-last)', 'ao-last'), row('answer two turns back hidden (AO-second-last)', 'ao-second-last')]),
    );
  rows.push(row('no history (DE)', 'de'));
  if (reached.cpl) rows.push(row('CPL twin, whole history', 'twin'), row('second twin (toward DE), whole history', 'twin-de'));
  return {
    turns: c.turns,
    episodes: c.episodes,
    mazes: c.mazes,
    rows: only ? rows.filter((r) => r.writer !== undefined && only.includes(r.writer)) : rows,
    noHistory: moveRate(c, 'de'),
  };
}

/** Of the moves a set of heads switched off still makes on the repeats, the share that changed (answers with no move left out, as at the wall). */
const changedRate = (h: HeadsOffCounts, set: HeadSet): number => rate(h.moved[set] - h.repeats[set], h.moved[set] || 1);
/**
 * Of those moves, the share still back into the wall: the measure every other step says ("walks back in 78 %"),
 * where readers of a "changed" share took it for the part cured and misread the bars beside it.
 */
export const stillPct = (h: HeadsOffCounts, set: HeadSet): string => `${still(h, set)} %`;
const still = (h: HeadsOffCounts, set: HeadSet): number => rate(h.repeats[set], h.moved[set] || 1);

/**
 * Whether the most-copying heads off change the repeat clearly more than three heads drawn at random (5 points or more,
 * and beyond chance on the paired turns): the stricter control, since the lowest heads may be the least used.
 */
export const beyondRandom = (h: HeadsOffCounts): boolean => changedRate(h, 'top') >= changedRate(h, 'random') + 5 && byChance(h.changedRandom).clear;

/** Whether the turn before alone (LT) brings back at least half of what the whole history adds. */
export const ltBringsMost = (c: WallCounts): boolean => (moveRate(c, 'lt') - moveRate(c, 'de')) * 2 >= historyAdds(c);

/** Whether the most-copying heads off change the repeat more often than the control by 5 points or more: what they carry beyond any three heads. */
export const headsCarry = (c: WallCounts): boolean => c.headsOff.of > 0 && changedRate(c.headsOff, 'top') >= changedRate(c.headsOff, 'bottom') + 5;
/** Whether they do so clearly: 5 points or more, and beyond chance on the turns where both sets make a move. */
export const headsClear = (c: WallCounts): boolean => headsCarry(c) && byChance(c.headsOff.changed).clear;

/** Whether the moves the most-copying heads off changed went mostly into another wall rather than an open way. */
export const mostlyIntoWalls = (h: HeadsOffCounts): boolean => h.moved.top - h.repeats.top - h.open.top > h.open.top;

/** The heads step's count: over the stored repeats, how often each set of last-layer heads switched off still repeats the move. */
export function headsTally(c: WallCounts = WALL_COUNTS): Reveal {
  const h = c.headsOff;
  if (!h.of) return SILENT;
  // Where the changed moves went is said only of heads that clearly carry more than the control.
  const carry = headsClear(c);
  const random = beyondRandom(h);
  const went = wentTo(h);
  return {
    takeaway: !headsCarry(c)
      ? 'The most-copying heads carry no more of the pull than any three heads: in this model it does not sit in them.'
      : !carry
        ? 'Switching off the most-copying heads changed more moves than the control, but that could be luck.'
        : random
          ? mostlyIntoWalls(h)
            ? 'Switching off the most-copying heads changes the repeated move more often than the lowest or three at random, but mostly to another wall: they change which wall, not whether.'
            : 'Attention pointed at heads that matter: switching off the most-copying heads changes the repeated move more often than the lowest or three at random, by more than luck.'
          : 'Switching off the most-copying heads stops more repeats than switching off the lowest, but not clearly more than switching off three at random.',
    // How sure, in words; the chances themselves in the fold. How many repeats: the chart's caption.
    // In step 2's measure (back into the wall); where the changed moves went, under "Careful:": a reader took
    // "changed" for "cured".
    // "In every 100 of them": the base said in the sentence, so 61 is not read against the 78 % of every move at a wall.
    said: `These ${h.of} moves walked into the wall again with every head on; with the most-copying heads off, ${still(h, 'top')} in every 100 of them still do; three at random, ${still(h, 'random')}; the lowest, ${still(h, 'bottom')}${
      carry
        ? random
          ? '. Its gaps to both are more than luck.'
          : '. Only its gap to the lowest is more than luck.'
        : `: were the top and the lowest alike, such a gap would come ${byChance(h.changed).said}.`
    }${carry ? headsLead(h) : ''}`,
    ...(carry && went && { caveat: went }),
    board: headsBoard(h, c.turns),
    luck: [luckRow('most-copying off against three at random', h.changedRandom), luckRow('most-copying off against the lowest off', h.changed)],
    counts: headsCountTable(h),
    more: `The repeats are ${pct(h.of, c.turns)} of ${c.turns} turns right after a wall; each turn has its own heads ranked. Where both sets make a move, t${parted(h.changed, 'only the most-copying heads off changed the move', 'only the lowest', 'were both sets alike').slice(1)} Against the random three, t${parted(h.changedRandom, 'only the most-copying heads off changed it', 'only the random three', 'were both sets alike').slice(1)} The random three are drawn anew at each turn from the last layer's heads outside the most-copying three (seeded, so a rerun draws the same).`,
  };
}

/**
 * The heads step's count drawn as the running count is: the stored repeats (every one back into the wall with every
 * head on, drawn as a 100 % bar) written again with the most-copying heads off, three at random and the lowest;
 * each among the moves still made, its figure the part still back into the wall, as every count of the lesson.
 */
function headsBoard(h: HeadsOffCounts, turns: number): Board {
  const row = (label: string, set: HeadSet): BoardRow => ({
    label,
    repeats: rate(h.repeats[set], h.moved[set] || 1),
    open: rate(h.open[set], h.moved[set] || 1),
    noMove: rate(h.of - h.moved[set], h.of),
  });
  return {
    turns: h.of,
    episodes: 0,
    // The moves as picked, every head on: all back into the wall, the bar the others are read against.
    rows: [
      { label: 'every head on (how these were picked)', repeats: 100, open: 0, noMove: 0 },
      row('most-copying heads off', 'top'),
      row('three at random off (drawn anew each turn)', 'random'),
      row('lowest heads off', 'bottom'),
    ],
    noHistory: null,
    caption: `The ${h.of} moves back into the wall with every head on (of step ${stepNo('generate')}'s ${turns} turns right after a wall), written again with heads switched off: where each move goes now`,
    repeatKey: 'still into the same wall',
  };
}

/**
 * Where the moves the most-copying heads off changed went: into another wall or an open way. Picked for copying the
 * list of cells, they still steer the move; a changed move is not a way out unless it is an open one.
 */
function headsLead(h: HeadsOffCounts): string {
  if (h.moved.top - h.repeats.top <= 0) return '';
  // Into walls, the caveat (`wentTo`) says it, and the takeaway what they carry.
  return mostlyIntoWalls(h) ? '' : ' Without these heads it more often finds its way around the wall.';
}

/** Where the most-copying heads' changed moves went, unfolded under "Careful:" (readers took a change for a cure); empty without any. */
function wentTo(h: HeadsOffCounts): string {
  if (h.moved.top - h.repeats.top <= 0) return '';
  return mostlyIntoWalls(h)
    ? 'most moves that changed went into another wall, not an open way, so switching heads off breaks the model more often than it frees it.'
    : 'most moves that changed took an open way.';
}

/** Where two conditions part on the same turns, counted, and how often luck alone gives such a gap (the folds' "how sure"). */
export function parted(s: Split, first: string, second: string, alike = 'were the two alike'): string {
  const n = s.first + s.second;
  const luck = s.byMaze
    ? `with each maze counted once, ${alike}, luck would give a gap this size ${byChance(s).said}`
    : `${alike}, chance would split them this unevenly ${byChance(s).said}`;
  return `The two disagree on ${n} turn${n === 1 ? '' : 's'}: ${first} ${s.first} time${s.first === 1 ? '' : 's'}, ${second} ${s.second}; ${luck}.`;
}

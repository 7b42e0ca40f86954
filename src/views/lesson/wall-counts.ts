/**
 * What the lesson says of the stored turns right after a wall (wall-records.ts): how often the demo model walks
 * into a wall again under each policy, against no history and against chance, in the
 * words and per cents the cards use. Plain functions.
 */
import { clusterInterval, signFlipTest, signTest } from '../../metrics/stats';
import { countTable } from './count-table';
import { rate, type Split, WALL_COUNTS, type WallCounts, type Writer } from './wall-records';
import type { LuckRow, Reveal } from './world';

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

/** The lesson's verdict on a gap, in its two words: the meter, the recap and the cards say it alike. */
export const luckWord = (clear: boolean): string => (clear ? 'more than luck' : 'could be luck');

/** A split read turn by turn, its mazes left out: step 2 says both ways, turn by turn first. */
const turnsOnly = ({ first, second }: Split): Split => ({ first, second });

/** The same turn by turn: a two-sided sign test on the turns where the two part (the first line of step 2's meter). */
const turnByTurn = (s: Split) => chanceOf(signTest(s.first, s.second));

/** A chance `p` in the lesson's words, and whether it is under the line. */
export function chanceOf(p: number): { p: number; said: string; clear: boolean } {
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
  const lean = noHistoryLean(c);
  return {
    // With no history it still repeats often (the model's own lean, said in the caveat); inertia is the gap.
    takeaway:
      gap > 0
        ? `After a wall, it walks into it again in ${movePct(c, 'full')} of moves with history, ${movePct(c, 'de')} without.`
        : 'Here the history adds no repeats into the wall.',
    // The card keeps the two rates (the chart draws them); how many turns, mazes and extra repeats, in the fold.
    // Luck introduced here, where the first comparison is: every later count reads the same way.
    // What the chart counts is its caption (the mazes, the moves made): the card keeps the reading.
    said: `C${luckSaid(c.split.de.full, 'Full and DE').slice(1)}`,
    // Why so often with none, from the record: not the goal (it lies beyond the wall at few of these turns), but where
    // the model heads when alone with the last message. The lesson said "the goal" until the record counted it.
    // The baseline, plainly: why only the gap counts (readers could not tie the no-history lean to this maze; it is in the fold).
    caveat: `even with no history it walks back in ${movePct(c, 'de')} of the time; only the extra ${gap} points come from its history.`,
    // The same gap with each maze counted once, its size kept: the stricter test, for the turns of a maze are not independent.
    luck: [
      { label: 'Full against DE, turn by turn', ...turnByTurn(c.split.de.full) },
      {
        label: 'the same, each maze counted once',
        ...byMaze,
        note: "The second line counts each maze once, by how many more of its turns repeat under Full: a maze's turns share one history, so they are not independent tosses. From here on, every gap is read this stricter way. The lesson makes many such comparisons, and among many, one could pass the line by luck: trust most the ones its steps agree on.",
      },
    ],
    counts: countTable(
      [
        ['Full', 'full'],
        ['DE', 'de'],
      ],
      c,
    ),
    more: `${stagesSaid(c)}Over ${c.turns} turns right after a wall, in the ${c.mazes} of the ${c.episodes} mazes where it hit one${walledOut(c)}, the whole history adds ${gap} repeats in every 100 moves (${moveRate(c, 'full')} − ${moveRate(c, 'de')}); the next steps find where they come from.${whyNoHistory(c, lean)} The model always writes its likeliest next token, so a rerun writes the same answers: luck here is which mazes and turns came up. ${parted(turnsOnly(c.split.de.full), 'only Full repeats the blocked move', 'only DE')} ${mazeSaid(c.split.de.full.byMaze ?? [], byMaze.said)}`,
  };
}

/**
 * Where the model heads with no history at all: its two commonest moves under DE, when they make three in four of
 * its moves or more (null else), as "north or west" and their share.
 */
export function noHistoryLean(c: WallCounts): { ways: string; share: number; walls: boolean } | null {
  const by = Object.entries(c.noHistoryMoves ?? {}).sort((a, b) => b[1] - a[1]);
  const made = by.reduce((s, [, n]) => s + n, 0);
  const two = by.slice(0, 2);
  const n = two.reduce((s, [, k]) => s + k, 0);
  // Whether most of the walls hit stand that way too: then the lean alone walks it into them.
  const hits = Object.values(c.hitWays ?? {}).reduce((s, k) => s + k, 0);
  const there = two.reduce((s, [m]) => s + (c.hitWays?.[m] ?? 0), 0);
  return made > 0 && n * 4 >= made * 3 ? { ways: two.map(([m]) => m).join(' or '), share: rate(n, made), walls: there * 2 > hits } : null;
}

/** Why DE repeats so often, in the fold: how rarely the goal lies beyond the wall, and where it heads instead. */
function whyNoHistory(c: WallCounts, lean: ReturnType<typeof noHistoryLean>): string {
  const g = c.goalBeyond;
  if (!g) return '';
  return ` Why so often with none? Its goal lies beyond the wall it hit at only ${g.turns} of the ${c.turns} turns, and at ${g.deRepeats} of DE's ${c.repeats.de} repeats${
    lean ? `; with no history it heads ${lean.ways} in ${lean.share} % of its moves` : ''
  }.`;
}

/**
 * The Full–DE gap tested maze by maze, in words: the turns of one maze share its history, so the turn-by-turn count
 * treats them as more independent tosses than they are.
 */
/** A whole number with a true minus sign where negative. */
const signed = (n: number): string => (n < 0 ? `\u2212${-n}` : String(n));

function mazeSaid(d: readonly number[], chance: string): string {
  const [more, fewer] = [d.filter((x) => x > 0), d.filter((x) => x < 0).map((x) => -x)];
  // By how much, each way: the test weighs each maze by its gap, and a reader counting mazes alone saw a weak split.
  const by = (xs: number[]) => {
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    return xs.length ? ` (by ${lo === hi ? lo : `${lo} to ${hi}`} ${hi === 1 ? 'turn' : 'turns'})` : '';
  };
  // How far the total could move with other mazes: a reader asked for an interval computed maze by maze, not turn by turn.
  const total = d.reduce((x, y) => x + y, 0);
  const [lo, hi] = clusterInterval(d);
  return `Counted maze by maze, Full repeats more in ${more.length} of the ${d.length} mazes with a wall${by(more)}, DE in ${fewer.length}${by(fewer)}; were the two alike, which one repeats more in a maze would be a coin toss, and the mazes' gaps would add up this lopsided ${chance}. Full's extra repeats come to ${total} turns; drawing ${d.length} of these mazes again at random, 10,000 times, 95 % of the totals fall between ${signed(lo)} and ${signed(hi)}.`;
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
  /** The count behind the per cent, "108 of 135": a reader asked for the n beside every per cent. */
  counted?: string;
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
  /** DE's rate: the pull with no history at all, marked on every bar (null: no mark, the heads step's count). */
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
    counted: `${c.repeats[w]} of ${c.moved[w]}`,
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

/** Whether the turn before alone (LT) brings back at least half of what the whole history adds. */
export const ltBringsMost = (c: WallCounts): boolean => (moveRate(c, 'lt') - moveRate(c, 'de')) * 2 >= historyAdds(c);

/** Where two conditions part on the same turns, counted, and how often luck alone gives such a gap (the folds' "how sure"). */
export function parted(s: Split, first: string, second: string, alike = 'were the two alike'): string {
  const n = s.first + s.second;
  const luck = s.byMaze
    ? `with each maze counted once, ${alike}, luck would give a gap this size ${byChance(s).said}`
    : `${alike}, luck would split them this unevenly ${byChance(s).said}`;
  return `The two disagree on ${n} turn${n === 1 ? '' : 's'}: ${first} ${s.first} time${s.first === 1 ? '' : 's'}, ${second} ${s.second}; ${luck}.`;
}

/**
 * The turns left out of every count, said once where the counts are first given: two mazes start the model in a cell
 * walled on all four sides, where every move hits a wall whatever it reads. Empty when none.
 */
export function walledOut(c: WallCounts): string {
  const w = c.walledIn;
  if (!w?.turns) return '';
  return ` (leaving out ${w.turns} turns in ${w.mazes === 1 ? 'a maze that starts' : `${w.mazes} mazes that start`} it in a cell walled on all four sides, where every move hits a wall)`;
}

/** A stage's repeats among its moves made, in whole per cent, as `stagesSaid` and `growsSaid` say them. */
const stageRate = (x: { repeats: number; moved: number }): string => `${rate(x.repeats, x.moved || 1)} %`;

/**
 * Where the gap between Full and DE is, said first in step 2's fold: at the first meeting of a wall, and once the
 * model's previous answer already walked into it (`Stages`). Readers asked whether stuck runs, which pile up turns
 * at a wall, build the gap in: this says they carry it. Empty where the counts have no stages.
 */
export function stagesSaid(c: WallCounts): string {
  const s = c.stages;
  if (!s?.first.turns || !s.after.turns) return '';
  const r = stageRate;
  const [first, after] = [byChance(s.first.split), byChance(s.after.split)];
  return `Where the gap is: the first time it meets a wall (${s.first.turns} turns), it walks back in at ${r(s.first.full)} with its whole history and ${r(s.first.de)} with none (${luckWord(first.clear)}). Once its previous answer has already walked into that wall (${s.after.turns} turns), ${r(s.after.full)} against ${r(s.after.de)} (${luckWord(after.clear)}). Most of the gap sits in those runs of repeats, which also pile up the turns counted here. `;
}

/** The same, in the close: one short sentence after Full's and DE's rates, where the gap grows clearly after a repeat. */
export function growsSaid(c: WallCounts): string {
  const s = c.stages;
  if (!s?.first.turns || !s.after.turns || !byChance(s.after.split).clear) return '';
  const r = stageRate;
  return ` Most of the gap sits where its previous answer already walked into the wall (${r(s.after.full)} against ${r(s.after.de)}); the first time it meets a wall, ${r(s.first.full)} against ${r(s.first.de)}${byChance(s.first.split).clear ? ', more than luck too' : ', which could be luck'}.`;
}

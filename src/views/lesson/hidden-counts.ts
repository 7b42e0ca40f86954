/**
 * The hide step's counts (AO, then AO-last against its control; Cut-last in the fold): each policy read against
 * no history and the whole history. Plain functions over the stored turns (wall-records.ts).
 */
import { byChance, historyAdds, luckRow, moveRate, noMoveRate, openRate, rate } from './wall-counts';
import { countTable } from './count-table';
import { WALL_COUNTS, type WallCounts, type Writer } from './wall-records';
import { figuresOf, type LessonWorld, readAgainstFull, type Reveal, SILENT } from './world';

/** Moves into another wall, of the moves made (the bars' grey). */
const otherWalls = (c: WallCounts, w: Writer): number => rate(c.moved[w] - c.repeats[w] - c.open[w], c.moved[w] || 1);
/** A writer's moves into other walls well above DE's: its placeholders unsettle the model as well as hiding its words. */
export const unsettled = (c: WallCounts, w: Writer): boolean => otherWalls(c, w) > otherWalls(c, 'de') + 10;

/** How a policy that hides the model's answers reads against DE (no history at all) and Full, among its moves made. */
export type HideVerdict = 'below' | 'pull' | 'part' | 'all';
export function hideVerdict(c: WallCounts, w: Writer): HideVerdict {
  const [r, de, full] = [moveRate(c, w), moveRate(c, 'de'), moveRate(c, 'full')];
  return r + 10 < de ? 'below' : r <= de + 5 ? 'pull' : r < full - 5 ? 'part' : 'all';
}

/**
 * The hide step's first count: AO, every answer of the model's hidden, at the wall, against Full and DE (no history
 * at all). Hidden answers often leave no move (the demo model never trained on them), so it is read among the
 * answers that still make a move: at DE's level the extra repeats went with its words, between DE and
 * Full part stayed, far below DE the unfamiliar text changed its play beyond the pull. AO's reading is the
 * takeaway (the papers' own test), with its extra moves into other walls said beside it.
 */
export function hiddenTally(c: WallCounts = WALL_COUNTS): Reveal {
  const among = (w: Writer) => moveRate(c, w);
  const verdict = (w: Writer) => hideVerdict(c, w);
  // Each policy's reading in words, its rate beside (the bars draw them all).
  // Many answers with no move make a rate among the moves made a thin one: said beside a fall below DE.
  const noMove = (w: Writer) => (noMoveRate(c, w) >= 20 ? `, and ${noMoveRate(c, w)} % of its answers make no move` : '');
  const reading = (w: Writer) =>
    ({
      below: `falls below even DE${noMove(w)}: unfamiliar text changes its play beyond the pull`,
      pull: 'repeats the blocked move about as often as DE',
      part: 'keeps part of the extra repeats',
      all: 'keeps them all, as Full',
    })[verdict(w)];
  // The per cents of other walls in the fold: the bars draw them (the grey), and the card keeps few figures.
  // How often AO still finds a way out against DE, in words: "as often" alone would hide it.
  const [aoOpen, deOpen] = [openRate(c, 'ao'), openRate(c, 'de')];
  const fewerWays =
    aoOpen * 2 < deOpen
      ? ' It finds an open way less than half as often as with no history.'
      : aoOpen + 5 < deOpen
        ? ' It finds an open way less often than with no history.'
        : '';
  const shaken = unsettled(c, 'ao')
    ? `hiding its answers confuses it, so ${otherWalls(c, 'ao')} % of its moves hit another wall, against ${otherWalls(c, 'de')} % with no history.`
    : '';
  const takeaway = {
    // The placeholders' unsettling said in the takeaway too: readers took the bold line for the whole story.
    // One plain claim each; the confusion is the caveat's, under it.
    pull: 'At the walls Full hit, hiding its own answers (AO) takes the extra repeats away.',
    part: 'Hiding its own answers (AO) takes part of the extra repeats away.',
    all: 'Hiding its own answers (AO) leaves the extra repeats as they were.',
    below: 'Hiding its own answers (AO) confuses it below even no history, so it tells little.',
  };
  // AO alone, the papers' own test: SUM and Filler, two more ways to hide the answers, left the step (a newcomer met
  // too many names at once, and took SUM for Summary); Filler returns at the diagonal, where it is used.
  return {
    takeaway: takeaway[verdict('ao')],
    said: `Of the moves made, AO (${among('ao')} %) ${reading('ao')}.${shaken ? fewerWays : ''}`,
    // What "unsettles" means, beside the bold line that says it: readers found it only in the fold.
    ...(shaken && { caveat: shaken }),
    luck: [luckRow('AO against DE', c.split.de.ao), luckRow('AO against Full', c.split.full.ao)],
    // The rates and counts behind the words, one row per policy, in the fold's table (every row over the same turns).
    counts: countTable(
      [
        ['AO', 'ao'],
        ['Full', 'full'],
        ['DE', 'de'],
      ],
      c,
    ),
    // The turns where the two part are in the table and on the meter: readers asked for fewer counts in words.
    ...(c.moved.ao < c.turns && {
      more: 'Hidden answers sometimes leave no move (the model never trained on them): the bars leave those out and write their share beside each.',
    }),
  };
}

/**
 * Less pull, or only confusion? Said where the control keeps the repeats (a placeholder alone takes none away) and AO-last
 * finds an open way more often than the whole history does (the repeats went somewhere useful too).
 */
function confusion(c: WallCounts): string {
  if (!controlKeeps(c) || hideVerdict(c, 'ao-last') !== 'pull') return '';
  const ways = openRate(c, 'ao-last') >= openRate(c, 'full') + 5;
  return ` So the drop is not the placeholder's confusion alone: the same placeholder one answer earlier leaves the repeats${ways ? ', and without the previous answer it finds more open ways than with it' : ''}.`;
}

/**
 * Whether AO-last's control (AO-second-last: one placeholder on the answer before that) keeps more than half of
 * what the whole history adds: then a drop under AO-last is not the placeholder's confusion alone.
 */
export const controlKeeps = (c: WallCounts): boolean => (moveRate(c, 'ao-second-last') - moveRate(c, 'de')) * 2 > historyAdds(c);

/**
 * Why AO-last's moves go into other walls, said where they do: the placeholder's doing where its control's placeholder
 * does the same; else any change to that answer (Cut-last, which keeps its list of cells, in the fold, tells which).
 */
function latestShaken(c: WallCounts): string {
  if (!unsettled(c, 'ao-last')) return '';
  if (unsettled(c, 'ao-second-last'))
    return `any one placeholder confuses it (${otherWalls(c, 'ao-last')} % of moves into another wall, against ${otherWalls(c, 'de')} % with no history), yet the control keeps the repeats.`;
  // Readers counted any wall from the table: many of the repeats it loses only swap walls.
  return `hiding it confuses the model, so many repeats just move to another wall (${otherWalls(c, 'ao-last')} % of moves, against ${otherWalls(c, 'de')} % with no history).`;
}

/**
 * Was the missing list of cells what unsettled it? Cut-last keeps that answer's first line (the list it copies) and
 * cuts its thought and move: said in the fold, with where its moves went.
 */
function cutSaid(c: WallCounts): string {
  const kept = unsettled(c, 'cut-last')
    ? `${otherWalls(c, 'cut-last')} % into another wall, so the missing list is not what confuses it`
    : `${otherWalls(c, 'cut-last')} % into another wall, as with no history: the missing list was the confusion`;
  return `Was it the missing list of cells that confused it? Cut-last, this tool's second test, keeps the previous answer's first line, the list, and cuts its thought and move: ${moveRate(c, 'cut-last')} % of its moves go into the same wall, ${kept}.`;
}

/**
 * The swap test in words: its previous answer's thought and move changed to an open way, every other word kept; how
 * often it then takes that way, against the answer as written (Full on the same turns), of the moves made. Readers
 * asked for it: a placeholder only takes words away, a swap tells the model it did something else. Empty without it.
 */
export function swapSaid(c: WallCounts = WALL_COUNTS, lead = 'With'): string {
  const f = c.followed;
  if (!f) return '';
  const [swap, full] = [rate(f.swap, c.moved['swap-last'] || 1), rate(f.full, c.moved.full || 1)];
  // Both rates of the same thing, moves that way, so the base is plain: readers set 11 % against Full's open ways.
  return `${lead} its previous answer's move changed to an open way, it takes that way in ${swap} % of its moves; unchanged, ${full} % go that way.`;
}

/** Whether the swapped answer's move is taken clearly more often than with the answer as written: more, and beyond luck. */
export const followsSwap = (c: WallCounts = WALL_COUNTS): boolean => !!c.followed && c.followed.swap > c.followed.full && byChance(c.followed.split).clear;

/**
 * The rates with the answers that make no move counted as repeats, the harshest reading: readers asked whether leaving
 * them out flattered the policies that hide answers.
 */
function noMoveAsRepeat(c: WallCounts): string {
  const r = (w: Writer) => `${rate(c.repeats[w] + c.turns - c.moved[w], c.turns)} %`;
  return `Counting the answers that make no move as repeats, AO-last would be ${r('ao-last')} and Cut-last ${r('cut-last')}, against ${r('full')} for Full.`;
}

/** What the swap test shows where its gap is more than luck: a pull toward the move shown, not a rule (most moves do not follow it). */
export const SWAP_PULL = 'It leans toward what it is shown to have done.';

/** The swap test in the hide step's fold, with its luck: first, as the plainest test of the pull. */
function swapMore(c: WallCounts): string {
  const f = c.followed;
  if (!f) return '';
  const luck = byChance(f.split);
  // The counts behind the two rates: a reader asked for the n of the lesson's plainest causal test.
  const n = c.followed ? ` (${c.followed.swap} of ${c.moved['swap-last']} moves, against ${c.followed.full} of ${c.moved.full})` : '';
  return `The swap test, this tool's: ${swapSaid(c, 'with').slice(0, -1)}${n}. Its thought and action are changed, its list of cells kept; luck would give that gap ${luck.said}, so ${luck.clear ? `it is more than luck. ${SWAP_PULL.slice(0, -1)}, though most of its moves still do not follow it.` : 'it could be luck.'} `;
}

/**
 * The hide step's reveal for AO-last: only the previous answer hidden, every other word kept, against its control
 * AO-second-last (the same placeholder on the answer before), DE and Full, among the moves made, the same wall and
 * any wall side by side (a drop in the one may only swap walls). Cut-last in the fold.
 */
export function latestTally(c: WallCounts = WALL_COUNTS): Reveal {
  const v = hideVerdict(c, 'ao-last');
  const keeps = controlKeeps(c);
  const shaken = latestShaken(c);
  // Read against its control: the same one placeholder on the answer before, so confusion alone would drop there too.
  // Where many of its moves hit another wall, the bold line says so: readers took "brings repeats down" for a cure.
  const takeaway = {
    // One plain claim each: where the repeats went instead (another wall) is the caveat's, under it.
    pull: !keeps
      ? 'Hiding its previous answer takes the extra repeats away, and so does hiding an older one.'
      : 'At the walls Full hit, hiding its previous answer, not an older one, takes the extra repeats away.',
    part: 'Hiding its previous answer takes part of the extra repeats away.',
    all: 'Hiding its previous answer leaves the extra repeats as they were.',
    below: 'Hiding its previous answer confuses it below even no history, so it tells little.',
  }[v];
  // Why the drop is not the placeholder's confusion alone, first in the fold.
  const drop = confusion(c).trim();
  return {
    takeaway,
    // The card's sentence: the test against its control, the same wall only; any wall, in the fold.
    said: `With its previous answer hidden (AO-last), ${moveRate(c, 'ao-last')} % of its moves go back into the wall; with the one two turns back hidden, ${moveRate(c, 'ao-second-last')} %.`,
    ...(shaken && { caveat: shaken }),
    luck: [
      luckRow('AO-last against Full', c.split.full['ao-last']),
      luckRow('AO-second-last against Full', c.split.full['ao-second-last']),
      luckRow('Cut-last against Full', c.split.full['cut-last']),
      ...(c.followed ? [luckRow('swap test: takes the new move, against the answer as written', c.followed.split)] : []),
    ],
    counts: countTable(
      [
        ['AO-last', 'ao-last'],
        ['AO-second-last', 'ao-second-last'],
        ['Full', 'full'],
        ['DE', 'de'],
        ['Cut-last', 'cut-last'],
      ],
      c,
    ),
    more: `${drop ? `${drop} ` : ''}${swapMore(c)}AO-last and AO-second-last are this tool's tests, not a paper's policies: each puts AO's placeholder in place of one answer, without AO's line in the system prompt. ${cutSaid(c)} ${noMoveAsRepeat(c)}`,
  };
}

/** A hiding step's reveal: its count at the wall first, then, in the fold, how much the policy reads against Full. */
export function hidingReveal(w: LessonWorld, base: LessonWorld | null, p: string, t: Reveal): Reveal {
  const r = figuresOf(w, p);
  const a = r && readAgainstFull(r, base);
  return r && a ? { ...t, more: `${a.said}${a.more ? ` ${a.more}` : ''} ${t.more}` } : SILENT;
}

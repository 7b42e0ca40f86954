/**
 * The hide step's count (AO on the card, SUM and Filler in its fold) and the recap after it: the policies' counts
 * side by side, read against no history. Plain functions over the stored turns (wall-records.ts).
 */
import { historyAdds, luckRow, moveRate, noMoveRate, openRate, parted, rate } from './wall-counts';
import { countTable } from './count-table';
import { WALL_COUNTS, type WallCounts, type Writer } from './wall-records';
import type { Reveal } from './world';

/** Moves into another wall, of the moves made (the bars' grey). */
const otherWalls = (c: WallCounts, w: Writer): number => rate(c.moved[w] - c.repeats[w] - c.open[w], c.moved[w] || 1);
/** A writer's moves into other walls well above DE's: its placeholders unsettle the model as well as hiding its words. */
export const unsettled = (c: WallCounts, w: Writer): boolean => otherWalls(c, w) > otherWalls(c, 'de') + 10;

/** The policies that keep every turn and hide the model's own answers, as the hide step names them. */
const HIDING = [
  ['ao', 'AO'],
  ['sum', 'SUM'],
  ['filler', 'Filler'],
] as const;

/** How a policy that hides the model's answers reads against DE (the goal's own pull) and Full, among its moves made. */
export type HideVerdict = 'below' | 'pull' | 'part' | 'all';
export function hideVerdict(c: WallCounts, w: Writer): HideVerdict {
  const [r, de, full] = [moveRate(c, w), moveRate(c, 'de'), moveRate(c, 'full')];
  return r + 10 < de ? 'below' : r <= de + 5 ? 'pull' : r < full - 5 ? 'part' : 'all';
}

/**
 * The hide step's count: the three ways of hiding the model's own answers at the wall, against Full and DE (the
 * goal's own pull). Hidden answers often leave no move (the demo model never trained on them), so each is read
 * among the answers that still make a move: at DE's level the extra repeats went with its words, between DE and
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
    aoOpen * 2 < deOpen ? ', and it finds an open way less than half as often' : aoOpen + 5 < deOpen ? ', and it finds an open way less often' : '';
  const shaken = unsettled(c, 'ao')
    ? `hiding its answers also confuses it: ${otherWalls(c, 'ao')} % of AO's moves hit another wall (the grey), against ${otherWalls(c, 'de')} % of DE's${fewerWays}.`
    : '';
  const takeaway = {
    // The placeholders' unsettling said in the takeaway too: readers took the bold line for the whole story.
    pull: shaken
      ? 'With its own answers hidden (AO), it repeats as often as with no history. So the extra repeats seem to go with its own words, though hiding them confuses it.'
      : 'With its own answers hidden (AO) it repeats the move no more than with no history, so the extra repeats went with its own words.',
    part: 'With its own answers hidden (AO), the model repeats the move less than with them, more than with none: part of the extra repeats came with its own words.',
    all: 'With its own answers hidden (AO), the model repeats the move as often as with them: here the extra repeats do not come with its own words.',
    below: 'With its own answers hidden (AO), the model is confused: it repeats the move less than even with no history, so hiding tells little here.',
  };
  const breaks = HIDING.some(([w]) => c.moved[w] < c.turns);
  // The last in a sentence of its own: three readings chained by semicolons were hard to follow.
  const readings = HIDING.map(([w, name]) => `${name} (${among(w)} %) ${reading(w)}`);
  // The card reads AO alone, the papers' own test; SUM and Filler, two more ways to hide the answers, in the fold
  // (a newcomer met too many policies at once, and Filler returns at the diagonal).
  const others = `SUM (each answer as a one-sentence summary) and Filler (each as unrelated words) hide them too: of the moves made, ${readings.slice(1).join('; ')}.`;
  return {
    takeaway: takeaway[verdict('ao')],
    said: `Of the moves made, ${readings[0]}.`,
    // What "unsettles" means, beside the bold line that says it: readers found it only in the fold.
    ...(shaken && { caveat: shaken }),
    luck: [luckRow('AO against DE', c.split.de.ao), luckRow('AO against Full', c.split.full.ao)],
    // The rates and counts behind the words, one row per policy, in the fold's table (every row over the same turns).
    counts: countTable([...HIDING.map(([w, name]) => [name, w] as const), ['Full', 'full'], ['DE', 'de']], c),
    more: `${others} ${breaks ? 'Hidden answers sometimes leave no move (the model never trained on them): the bars leave those out and write their share beside each. ' : ''}Where both make a move, t${parted(c.split.de.ao, 'only AO repeats the blocked move', 'only DE').slice(1)}`,
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

/** Whether cutting the previous answer to its list of cells (Cut-last) takes the extra repeats away as hiding it whole does. */
const cutPull = (c: WallCounts): boolean => hideVerdict(c, 'cut-last') === 'pull';

/**
 * Why AO-last's moves go into other walls, said where they do: the placeholder's doing where its control's placeholder
 * does the same; the missing list of cells where Cut-last, which keeps the list, does not; else any change to that answer.
 */
function latestShaken(c: WallCounts): string {
  if (!unsettled(c, 'ao-last')) return '';
  if (unsettled(c, 'ao-second-last'))
    return `one placeholder confuses it: ${otherWalls(c, 'ao-last')} % of AO-last's moves hit another wall (the grey), against ${otherWalls(c, 'de')} % of DE's, and the control's too, yet the control keeps the repeats.`;
  if (!unsettled(c, 'cut-last'))
    return `its previous answer also holds the list of cells it copies, so hiding it confuses it: ${otherWalls(c, 'ao-last')} % of its moves hit another wall, against ${otherWalls(c, 'de')} % of DE's.`;
  // Readers asked whether the missing list was the confusion: the list kept, the moves into other walls stay.
  // Many of the repeats it loses only swap walls: said, as readers counted any wall from the table.
  return `changing its previous answer confuses it: even with its list kept, ${otherWalls(c, 'cut-last')} % of moves hit another wall, against ${otherWalls(c, 'de')} % with no history; many repeats just swap walls.`;
}

/**
 * The hide step's reveal for AO-last: only the previous answer hidden, every other word kept, against DE and Full,
 * among the moves made; beside it Cut-last (that answer cut to its list of cells: its thought and move hidden, the
 * facts it copies kept) and the control AO-second-last (the same placeholder on the answer before). Its extra moves
 * into other walls said beside, as AO's are.
 */
export function latestTally(c: WallCounts = WALL_COUNTS): Reveal {
  const v = hideVerdict(c, 'ao-last');
  const keeps = controlKeeps(c);
  const shaken = latestShaken(c);
  // Read against its control (the same one placeholder on the answer before, so confusion alone would drop there too)
  // and against Cut-last (were the list the pull, keeping it would bring the repeats back).
  const takeaway = {
    pull: !keeps
      ? 'Hiding only its previous answer takes the extra repeats away, but hiding the answer two turns back does too: part of the drop is the placeholder itself.'
      : cutPull(c)
        ? `Hiding its previous answer, or just its thought and move, brings same-wall repeats down to DE's; hiding an older one does not: the pull ${shaken ? 'seems to sit' : 'sits'} in those lines.`
        : `Hiding its previous answer takes the extra repeats away and hiding an older one does not, but cutting only its thought and move leaves some: the pull ${shaken ? 'seems to sit' : 'sits'} in that answer.`,
    part: 'Hiding only its previous answer takes part of the extra repeats away: the pull sits partly in that one answer.',
    all: 'Hiding only its previous answer leaves the extra repeats: the pull is not in that one answer.',
    below: 'Hiding only its previous answer confuses the model: it repeats the move less than even with no history, so this tells little.',
  }[v];
  return {
    takeaway,
    said: `With only its previous answer hidden, it walks into the wall again in ${moveRate(c, 'ao-last')} % of its moves; with only that answer's thought and move cut, its list kept, ${moveRate(c, 'cut-last')} %. With only the answer two turns back hidden (the control), ${moveRate(c, 'ao-second-last')} %; with no history (DE), ${moveRate(c, 'de')} %; with the whole history, ${moveRate(c, 'full')} %.${confusion(c)}`,
    ...(shaken && { caveat: shaken }),
    luck: [
      luckRow('AO-last against Full', c.split.full['ao-last']),
      luckRow('Cut-last against Full', c.split.full['cut-last']),
      luckRow('AO-second-last against Full', c.split.full['ao-second-last']),
    ],
    counts: countTable(
      [
        ['AO-last', 'ao-last'],
        ['Cut-last', 'cut-last'],
        ['AO-second-last', 'ao-second-last'],
        ['Full', 'full'],
        ['DE', 'de'],
      ],
      c,
    ),
    more: `AO-last, Cut-last and AO-second-last are this tool's tests, not a paper's policies. AO-last puts AO's placeholder in place of the previous answer, without AO's line in the system prompt; Cut-last keeps that answer's first line, the list of cells; AO-second-last puts the placeholder on the answer before. Where both make a move, t${parted(c.split.full['ao-last'], 'only AO-last repeats the blocked move', 'only Full').slice(1)}`,
  };
}

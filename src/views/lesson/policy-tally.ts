/**
 * How a policy the stored episodes were also written under does at the wall, against Full: the drop-turns step's
 * count, with why the cutting policies sit near Full at many of the walls.
 */
import { turnsSeen } from '../../context/history';
import { parsePolicy, type Policy } from '../../context/policy';
import { countTable } from './count-table';
import { type Board, byChance, CUTTING, ltBringsMost, luckRow, movePct, moveRate, scoreboard } from './wall-counts';
import { type Split, type WallCounts, type WallTurn, WALL_COUNTS, WALL_TURNS, WRITERS, type Writer } from './wall-records';
import { capitalised, type Reveal, SILENT } from './world';

/** The stored turns at which a policy still shows every earlier turn whole (early in an episode, Window and Clip cut nothing). */
const keptWhole = (p: Policy, turns: readonly WallTurn[]): number => turns.filter((t) => turnsSeen(p, t.turn).every((x) => x === 'whole')).length;

/** The cutting policies by the names the card says them. */
const CUT_NAMES: Record<(typeof CUTTING)[number], string> = { 'window:6': 'Window-6', 'clip:6:1': 'Clip-6→1', 'summary:6:1': 'Summary-6→1' };

/**
 * The cutting policies' bars, said beside LT's reading (readers asked why Window-6 matches Full and what Summary's lower
 * bar means): where they stand, on the card (`caveat`); why, in the fold under their bars (`early`: they keep every turn
 * at many of the walls); and the lowest of them against its luck (`more`).
 */
function cutRows(c: WallCounts, turns: readonly WallTurn[]): Pick<Reveal, 'caveat' | 'more'> & { early?: string } {
  const cut = CUTTING.map((w) => [w, CUT_NAMES[w]] as const);
  const near = cut.filter(([w]) => Math.abs(moveRate(c, w) - moveRate(c, 'full')) <= 5);
  const [low, name] = [...cut].sort((a, b) => moveRate(c, a[0]) - moveRate(c, b[0]))[0]!;
  // The lowest, where it stands apart, in the fold with its luck.
  const more = near.some(([w]) => w === low)
    ? {}
    : {
        // With the lesson's one verdict beside the chance: a reader held "1 time in 16" against the line of 1 in 20.
        more: `${name}${low === 'summary:6:1' ? ', swapping cut answers for summaries,' : ''} is lower than Full (${movePct(c, low)}; luck: ${byChance(c.split.full[low]).said}, so ${byChance(c.split.full[low]).clear ? 'more than luck' : 'it could be luck'}).`,
      };
  if (!near.length) return more;
  const share = Math.round((100 * Math.min(...near.map(([w]) => keptWhole(parsePolicy(w), turns)))) / Math.max(1, turns.length));
  const names = near.map(([, n]) => n);
  const both = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  // The share in words: the sentence keeps its figures to the policies' names.
  const part = share >= 50 ? 'half' : share >= 33 ? 'a third' : share >= 25 ? 'a quarter' : 'some';
  return {
    ...more,
    early: `in early turns ${both} still show everything, so at ${part} or more of the walls they read what Full reads.`,
    // On the card, the three named with where they stand: readers took their table rows for policies never measured.
    caveat: `${both} ${names.length > 1 ? 'sit' : 'sits'} near Full, since ${names.length > 1 ? 'they keep' : 'it keeps'} the turn before too (early in a maze, every turn).`,
  };
}

/** The cutting policies' bars, for the drop-turns step's fold: beside Full and DE, the two ends they lie between. */
function cutBoard(c: WallCounts): Board | null {
  const b = scoreboard({ generate: true, contexts: true, hide: false, cpl: false }, c, ['full', ...CUTTING, 'de']);
  return b && { ...b, caption: `The policies that cut the history in steps, at the same ${b.turns} turns right after a wall` };
}

/** How a policy the stored episodes were also written under does at the wall, against Full (nothing for another policy). */
/** A policy's gaps in the lesson's verdicts: to DE (LT only, the turn before against none) and to Full. */
function luckWords(c: WallCounts, p: Writer, label: string): string {
  const say = (s: Split) => (byChance(s).clear ? 'is more than luck' : 'could be luck');
  return p === 'lt'
    ? `${label}'s gap to DE ${say(c.split.de[p])}; its gap to Full ${say(c.split.full[p])}.`
    : `${label}'s gap to Full ${say(c.split.full[p])}.`;
}

export function policyTally(policy: string, label: string, c: WallCounts = WALL_COUNTS, turns: readonly WallTurn[] = WALL_TURNS): Reveal {
  if (!(WRITERS as readonly string[]).includes(policy) || policy === 'full' || policy === 'twin') return SILENT;
  const p = policy as Writer;
  // Window, Clip and Summary keep every turn early in an episode: say how many of the turns come that early.
  const cuts = /^(window|clip|summary):/.test(policy) ? parsePolicy(policy) : null;
  const early = cuts && keptWhole(cuts, turns);
  const near = Math.abs(moveRate(c, p) - moveRate(c, 'full')) <= 5;
  const why = !early ? '' : `: at ${early} of those turns ${label} still keeps every turn${near ? ', so at the wall it changes little' : ''}`;
  // LT keeps the turn before only: against DE, which keeps nothing; DE's count alone where it shows nothing more.
  const de = movePct(c, 'de');
  const most = policy === 'lt' && ltBringsMost(c);
  const against = policy !== 'lt' ? '' : most ? `, and ${de} with no earlier turn (DE)` : `, and ${de} under DE (no earlier turn)`;
  // LT's reading on the card; the cutting policies' bars and why they sit near Full, in its fold.
  const rows = policy === 'lt' ? cutRows(c, turns) : {};
  const cutBars = cuts || policy === 'lt' ? cutBoard(c) : null;
  return {
    // The latest turn holds the user's message and the model's own answer: which of the two pulls is the next step's question.
    ...(most
      ? {
          takeaway: 'The turn before alone brings back the extra repeats.',
        }
      : {}),
    said: `At the wall it repeats the blocked move in ${movePct(c, p)} under ${label} against ${movePct(c, 'full')} under Full${against}${why}.`,
    ...(cutBars && { board: cutBars }),
    // What the turn before holds, on the card: readers took "the turn before" for the model's answer alone.
    ...(most && { caveat: "the turn before holds both the user's message and the model's answer; the next two steps tell them apart." }),
    luck: [...(policy === 'lt' ? [luckRow(`${label} against DE`, c.split.de[p])] : []), luckRow(`${label} against Full`, c.split.full[p])],
    // The counts in the fold's table: the policy, the two ends, and at LT the cutting policies its bars draw.
    counts: countTable(
      [
        [label, p],
        ...(['full', 'de'] as const).filter((w) => w !== p).map((w) => [w === 'full' ? 'Full' : 'DE', w] as const),
        ...(policy === 'lt' ? CUTTING.map((w) => [CUT_NAMES[w], w] as const) : []),
      ],
      c,
    ),
    // How sure each gap is, in words beside the meter's: the turns where the two part are in the table.
    more: `${luckWords(c, p, label)}${rows.caveat ? ` ${capitalised(rows.caveat)}` : ''}${rows.early ? ` In the bars above: ${rows.early}` : ''}${rows.more ? ` ${rows.more}` : ''}`,
  };
}

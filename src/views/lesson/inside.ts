/**
 * The recap after the steps that look inside the model: one question (does where the model reads explain why it walks
 * back into the wall?) and each step's answer side by side, from clues (where it reads) to the test (heads switched
 * off). Every figure is the page's (Full and Filler on the lesson's answer, the last layer's heads) or the stored counts'.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { stepNo } from './order';
import { overTurnsMean } from './attention-reveals';
import { spokenHead, topHead } from './head-reveal';
import { chanceOf, looksBackShare, looksRare } from './wall-counts';
import { beyondRandom, freesNoMore, headsCarry, headsClear, headsLuck, mostlyIntoWalls, stillPct } from './heads-tally';
import { WALL_COUNTS, type WallCounts } from './wall-records';
import { AGAINST_CHANCE, evenDiagonal, evenShare, figuresOf, LOADING, LOOKS_BACK, type LessonWorld, percent, type RecapTable, type Reveal } from './world';

type Row = RecapTable['rows'][number];

/** "2.4 times chance": a figure against what an even spread gives the same tokens (one decimal). */
const times = (v: number, even: number): string => `${(v / even).toFixed(1)} times an even share`;

/** The answer's figures against chance, read once for the rows and the words: its share on prior answers, its diagonal, its top head. */
function readingsOf(full: PolicyResult) {
  const [evenPrior, evenBand] = [evenShare(full, 'prior'), evenDiagonal(full)];
  return {
    evenPrior,
    evenBand,
    prior: full.ratios.prior / (evenPrior || 1),
    diagonal: full.diagonal / (evenBand || 1),
    head: topHead(full),
  };
}

/** What the heads' row tells: how many stand out. */
function headsTell(h: NonNullable<ReturnType<typeof topHead>>): string {
  if (h.standOut === 0) return 'the heads hold the diagonal about alike';
  // A clue, not a verdict: the next row's test says whether those heads matter more than others.
  return `${h.standOut === 1 ? 'one head has the most copying-shaped attention' : `${h.standOut} heads have the most copying-shaped attention`}; the test below asks whether it matters`;
}

/** The rows: a step each, what it looked at (under its name), what it saw, what that tells of the repeat. */
export function insideRows(full: PolicyResult, filler: PolicyResult, c: WallCounts = WALL_COUNTS): Row[] {
  const row = (id: Parameters<typeof stepNo>[0], label: string, sees: string, figure: string, tells: string, luck?: string): Row => ({
    label: `${stepNo(id)}. ${label}`,
    sees,
    figure,
    ...(luck && { luck }),
    tells,
  });
  const { evenPrior, evenBand, prior, diagonal, head } = readingsOf(full);
  const h = c.headsOff;
  const carry = headsClear(c);
  return [
    row(
      'shares',
      'Five kinds of token',
      'the whole answer: its share on its prior answers',
      `${percent(full.ratios.prior)}, ${times(full.ratios.prior, evenPrior)}${typical('prior', c)}`,
      prior >= AGAINST_CHANCE.leans
        ? 'it leans on its own answers: far more than their length gives them'
        : prior >= AGAINST_CHANCE.aLittle
          ? 'a little more than their length gives them: mostly, they are just long'
          : 'about what their length gives them: no sign of leaning',
    ),
    row(
      'diagonal',
      'The diagonal',
      'how it reads them: in order?',
      `${times(full.diagonal, evenBand)}${typical('diagonal', c)}`,
      diagonal >= AGAINST_CHANCE.inOrder
        ? 'copies them in order beyond an even share, mostly the list of cells the task asks for'
        : 'no more in order than an even share',
    ),
    row(
      'filler',
      'Filler in place of its answers',
      'the same places, filler words (the right heatmap)',
      `${percent(filler.diagonal)} against ${percent(full.diagonal)}`,
      filler.diagonal < full.diagonal / 2 ? 'the copying follows their words' : 'part of the copying follows positions alone',
    ),
    ...(head
      ? [
          row(
            'heads',
            "Each head's diagonal",
            "the last layer's heads, each read on its own",
            `${spokenHead(head)}: ${head.times.toFixed(1)} times the average`,
            headsTell(head),
          ),
        ]
      : []),
    row(
      'heads',
      'Switching heads off',
      'the test: of the repeats, the moves still into the same wall with the 3 most-copying heads off, 3 at random, the 3 lowest',
      `${stillPct(h, 'top')}, ${stillPct(h, 'random')}, ${stillPct(h, 'bottom')}`,
      carry
        ? beyondRandom(h)
          ? mostlyIntoWalls(h)
            ? freesNoMore(h)
              ? 'switching them off changes the repeated move more than other heads do, but finds an open way no more often: which wall, not whether'
              : 'switching them off changes the repeated move more than other heads do, but mostly to another wall: which wall, not whether'
            : 'the most-copying heads carry part of the repeat, more than other heads'
          : 'fewer than with the lowest off, not clearly fewer than with three at random: not singled out'
        : headsCarry(c)
          ? 'they may carry part of it, or it could be luck'
          : 'they carry no more of it than any heads',
      // How sure each gap is, in plain words, the two tests counted together as the heads step and the check count them.
      `luck, both tests counted: against random ${chanceOf(headsLuck(h).random).said}; against the lowest ${chanceOf(headsLuck(h).lowest).said}`,
    ),
  ];
}

/** What the look inside means for someone who wants to know why a model repeats. */
export const SO_WHAT = 'Part 1 found the pull in the previous answer by changing what the model reads; attention showed where it reads, not why.';

/** The inside recap's reveal: the half's question answered in one line, then how (clues, then the test). */
export function insideReveal(w: LessonWorld, c: WallCounts = WALL_COUNTS): Reveal {
  const [full, filler] = [figuresOf(w, 'full'), figuresOf(w, 'filler')];
  // The whole table at once: a row that arrives later would move the others.
  if (!full || !filler) return LOADING;
  const h = c.headsOff;
  const carry = headsClear(c);
  // Where most repeats do not look back, the clues are clues only; the test's verdict follows in the same line.
  const rare = looksRare(c);
  const start = rare ? 'Attention gave clues, not the cause' : 'Attention showed where the move reads';
  // One plain claim: what the test found of the copying heads is the caveat's and the table's.
  const takeaway = carry && beyondRandom(h) && !mostlyIntoWalls(h) ? `${start}, and it led to heads that matter.` : `${start}.`;
  // The clues the rows found, in one sentence: each only where its figure is well above chance.
  const { prior, diagonal, head } = readingsOf(full);
  const clues = [
    prior >= AGAINST_CHANCE.leans
      ? 'it leans on its own answers'
      : prior >= AGAINST_CHANCE.aLittle
        ? 'it reads its own answers a little more than their length gives'
        : '',
    diagonal >= AGAINST_CHANCE.inOrder ? 'copies them in order beyond an even share' : '',
    head && head.standOut > 0 ? (head.standOut === 1 ? 'one head stands out from its layer' : 'a few heads stand out from their layer') : '',
  ].filter(Boolean);
  const listed = clues.length > 1 ? `${clues.slice(0, -1).join(', ')}, and ${clues.at(-1)}` : (clues[0] ?? '');
  return {
    takeaway,
    // The use of it for a class, unfolded: readers left part 2 with nothing plain to take back.
    // What the test said of the copying heads, in the same words as the takeaway's verdict.
    caveat: `attention maps look convincing, but only switching parts off tests them; ${
      carry && beyondRandom(h)
        ? mostlyIntoWalls(h)
          ? freesNoMore(h)
            ? 'here it changed which wall, not whether'
            : 'here it changed the move, mostly into another wall'
          : 'here the test backed the copying heads'
        : !carry && headsCarry(c)
          ? "here the test could not tell the copying heads' effect from luck"
          : 'here the test did not single out the copying heads'
    }.`,
    // What this means for a reader first (the sentence shown unfolded), then the clues and the test.
    said: `${SO_WHAT}${listed ? ` The clues were that ${listed}.` : ''}${
      !carry
        ? ''
        : beyondRandom(h)
          ? mostlyIntoWalls(h)
            ? ' Most moves it changes run into another wall: the heads change which wall, not whether, so they do not show the way out.'
            : ''
          : ' Three heads at random change nearly as many moves as the most-copying ones, so the pull is not held by the copying few.'
    }`,
    table: {
      caption:
        'Does where the model reads explain the repeat? What each step saw ("luck": how often coin tosses alone would give a gap this size, were the heads no different)',
      columns: ['Step: what it looked at', 'What it saw', 'What that tells'],
      rows: insideRows(full, filler, c),
    },
    more: `The shares, the diagonal and the heads are the page's figures for the lesson's last answer (Full; Filler for its row); the heads switched off are counted over the ${c.turns} stored turns right after a wall (${h.of} repeats). A head's figure is its diagonal ratio against the layer's average. The same repeats, read one by one: when it writes the repeated move, it gives the same move in its prior assistant answers ${LOOKS_BACK} times an even share or more ${rare ? 'only ' : ''}${looksBackShare(c)} of the time${rare ? ', so a repeat is rarely a plain look back at the old move (each token also carries a mix of the words before it)' : ''}.`,
  };
}

/** The figure over every stored turn at a wall, beside this answer's: readers took one answer's 1.3 for the finding. */
function typical(kind: 'prior' | 'diagonal', c: WallCounts): string {
  const m = overTurnsMean(kind, c);
  return m ? ` (over ${c.turns} turns at a wall, ${m.times.toFixed(1)})` : '';
}

/**
 * The lesson's close: what its history does to the move the model writes, and what attention showed, side by side
 * (two lists on the card), from the stored counts and, where the page has them, the figures against chance.
 */
import { type EvidenceRow, evidenceRows } from './evidence';
import { byChance, growsSaid, historyAdds, LUCK_LINE, ltBringsMost, movePct } from './wall-counts';
import { beyondRandom, freesNoMore, headsCarry, headsClear, mostlyIntoWalls, stillPct } from './heads-tally';
import { controlKeeps, followsSwap, hideVerdict, SWAP_PULL, swapSaid, unsettled } from './hidden-counts';
import { WALL_COUNTS, type WallCounts } from './wall-records';
import type { Reveal } from './world';
import { secondTwinWorks } from './twin-tally';
import { PAPERS } from './papers';
import { overTurnsMean } from './attention-reveals';
import { CLOSED_LOOP, type ClosedLoopRecord, goalSplit, noGoalGain, playTally } from './closed-loop';

/** The close's line on whole mazes: goals with its history, with none, with its previous answer hidden. */
function playedSaid(loop: ClosedLoopRecord): string {
  const [full, de, latest] = [playTally(loop.played.full), playTally(loop.played.de), playTally(loop.played['ao-last'])];
  const noGain = noGoalGain(loop);
  // Goals, not repeats: where a policy reaches more, it is said by name instead.
  const more = goalSplit(loop.played.de, loop.played.full);
  return `Played to the end on its own answers, it reached the goal in ${full.reached} of ${full.mazes} mazes with its whole history, ${de.reached} with none, and ${latest.reached} with its previous answer hidden${
    noGain ? ': fewer repeats did not mean more goals' : more.only > more.other ? ', more with none' : ''
  }.`;
}

/** The figures of the conversation's last answer against chance: its prior assistant share and its diagonal ratio. */
export interface AgainstChance {
  prior?: number;
  diagonal?: number;
}

export function summary(c: WallCounts = WALL_COUNTS, x: AgainstChance = {}, loop: ClosedLoopRecord = CLOSED_LOOP): Reveal {
  const lt = ltBringsMost(c);
  const grows = growsSaid(c).trim();
  const twin = byChance(c.split.full.twin).clear;
  // Read inside the branch where the most-copying heads change more: there, whether they do so clearly.
  const heads = headsClear(c);
  // Three counts, each a step's finding (AO, the swap test and the twins are read in their steps, the swap test in
  // the fold here): readers found 13 bullets too many, then 8.
  const writes = [
    `With its whole history it repeats the blocked move in ${movePct(c, 'full')} of its moves; with none, ${movePct(c, 'de')}.`,
    `With only its previous answer hidden (AO-last), ${movePct(c, 'ao-last')}; with only the answer two turns back hidden, ${movePct(c, 'ao-second-last')}${
      hideVerdict(c, 'ao-last') !== 'pull'
        ? ''
        : controlKeeps(c) && !unsettled(c, 'ao-last')
          ? ', so the pull sits in the previous answer'
          : `, so the pull seems to sit in the previous answer${unsettled(c, 'ao-last') ? ', though changing it confuses the model' : ''}`
    }.`,
    // Whole mazes played under each policy: whether fewer repeats meant reaching the goal (a reader asked for it).
    ...(loop.played.full.length ? [playedSaid(loop)] : []),
  ];
  const againstChance =
    x.prior === undefined
      ? 'Its line-for-line copying (the diagonal'
      : `Its prior assistant answers get ${x.prior.toFixed(1)} times what their length alone would give them, and its line-for-line copying (the diagonal`;
  // Over every stored turn at a wall where the record has it, this one answer beside: readers took one answer for all.
  const [prior, diagonal] = [overTurnsMean('prior', c), overTurnsMean('diagonal', c)];
  const overTurns =
    prior && diagonal
      ? `Over the ${c.turns} turns at a wall, its prior assistant answers get ${prior.times.toFixed(1)} times what their length alone would give them${x.prior === undefined ? '' : ` (this answer: ${x.prior.toFixed(1)})`}. Its line-for-line copying (the diagonal, ${diagonal.times.toFixed(1)} times an even share${x.diagonal === undefined ? '' : `; this answer: ${x.diagonal.toFixed(1)}`}) is mostly the list of cells the task asks for.`
      : null;
  // Where attention points, not why it chooses: the card's sentence says it, so the list starts with what it showed.
  const attention = [
    overTurns ??
      `${againstChance}${x.diagonal === undefined ? '' : `, ${x.diagonal.toFixed(1)} times an even share`}) is mostly the list of cells the task asks for.`,
    headsCarry(c)
      ? `Written again with the most-copying heads off, fewer of the ${c.headsOff.of} repeats stayed in the wall than with the 3 lowest off (${stillPct(c.headsOff, 'top')} of the moves made against ${stillPct(c.headsOff, 'bottom')}; with every head on, all of them)${heads ? '' : ', a gap that could be luck'}${
          heads && !beyondRandom(c.headsOff) ? `, but 3 at random came close (${stillPct(c.headsOff, 'random')})` : ''
        }${heads && mostlyIntoWalls(c.headsOff) ? (freesNoMore(c.headsOff) ? ', though it found an open way no more often' : ', though most moves it changed hit another wall') : ''}. Attention picked the heads; switching them off tested them.`
      : 'Switching off the most-copying heads left about as many repeats back in the wall as switching off the 3 lowest.',
  ];
  // Why it matters beyond this toy: the papers' findings in large chat models, in the fold (a teacher counted 476 words on the card).
  const papers = [
    `"${PAPERS.ownWords.title}" found that in real chats, keeping only the latest exchange (as LT does, which here kept the repeats) or one-sentence summaries of the answers often answered as well with far less text. In ${PAPERS.ownWords.pollutedTurns} of turns, a model carried a prior assistant answer's error or style forward.`,
    `"${PAPERS.inertia.title}" found that agents copy their own prior assistant answers (a diagonal in attention) and try fewer new moves. Training them to prefer answers written with less history cut that diagonal by ${PAPERS.inertia.diagonalCut} in an 8-billion-parameter model and raised the agents' success by ${PAPERS.inertia.successGain} (as its abstract gives them).${
      // Beside the look inside's verdict, so the paper's diagonal and "clues, not the cause" do not read as a contradiction.
      beyondRandom(c.headsOff)
        ? ''
        : ' In this tiny model the diagonal is mostly the list of cells, and switching off its copying heads did not single them out.'
    }${
      // The lesson's own twin, beside the paper's result: where its drop could be luck, said so, so the two do not read as one.
      !twin && !secondTwinWorks(c)
        ? ` This page's two tiny twins, trained so, dropped by no more than luck could give (${movePct(c, 'twin')} and ${movePct(c, 'twin-de')}, against ${movePct(c, 'full')}).`
        : ''
    }`,
  ];
  const evidence = evidenceRows(c, loop);
  return {
    evidence,
    takeaway: 'Conversational inertia is a model leaning on its own prior assistant answers more than the task needs.',
    said: 'What the model writes measures the inertia; attention shows where to look, and switching parts off tests what it shows.',
    points: [
      { label: 'What its history does to the move at a wall', items: writes },
      { label: 'What attention showed', items: attention },
      // What a newcomer takes home: the counts above and the papers' findings, for the chatbots they use.
      {
        // Marked as a guess: a reader found advice drawn from a 2-layer maze model overreached.
        label: 'What it may mean for chatbots you use (a guess from one tiny model)',
        // One line: the way out, with this model's own counts where they show it, at the walls Full hit and played
        // through (where no history cut far fewer repeats: a reader caught the 46 % taken for the whole story).
        items: [
          historyAdds(c) >= 10
            ? `When a chatbot keeps repeating a wrong answer, a fresh chat may break that loop but not solve the task. Here, at the walls its history had hit, no history cut the repeats from ${movePct(c, 'full')} to ${movePct(c, 'de')}${
                loop.played.full.length
                  ? `; playing on its own answers, only to ${playTally(loop.played.de).repeatRate} %${noGoalGain(loop) ? ', and it reached the goal no more often' : ''}`
                  : ''
              }.`
            : 'In a long chat a model may keep leaning on what it wrote before, mistakes included.',
        ],
      },
    ],
    // The card keeps four lines on the move; where the gap sits and what LT showed, with the papers' findings, folded.
    more: `${grows ? `${grows} ` : ''}${followsSwap(c) ? `${swapSaid(c)} ${SWAP_PULL} ` : ''}With only the turn before (LT), ${movePct(c, 'lt')}${lt ? ', so the pull is mostly in the turn before' : ''}. What the papers report in large chat models (their figures, not this page's): ${papers.join(' ')} Every rate counts the moves made on the same stored turns right after a wall. ${evidenceSaid(evidence)} The inspector stays open: every panel has its "what is this", and a real chat model loads by its Hub id in the Model panel.`,
  };
}

/** The table's reading in one sentence: how many gaps pass alone, and how many once every comparison is counted. */
export function evidenceSaid(rows: readonly EvidenceRow[]): string {
  const alone = rows.filter((r) => r.p < 1 / LUCK_LINE);
  const lost = alone.filter((r) => !r.clear).map((r) => r.compared);
  const list = lost.length > 1 ? `${lost.slice(0, -1).join(', ')} and ${lost.at(-1)}` : (lost[0] ?? '');
  return `Counted alone, ${alone.length} of the ${rows.length} comparisons its findings rest on give a gap more than luck. Among many comparisons one may pass by luck, so the table below also counts together those made for one question: ${lost.length ? `then ${list} could be luck` : 'each still passes'}. Trust most what several steps agree on.`;
}

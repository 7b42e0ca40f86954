/**
 * The lesson's first part, what the history does: the case, the counts at the wall under each policy, the mazes
 * played through, and their recap. Texts name things by what they are on screen; the papers are in each `source`.
 */
import { AO_PLACEHOLDER } from '../../context/apply';
import { policySpecs } from '../../context/policy';
import { TABLE } from './policy-numbers';
import type { LessonSetup } from '../../state/lesson-setup';
import { stepNo } from './order';
import { playedReveal } from './played';
import { CLOSED_LOOP } from './closed-loop';
import { generationReveal, streakReveal } from './moves';
import { movePct, wallTally } from './wall-counts';
import { policyTally } from './policy-tally';
import { WALL_COUNTS } from './wall-records';
import { hiddenTally, hidingReveal, latestTally } from './hidden-counts';
import { PAPERS, quotedTitles } from './papers';
import { recapReveal } from './recap';
import { clipWorked, figuresOf, type LessonStep, joined, only, readAgainstFull, SILENT } from './world';

/** The episode where the demo model keeps walking into a wall: every step reads it. */
export const WALL: LessonSetup = { example: 'maze-wall', policy: 'full', turn: null, numbers: TABLE };
/** The policies that drop earlier turns (the table's first step). */
const DROPPING = policySpecs(TABLE).filter((p) => /^(window|clip|summary|lt|de)/.test(p));

export const HISTORY_STEPS: LessonStep[] = [
  {
    id: 'case',
    title: 'An agent that repeats itself',
    region: 'conversation',
    setup: { ...WALL, turns: true },
    text: (w) =>
      `Conversational inertia is when a model leans on its own prior assistant answers more than the task needs, even repeating a failing move. Two papers, ${quotedTitles()}, found it in large chat models. A tiny model trained only on mazes played this ${w.turns}-turn maze: each user turn names the walls; each answer lists cells visited, a thought and a move.`,
    source:
      'The maze task and the term "conversational inertia": paper 2 (Mitigating conversational inertia), section 1. The cells are numbered row by row, as the system prompt says; the task asks for the list. The lesson reads inertia in what the model writes (does it repeat the move?) and, as a clue, in where it looks (its attention). The demo model learned from synthetic games (training/data.ts, docs/demo-model.md): in about half its maze games the player keeps repeating its last move for 2 to 6 turns, into walls or not, and most of those then break out, as the agents of paper 2 do; the lesson asks where in the conversation that habit takes its cue.',
    action: 'Read a few turns in the Conversation panel (opened for you), then press Next.',
    target: '[data-lesson="conversation"] details.turns > summary',
    done: () => true,
    reading: true,
    // The repeat to explain, as the bold point: read from the turns on the page.
    reveal: (w) => streakReveal(w.streak, w.toGoal),
  },
  {
    id: 'generate',
    title: 'What inertia does to a move',
    region: 'conversation',
    setup: { ...WALL, turns: true },
    text: (w) =>
      `Let the model write turn ${w.turns}'s answer twice: with the whole conversation (Full), then with no earlier turn (DE, "drop everything"), only the instructions and the last user message. Full and DE are context policies: rules for what the model is shown. Then the same moves are counted over ${WALL_COUNTS.episodes} mazes; the gap between the two is the history's pull.`,
    source:
      'Greedy decoding with the same model; the comparison of policies by what the model writes: paper 1, section 3. The episode was played greedily by the demo model and picked by scripts/inertia-turns.ts, which also counts how often this happens over 40 episodes. "Could it be luck" is a two-sided sign test on the turns where the two part, each turn counted as one coin toss; turns of one maze share their history, so they are not fully independent and that test is generous. The meter\'s second line counts each maze once: an exact sign-flip (randomisation) test on each maze\'s gap, the turns where only Full repeats less those where only DE does.',
    action: 'Click "Write it under Full, then under DE".',
    target: '[data-testid="lesson-act"]',
    // The turns at the wall, not the first ones: the answer it wrote there, centred.
    show: '[data-lesson="conversation"] li.turn.scored',
    act: { label: 'Write it under Full, then under DE', run: 'full-then-de' },
    done: (w) => Object.keys(w.generated).length >= 2,
    // Both answers written: then how often it happens over many episodes, not only in this one.
    reveal: (w) => {
      const r = generationReveal(w.generated, w.walls, w.toGoal);
      if (Object.keys(w.generated).length < 2) return r;
      return joined(r, wallTally());
    },
  },
  {
    id: 'contexts',
    title: 'Policies that drop turns',
    region: 'policies',
    setup: { ...WALL, contexts: true },
    text: () =>
      // Three names lead (Full, LT, DE); Window, Clip and Summary are left to the table's own words and the fold.
      `Dropping turns saves work and room. The table shows which earlier turns each policy lets the model see, and the tokens (word pieces) it reads. LT (last turn) keeps only the turn before; the table's last column says how the others cut. Does the turn before alone bring back the repeats?`,
    source:
      'Window, Clip and Summary: paper 2, section 2.2 (Clip-H→L: the history grows to H turns, is cut back to the last L, then grows again; Summary-H→L does the same and leaves a one-sentence summary of the turns it cut; the paper uses H = 12, which on these 10 turns would cut nothing, so the lesson sets H to 6: the H field of the Context policy panel, among the parts that "show them" brings back). LT and DE: paper 1, section 2 and appendix A.3.',
    action: 'Click LT in the table: only the turn before.',
    target: '[data-testid="contexts-lt"] button',
    // The whole table from its head, not the row the action names.
    show: '[data-testid="policy-contexts"] table.contexts',
    done: (w) => DROPPING.some((p) => only(w, p)),
    reveal: (w, base) => {
      const r = DROPPING.map((p) => (only(w, p) ? figuresOf(w, p) : null)).find(Boolean);
      const a = r && readAgainstFull(r, base);
      if (!r || !a) return SILENT;
      // Then what it does to the move at a wall, where the stored episodes were written under that policy too;
      // Clip's row worked out in the fold (its marks are the table's hardest to read).
      // The count at the wall said first: it is the sentence the card shows unfolded.
      const tally = policyTally(r.policy, r.label);
      const t = { ...joined(a, tally), said: `${tally.said} ${a.said}`.trim() };
      const clip = clipWorked(w.turns, TABLE);
      return clip ? { ...t, more: `${t.more ? `${t.more} ` : ''}${clip}` } : t;
    },
  },
  {
    id: 'hide',
    title: "Policies that hide the model's answers",
    region: 'policies',
    setup: { ...WALL, contexts: true },
    text: () =>
      `AO (assistant omitted) keeps every turn but puts "${AO_PLACEHOLDER}" in place of each of the model's answers; the user's turns, which name the walls, stay. If the extra repeats come with its own words, AO brings them down to DE's level: does it?`,
    source: 'AO: paper 1, section 2 and appendix A.3 (AO also adds a line to the system prompt saying the answers are omitted).',
    action: 'Click AO in the table.',
    target: '[data-testid="contexts-ao"] button',
    show: '[data-testid="policy-contexts"] table.contexts',
    done: (w) => only(w, 'ao'),
    reveal: (w, base) => hidingReveal(w, base, 'ao', hiddenTally()),
  },
  {
    // Its own step: readers found AO and AO-last in one card two lessons in one.
    id: 'hide-last',
    title: 'Hiding only its previous answer',
    region: 'policies',
    setup: { ...WALL, contexts: true },
    text: (w) =>
      `AO hid every answer it wrote. AO-last hides only its previous answer (turn ${w.turns - 1}'s), with the same placeholder; its control hides the answer two turns back instead. If the pull sits in the previous answer, AO-last takes the extra repeats away and the control does not. Does it?`,
    source:
      "AO-last is this tool's, not a paper's: AO's placeholder in place of the previous answer only, with no line added to the system prompt, to test whether the pull sits in that one answer. AO-second-last, its control, puts the same one placeholder on the answer before that: were the drop under AO-last the placeholder's confusion alone, it would drop there too. Cut-last, also this tool's and told in the fold, keeps the previous answer's first line (the list of cells) and cuts the rest: were the missing list what confused the model under AO-last, keeping it would settle it. The swap test, in the fold, is this tool's too (scripts/inertia-turns.ts).",
    action: 'Click AO-last in the table.',
    target: '[data-testid="contexts-ao-last"] button',
    show: '[data-testid="policy-contexts"] table.contexts',
    done: (w) => only(w, 'ao-last'),
    reveal: (w, base) => hidingReveal(w, base, 'ao-last', latestTally()),
  },
  {
    // Its own card: readers asked for whole mazes played under each policy beside the counts at Full's turns.
    id: 'played',
    title: 'Played to the end',
    region: 'card',
    setup: WALL,
    text: () =>
      `Steps ${stepNo('generate')}–${stepNo('hide-last')} answered again the turns Full reached, so every policy was judged where Full got stuck. Here each policy played step ${stepNo('generate')}'s ${CLOSED_LOOP.episodes} mazes, less the ${CLOSED_LOOP.episodes - CLOSED_LOOP.played.full.length} that start walled in, from their first turn, each answer written on its own prior assistant answers. If the history's pull is what holds it back, cutting the history should reach the goal more often. Does it?`,
    source:
      "This tool's experiment, not a paper's: training/closed-loop.ts plays each of the 40 mazes of the counts (those that start walled in left out) from the first turn, up to 16 turns, every answer written by the demo model under one policy on a history of its own prior assistant answers; scripts/closed-loop.ts writes examples/cache/closed-loop.json. Mazes where only one of two reached the goal are compared with a two-sided sign test, as every comparison of the lesson.",
    action: 'Read the bars, then press Next.',
    target: '[data-testid="lesson-goals"]',
    done: () => true,
    reading: true,
    reveal: () => playedReveal(),
  },
  {
    id: 'recap',
    title: 'What the counts told',
    region: 'card',
    setup: WALL,
    text: () =>
      `Steps ${stepNo('generate')}–${stepNo('hide-last')} counted how often the model walks back into a wall it just hit. "${PAPERS.ownWords.title}" found something like it in large models: in real chats, ${PAPERS.ownWords.pollutedTurns} of turns carried a prior assistant answer's error or style forward. Dropping the whole history cut the repeats (DE: ${movePct(WALL_COUNTS, 'de')} against ${movePct(WALL_COUNTS, 'full')}); cutting it back, as Clip does, did not (${movePct(WALL_COUNTS, 'clip:6:1')}).`,
    source:
      "The counts of the steps before, together. AO as the test of the model's own words: paper 1, section 2 (the user's turns stay, only the answers go). The large models' figure: paper 1 (Do LLMs benefit from their own words?), section 4.2 and table 1 (104 of 729 turns of real chats judged polluted by a prior assistant answer). The rates are of the moves made; answers with no move are left out, as on every count at the wall.",
    action: 'Read the table, then press Next.',
    target: '[data-testid="lesson-recap"]',
    done: () => true,
    reading: true,
    reveal: () => recapReveal(),
  },
];

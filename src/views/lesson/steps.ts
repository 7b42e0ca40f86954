/**
 * The lesson: short steps over the live inspector, each with its own starting state, one thing to do and a
 * reveal made of the model's own figures. Texts name things by what they are on screen; the papers and the
 * formulas are in each step's "where this comes from" (`source`).
 */
import { AO_PLACEHOLDER } from '../../context/apply';
import { policySpecs } from '../../context/policy';
import { TABLE } from './policy-numbers';
import { SINK_TOKENS } from '../../context/render';
import type { LessonSetup } from '../../state/lesson-setup';
import { QUIZ } from './quiz';
import { stepNo } from './order';
import { sharesReveal } from './attention-reveals';
import { attentionReveal } from './token-mix';
import { diagonalAsk, diagonalReveal, withFiller } from './band-reveals';
import { heatmapReveal, heatmapText } from './heatmap-reveal';
import { copiersSaid, headsSaid, topHeadSaid } from './head-reveal';
import { RANK_MARK } from '../heads/HeadGrid';
import { cplReveal } from './cpl';
import { generationReveal, headsOffReveal, streakReveal } from './moves';
import { movePct, wallTally } from './wall-counts';
import { headsTally } from './heads-tally';
import { policyTally } from './policy-tally';
import { WALL_COUNTS } from './wall-records';
import { hiddenTally, hidingReveal, latestTally } from './hidden-counts';
import { summary } from './summary';
import { priorCount, shareAsk } from './step-words';
import { PAPERS, quotedTitles } from './papers';
import { recapReveal } from './recap';
import { insideReveal } from './inside';
import { clipWorked, evenDiagonal, evenShare, figuresOf, type LessonStep, joined, only, readAgainstFull, SILENT, VERSUS_CHANCE } from './world';

export { QUIZ } from './quiz';
export { figuresOf, type LessonRegion, type LessonStep, type LessonWorld, type QuizQuestion, type Reveal, revealText } from './world';

/** The episode where the demo model keeps walking into a wall: every step reads it. */
const WALL: LessonSetup = { example: 'maze-wall', policy: 'full', turn: null, numbers: TABLE };
/** The policies that drop earlier turns (the table's first step). */
const DROPPING = policySpecs(TABLE).filter((p) => /^(window|clip|summary|lt|de)/.test(p));

export const LESSON: LessonStep[] = [
  {
    id: 'case',
    title: 'An agent that repeats itself',
    region: 'conversation',
    setup: { ...WALL, turns: true },
    text: (w) =>
      `Conversational inertia is when a model leans on its own prior assistant answers more than the task needs, even repeating a failing move. Two papers, ${quotedTitles()}, found it in large chat models. A tiny model trained only on mazes played this ${w.turns}-turn maze: each user turn names the walls; each answer lists cells visited, a thought and a move.`,
    source:
      'The maze task and the term "conversational inertia": paper 2 (Mitigating conversational inertia), section 1. The cells are numbered row by row, as the system prompt says; the task asks for the list. The lesson reads inertia in what the model writes (does it repeat the move?) and, as a clue, in where it looks (its attention).',
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
  {
    id: 'attention',
    title: 'What attention is',
    region: 'card',
    setup: WALL,
    // Attention met on one token first, in numbers, before the steps that sum it: readers asked for it on its own.
    text: (w) =>
      `Now, inside the model. It writes one token (a word piece) at a time; to pick the next, it glances back over the tokens before it, like a reader over earlier lines. Attention is how much of that glance each earlier token gets, as shares adding up to 100 %. The bar shows it for the token just before turn ${w.turns}'s move, where the model picks the move.`,
    source:
      'Attention: each head weighs the tokens before the one it reads with a softmax, weights that add up to 1 (Vaswani et al., "Attention is all you need"). The bar is this tool\'s: it reads the last layer, averaged over its heads, as every figure of the lesson does. The answer is the conversation\'s own, read back through the model once (as in training, so each token sees only those before it), not written anew.',
    action: 'Read the bar and the drawing of the model, then press Next.',
    target: '[data-testid="lesson-token-mix-bar"]',
    done: () => true,
    reading: true,
    reveal: attentionReveal,
  },
  {
    id: 'shares',
    title: 'Five kinds of token',
    region: 'figures',
    setup: WALL,
    text: (w) =>
      // Which answer is read, and the sink said where it is named: readers wondered whether a newly written answer was read, and what a sink is.
      `Now all of turn ${w.turns}'s answer: the figures average its tokens' attention. The tokens they read are of five kinds: the first ${SINK_TOKENS} (the "sink", counted apart as the papers do), system prompt, user's turns, prior assistant answers and the answer's own earlier tokens. ${shareAsk(figuresOf(w))}`,
    source:
      'The five categories and their shares: paper 2, section 3.4. Share = the mean over the answer\'s tokens of the attention on that category. The sink, counted apart so it does not blur the rest: Xiao et al., "Efficient streaming language models with attention sinks"; the first 3 tokens: paper 2, section 3.4. The chart "Shares by turn" gives the shares at every turn, each scored with only the turns before it (paper 2, figure 2).',
    action: 'Drag the slider to your guess (by keyboard: Page Up moves it by 10), then lock it in.',
    target: '[data-testid="lesson-guess"]',
    guess: { key: 'prior', label: 'attention on prior assistant answers' },
    done: (w) => w.guesses.prior !== undefined,
    reveal: sharesReveal,
  },
  {
    id: 'heatmap',
    title: 'Reading the heatmap',
    region: 'heatmap',
    setup: WALL,
    text: heatmapText,
    source:
      'The heatmap: the attention matrix of the last layer, averaged over its heads, one row per token of the answer (paper 2, figure 2 draws the same). The answer is read back through the model once, so each row sees only the tokens before it. A stripe is attention on one token, whatever the row: large models show one on their first tokens, the sink (Xiao et al., "Efficient streaming language models with attention sinks").',
    action: 'Find the arrow in the heatmap; point at its cell, or any other, to read it under the heatmap, then press Next.',
    target: '[data-lesson="heatmap"] canvas[data-testid="heatmap-full"]',
    done: () => true,
    reading: true,
    reveal: heatmapReveal,
  },
  {
    id: 'diagonal',
    title: 'The diagonal: copying in order',
    region: 'heatmap',
    // Filler beside Full: the same places, other words; the reveal reads both.
    setup: { ...WALL, also: ['filler'] },
    text: (w) =>
      `The diagonal ratio adds up the answer's attention inside the pink band, within ${w.radius} tokens of the dotted line, where copies in order fall, over ${priorCount(w)}prior assistant answers. A copy shifted further off is missed. ${diagonalAsk(w)}`,
    source:
      'The diagonal inertia indicator of paper 2, section 3.4: D = mean over answer tokens i of the sum, over prior assistant answers p and offsets |j − i| ≤ r, of A[i, start of p + j], with r = 5. The list of cells grows each turn, so in older answers the copied words drift off the line. The Filler control, which keeps where the tokens sit and changes what they say: paper 1 (Do LLMs benefit from their own words?), section 4.2; here the model writes nothing, it reads the same stored last answer with filler in place of its prior assistant answers.',
    action: 'Look at the band in the left heatmap (Full), then pick your guess.',
    target: '[data-testid="lesson-choice-0"]',
    // The heatmap itself, its diagonal, not the panel's legend.
    show: '[data-lesson="heatmap"] canvas[data-testid="heatmap-full"]',
    guess: { key: 'diagonal', label: 'attention on the diagonal', choices: VERSUS_CHANCE },
    done: (w) => w.guesses.diagonal !== undefined,
    reveal: (w) => withFiller(diagonalReveal(w), w),
  },
  {
    id: 'heads',
    title: 'Switching heads off',
    region: 'heads',
    setup: { ...WALL, heads: true },
    text: (w) =>
      `${headsSaid(figuresOf(w))} ${topHeadSaid(figuresOf(w))} Switching a head off, like knocking out a gene, silences its output. Do the copying heads make the move? The button switches off the last layer's 3 most-copying (${RANK_MARK.first}), then, as controls, the 3 lowest (${RANK_MARK.control}) and 3 at random.`,
    source: `Per-head attention: the same diagonal ratio (paper 2, section 3.4) read on one head instead of the head mean; heads and layers are counted from 0, so 1.2 is the second layer's third head. Switching heads off (zero ablation: the head writes nothing), with the last layer's heads of lowest diagonal ratio as the control (they share no head with the top three) and, in the count over the stored episodes, 3 heads drawn at random at each turn, the stricter control (the lowest heads may be the least used): this tool, after the head analyses of paper 2, section 3.4. The last layer only (the layer every figure reads): without the first layer's top heads this small model writes no move at all. A head switched off still attends as before (its own square keeps its colour) but passes nothing on, so the later layers, the answer and the other figures change. The same in the inspector: "Switch them off", then "Write the answer with every head on, then with these off". The count over the stored episodes: scripts/inertia-turns.ts.`,
    action: 'Click "Switch off the last layer\'s 3 most-copying heads, then its 3 lowest, and write the answer each way".',
    target: '[data-testid="lesson-act"]',
    act: { label: "Switch off the last layer's 3 most-copying heads, then its 3 lowest, and write the answer each way", run: 'heads-off' },
    // The grid the text reads, centred: the region opens on the charts above it.
    show: '[data-testid="head-grid-0"]',
    // Back to the grid once the answers are written: the panels above it grow as they come.
    after: '[data-testid="head-grid-0"]',
    done: (w) => w.offAnswers?.control !== undefined,
    // The answers themselves are side by side in the panel: the card says where each move leads, then how often over the episodes.
    reveal: (w, base) => {
      if (!w.offAnswers) return SILENT;
      const counted = w.walls !== null && w.offAnswers.control !== undefined;
      const r = headsOffReveal(w.offAnswers, w.previousAnswer, w.walls, w.toGoal, counted);
      // The count over the stored repeats said first, with its luck: the sentence the card shows unfolded.
      const tally = headsTally();
      const t = counted ? { ...joined(r, tally), said: `${tally.said} ${r.said}`.trim() } : r;
      // Which of the three stands out: read on the step's start, every head on.
      return { ...t, more: `${t.more ?? ''} ${copiersSaid(figuresOf(base), w.offAnswers.off)}`.trim() };
    },
  },
  {
    id: 'inside',
    title: 'What the look inside told',
    region: 'card',
    // Filler beside Full, so its row reads the page's own figures; every head on, for the heads' row.
    setup: { ...WALL, heads: true, also: ['filler'] },
    text: () =>
      `Steps ${stepNo('shares')}–${stepNo('heads')} asked one question. Does where the model reads explain why it walks into the wall again? The table puts each step's answer side by side, the clues first, then the one test, heads switched off.`,
    source:
      "The figures of the steps before, together: the shares and the diagonal ratio (paper 2, section 3.4) of the lesson's last answer, under Full and Filler, its last layer's heads, and the stored counts of the turns right after a wall (scripts/inertia-turns.ts).",
    action: 'Read the table, then press Next.',
    target: '[data-testid="lesson-recap"]',
    done: () => true,
    reading: true,
    reveal: (w) => insideReveal(w),
  },
  {
    id: 'cpl',
    title: 'A model trained against it',
    region: 'compare-models',
    setup: { ...WALL, compareModels: true },
    text: () =>
      `CPL (Context Preference Learning, from "Mitigating conversational inertia") retrains the model. For one turn, it learns to prefer answer A, written seeing only the turn before, over B, written seeing everything. A twin of this model was trained so on other mazes. Does it still walk into the wall?`,
    source:
      'How a model learns to prefer one answer: for each pair, training nudges its weights so that the short-context answer becomes more likely and the whole-history one less likely (direct preference optimisation, DPO). Context Preference Learning (CPL): paper 2, section 2.1; its effect on the diagonal: paper 2, figure 7. The twin was trained by training/cpl.py on pairs made by training/cpl-pairs.ts; the second twin the same way, with no earlier turn as the short context (a variant of this tool, not of the paper), and is counted only over the stored turns at a wall (scripts/inertia-turns.ts), not loaded on the page.',
    action: 'Click "Load the CPL twin and write the answer with both".',
    target: '[data-testid="lesson-act"]',
    act: { label: 'Load the CPL twin and write the answer with both', run: 'twin-writes' },
    // The chart its reveal reads, brought into view once both have written (on a phone it sat above the card, out of sight).
    after: '[data-testid="turns-chart"]',
    done: (w) => w.compareModels && w.generated.full !== undefined && w.generatedB.full !== undefined,
    reveal: cplReveal,
  },
  {
    id: 'check',
    title: 'Check yourself',
    region: 'card',
    setup: WALL,
    text: () => `${QUIZ.length} questions on what you saw.`,
    source: 'The definitions of each step, as cited there.',
    action: `Answer the ${QUIZ.length} questions.`,
    target: '[data-testid="lesson-card"] fieldset input[type="radio"]',
    quiz: QUIZ,
    done: (w) => QUIZ.every((q, i) => w.answers[i] === q.correct),
    reveal: (w) => {
      const r = figuresOf(w, 'full');
      const [diagonal, prior] = r ? [evenDiagonal(r), evenShare(r, 'prior')] : [0, 0];
      return summary(undefined, {
        ...(r && diagonal > 0 && { diagonal: r.diagonal / diagonal }),
        ...(r && prior > 0 && { prior: r.ratios.prior / prior }),
      });
    },
  },
];

/**
 * The lesson: short steps over the live inspector, each with its own starting state, one thing to do and a
 * reveal made of the model's own figures. Texts name things by what they are on screen; the papers and the
 * formulas are in each step's "where this comes from" (`source`). The first part (what the history does) is in
 * steps-history.ts; here, the look inside the model, the CPL twin and the check.
 */
import { SINK_TOKENS } from '../../context/render';
import { QUIZ } from './quiz';
import { HISTORY_STEPS, WALL } from './steps-history';
import { stepNo } from './order';
import { sharesReveal } from './attention-reveals';
import { attentionReveal } from './token-mix';
import { diagonalAsk, diagonalReveal, fillerReveal, UNDER_FILLER } from './band-reveals';
import { heatmapReveal, heatmapText } from './heatmap-reveal';
import { copiersSaid, headsSaid, topHeadSaid } from './head-reveal';
import { RANK_MARK } from '../heads/HeadGrid';
import { cplReveal } from './cpl';
import { headsOffReveal } from './moves';
import { headsTally } from './heads-tally';
import { summary } from './summary';
import { priorCount, shareAsk } from './step-words';
import { insideReveal } from './inside';
import { evenDiagonal, evenShare, figuresOf, type LessonStep, joined, SILENT, VERSUS_CHANCE } from './world';

export { QUIZ } from './quiz';
export { figuresOf, type LessonRegion, type LessonStep, type LessonWorld, type QuizQuestion, type Reveal, revealText } from './world';

export const LESSON: LessonStep[] = [
  ...HISTORY_STEPS,
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
    action: 'Read the bar and the words under it, then press Next.',
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
      `Now all of turn ${w.turns}'s answer: the figures average its tokens' attention. The tokens they read are of five kinds: the first ${SINK_TOKENS} (the "sink", where models park spare attention), system prompt, user's turns, prior assistant answers and the answer's own earlier tokens. ${shareAsk(figuresOf(w))}`,
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
    action: 'Find the arrow in the heatmap; point at (or tap) its cell, or any other, to read it under the heatmap, then press Next.',
    target: '[data-lesson="heatmap"] canvas[data-testid="heatmap-full"]',
    done: () => true,
    reading: true,
    reveal: heatmapReveal,
  },
  {
    id: 'diagonal',
    title: 'The diagonal: copying in order',
    region: 'heatmap',
    setup: WALL,
    text: (w) =>
      `The diagonal ratio adds up the answer's attention inside the pink band, over ${priorCount(w)}prior assistant answers. The band reaches ${w.radius} tokens either side of the dotted line, where copies in order (step ${stepNo('heatmap')}'s slanted line) fall; a copy shifted further off is missed. ${diagonalAsk(w)}`,
    source:
      'The diagonal inertia indicator of paper 2, section 3.4: D = mean over answer tokens i of the sum, over prior assistant answers p and offsets |j − i| ≤ r, of A[i, start of p + j], with r = 5. The list of cells grows each turn, so in older answers the copied words drift off the line.',
    action: 'Look at the band in the left heatmap (Full), then pick your guess.',
    target: '[data-testid="lesson-choice-0"]',
    // The heatmap itself, its diagonal, not the panel's legend.
    show: '[data-lesson="heatmap"] canvas[data-testid="heatmap-full"]',
    guess: { key: 'diagonal', label: 'attention on the diagonal', choices: VERSUS_CHANCE },
    done: (w) => w.guesses.diagonal !== undefined,
    reveal: diagonalReveal,
  },
  {
    // Its own step: readers found the band and its control in one card two lessons in one.
    id: 'filler',
    title: 'Same places, other words',
    region: 'heatmap',
    // Filler beside Full: the same places, other words; the reveal reads both.
    setup: { ...WALL, also: ['filler'] },
    text: () =>
      `Is the band copying, or does it only follow where tokens sit? Filler keeps every token in its place but swaps the words of the prior assistant answers for filler, so nothing there can be copied. The right heatmap reads the same answer so. Look at its band: does it fall, stay about the same, or rise?`,
    source:
      'The Filler control, which keeps where the tokens sit and changes what they say: paper 1 (Do LLMs benefit from their own words?), section 4.2. Here the model writes nothing: it reads the same stored last answer with filler in place of its prior assistant answers, and the band is summed as in the step before.',
    action: 'Compare the bands of the two heatmaps, then pick your guess.',
    target: '[data-testid="lesson-choice-0"]',
    show: '[data-lesson="heatmap"] canvas[data-testid="heatmap-full"]',
    guess: { key: 'filler', label: 'the band under Filler', choices: UNDER_FILLER },
    done: (w) => w.guesses.filler !== undefined,
    reveal: fillerReveal,
  },
  {
    id: 'heads',
    title: 'Switching heads off',
    region: 'heads',
    setup: { ...WALL, heads: true },
    text: (w) =>
      `${headsSaid(figuresOf(w))} ${topHeadSaid(figuresOf(w))} Switching a head off, like knocking out a gene, silences it. Do the copying heads make the move? The button switches off the last layer's 3 most-copying (${RANK_MARK.first}), then, as controls, the 3 lowest (${RANK_MARK.control}) and 3 at random.`,
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
      `CPL (Context Preference Learning, from "Mitigating conversational inertia") retrains the model on pairs of answers to one turn: A, written seeing only the turn before, and B, written seeing everything. Training nudges its weights so that A becomes likelier than B. A twin of this model was trained so on other mazes. Does it still walk into the wall?`,
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

/**
 * The lesson: short steps over the live inspector, each with one thing to do and a reveal made of the
 * model's own figures. Plain functions of a snapshot of what is on screen (LessonWorld), so the gates
 * and the texts are tested without a page; numbers are written with the figures panel's own format.
 */
import type { PolicyResult } from '../../analysis/analyze';
import { SINK_TOKENS } from '../../context/render';
import { fmtShare } from '../figures/format';
import { parsePolicy, policyLabel } from '../../context/policy';
import { answerOf } from '../../export/figures';

/** What the steps read: the figures on screen and what the learner has done. */
export interface LessonWorld {
  /** The figures on screen: model A's policies first, then model B's (compare models). */
  results: PolicyResult[];
  /** The figures are the loaded model's, of the conversation on screen. */
  fromModel: boolean;
  /** The figures are the example's stored ones (examples/cache/), shown while the model loads. */
  fromCache: boolean;
  /** The policies shown, and whether several (or two models) are compared. */
  shown: string[];
  compareModels: boolean;
  /** The scored turn as chosen (null: the last) and the number of turns. */
  turn: number | null;
  turns: number;
  radius: number;
  /** The cell pointed at or locked (row: query token, col: key token), or null. */
  pointed: { row: number; col: number } | null;
  exampleName: string | null;
  /** Answers the model wrote, per policy. */
  generated: Record<string, string>;
  /** Guesses (0–1) and quiz answers given in the lesson card. */
  guesses: Record<string, number>;
  answers: Record<string, number>;
}

/** A region of the inspector a step points at (the element's data-lesson attribute). */
export type LessonRegion = 'conversation' | 'tokens' | 'heatmap' | 'figures' | 'policies' | 'view' | 'charts' | 'compare-models' | 'card';

export interface QuizQuestion {
  question: string;
  options: string[];
  correct: number;
  /** Why the right option is right, shown once answered. */
  why: string;
}

export interface LessonStep {
  id: string;
  title: string;
  region: LessonRegion;
  /** At most three sentences. */
  text(w: LessonWorld): string;
  /** The one thing the learner does to go on. */
  action: string;
  done(w: LessonWorld): boolean;
  /** What the live figures say, once the step is done. */
  reveal?(w: LessonWorld): string;
  /** A guess asked before the reveal: its key in `guesses`. */
  guess?: { key: string; label: string };
  quiz?: QuizQuestion[];
}

/**
 * Model A's figures under a policy (the first shown when none is named): the model's, or while it loads
 * the example's stored ones (the model's own, computed offline and pinned by a test to a live pass).
 */
export function figuresOf(w: LessonWorld, policy?: string): PolicyResult | null {
  if (!w.fromModel && !w.fromCache) return null;
  return w.results.find((r) => !r.slot && (policy === undefined || r.policy === policy)) ?? null;
}
const twinOf = (w: LessonWorld) => (w.fromModel ? (w.results.find((r) => r.slot === 1) ?? null) : null);
const share = (v: number) => fmtShare(v);
const percent = (v: number) => `${Math.round(v * 100)} %`;
const only = (w: LessonWorld, policy: string) => w.shown.length === 1 && w.shown[0] === policy && figuresOf(w, policy) !== null;

// Generated answers are keyed by the policy specs the page itself wrote, as the other views read them.
const labelOf = (spec: string) => policyLabel(parsePolicy(spec));
/** A maze answer's move ("Move: north"; the demo model also writes "Action -> east"), or null. */
const moveOf = (answer: string) => /(?:Move|Action)\s*(?::|->)\s*(\w+)/.exec(answer)?.[1] ?? null;

/** The example the lesson uses for a copy at another offset (state/examples.ts). */
export const SHIFTED = 'maze-shifted';
export const SHIFTED_TITLE = 'Maze, last answer reordered';

export const QUIZ: QuizQuestion[] = [
  {
    question: 'Conversational inertia is…',
    options: [
      'the model reading its own prior assistant answers and repeating their shape',
      'the model forgetting the system prompt',
      'attention that is spread evenly over every token',
    ],
    correct: 0,
    why: 'The answer leans on the answers before it, token by token: the diagonal in the heatmap.',
  },
  {
    question: 'The diagonal ratio adds up the attention that token i of the answer gives to…',
    options: ['the first tokens of the conversation', 'tokens near position i of each prior assistant answer', 'the user turns'],
    correct: 1,
    why: 'Within r tokens of the same offset in every prior assistant answer (paper 2, §3.4).',
  },
  {
    question: 'Under Filler the prior assistant answers are replaced by neutral text of the same length. If the diagonal falls, the model was following…',
    options: ['the position of the tokens only', 'what the prior assistant answers say'],
    correct: 1,
    why: 'Positions are the same under Filler; only the content changed, so the diagonal is read from content.',
  },
];

export const LESSON: LessonStep[] = [
  {
    id: 'case',
    title: 'An agent that repeats itself',
    region: 'conversation',
    text: (w) =>
      `This is a conversation with a maze agent: a small language model, running in this page, answers ${w.turns} turns. Each answer lists the cells visited so far, copied from its previous answer, then a thought and a move. Leaning on its own prior assistant answers like this is conversational inertia, and this lesson shows how to see it in the model's attention.`,
    action: 'Look over a few turns of the conversation, then press Next.',
    done: () => true,
  },
  {
    id: 'reads',
    title: 'Where the answer reads',
    region: 'tokens',
    text: () =>
      "Attention is where each token of the answer reads from: every earlier token gets a weight, and one token's weights add up to 1. The figures on this page are read from the last layer of the model.",
    action: 'Point at a token of the last answer (the outlined tokens) in the Tokens panel, or Tab to one.',
    done: (w) => w.pointed !== null,
    reveal: () => 'The shading now follows that token: the darker a token, the more of its attention it gets.',
  },
  {
    id: 'sink',
    title: 'The sink',
    region: 'heatmap',
    text: () =>
      `Large language models often pour much of their attention onto the first few tokens, whatever those say: the attention sink. So the tool counts the first ${SINK_TOKENS} tokens as a category of their own, where they cannot blur the others.`,
    action: 'Point at one of the first 3 columns of the heatmap, at its left edge (or focus the heatmap and press Home).',
    done: (w) => w.pointed !== null && w.pointed.col < SINK_TOKENS,
    reveal: (w) => {
      const r = figuresOf(w);
      if (!r) return 'The model is still loading: its figures follow.';
      return `Here the sink takes ${share(r.ratios.sink)} of the answer's attention (the figure "sink share"): ${r.ratios.sink >= 0.2 ? 'this model has a strong sink, as most large models do.' : 'this model has little of one, unlike most large models; load a real chat model to see a strong sink.'}`;
    },
  },
  {
    id: 'shares',
    title: 'Five categories',
    region: 'figures',
    text: () =>
      "Every token the answer reads belongs to one category: sink, system prompt, user turns, prior assistant answers, or the answer itself. Guess what share of the answer's attention goes to the prior assistant answers.",
    action: 'Set your guess with the slider.',
    guess: { key: 'prior', label: 'share on prior assistant answers' },
    done: (w) => w.guesses.prior !== undefined,
    reveal: (w) => {
      const r = figuresOf(w);
      return r
        ? `The model puts ${share(r.ratios.prior)} on its prior assistant answers, ${share(r.ratios.user)} on the user turns and ${share(r.ratios.system)} on the system prompt (you guessed ${percent(w.guesses.prior ?? 0)}).`
        : 'The model is still loading: its figures follow.';
    },
  },
  {
    id: 'diagonal',
    title: 'The diagonal',
    region: 'heatmap',
    text: (w) =>
      `Inertia has a shape: token i of the answer reads token i of each prior assistant answer, a diagonal line in every prior assistant answer's block of the heatmap. The diagonal ratio adds up the attention within r = ${w.radius} tokens of that line (the outlined r-band), averaged over the answer's tokens. Guess it.`,
    action: 'Set your guess with the slider.',
    guess: { key: 'diagonal', label: 'diagonal ratio' },
    done: (w) => w.guesses.diagonal !== undefined,
    reveal: (w) => {
      const r = figuresOf(w);
      if (!r) return 'The model is still loading: its figures follow.';
      return `It is ${share(r.diagonal)}, out of the ${share(r.ratios.prior)} the prior assistant answers get (you guessed ${percent(w.guesses.diagonal ?? 0)}).`;
    },
  },
  {
    id: 'filler',
    title: 'Content, not position',
    region: 'policies',
    text: () =>
      'Is the diagonal about what the prior assistant answers say, or only where their tokens sit? Filler replaces each prior assistant answer with neutral text of the same length: the positions stay, the content goes.',
    action: 'Click Filler.',
    done: (w) => only(w, 'filler'),
    reveal: (w) => {
      const r = figuresOf(w, 'filler');
      return r ? `Under Filler the diagonal ratio is ${share(r.diagonal)}. Click Full again to compare: the drop is what the content carried.` : '';
    },
  },
  {
    id: 'turns',
    title: 'It grows with the turns',
    region: 'view',
    text: () =>
      'The longer the conversation, the more there is to lean on. The chart "Shares by turn" scores every turn of the conversation under Full (paper 2, Fig. 2).',
    action: 'Click Full, then choose an earlier turn in "turn" (the view controls).',
    done: (w) => only(w, 'full') && w.turn !== null && w.turn < w.turns && figuresOf(w, 'full')?.turn === w.turn,
    reveal: (w) => {
      const r = figuresOf(w, 'full');
      return r
        ? `At turn ${r.turn} the prior assistant answers get ${share(r.ratios.prior)} and the diagonal ratio is ${share(r.diagonal)}; set the turn back to the last to see it grow.`
        : '';
    },
  },
  {
    id: 'policies',
    title: 'What a policy cuts',
    region: 'policies',
    text: () =>
      "A context policy decides which earlier turns the model sees. Clip-12→1 lets the history grow to 12 turns, then keeps only the last one; AO (assistant-omitted) keeps every user turn and puts a placeholder in place of each of the model's own answers.",
    action: 'Set "turn" back to the last, then click Clip-12→1.',
    done: (w) => only(w, 'clip:12:1') && w.turn === null,
    reveal: (w) => {
      const r = figuresOf(w, 'clip:12:1');
      const c = r?.cost[r.cost.length - 1];
      return r && c
        ? `Under Clip-12→1 the model reads ${c.contextTokens} tokens before answering, and the diagonal ratio is ${share(r.diagonal)}. Try AO too: with no prior assistant answers there is no diagonal to follow.`
        : '';
    },
  },
  {
    id: 'generate',
    title: 'Does it change what the model says?',
    region: 'view',
    text: () =>
      "The figures score the conversation's own answer. The model can also write its own answer under the policy, and the figures then score that one.",
    action: 'Click "Generate the answer".',
    done: (w) => Object.keys(w.generated).length > 0,
    reveal: (w) => {
      const written = Object.entries(w.generated);
      if (!written.length) return '';
      const [p, text] = written[0]!;
      const first = `Under ${labelOf(p)} the model wrote: "${text}".`;
      if (written.length < 2)
        return `${first} Click another policy and generate again (Window with W = 1 keeps only the last turn) to see whether the answer changes.`;
      const [q, other] = written[written.length - 1]!;
      // Compared as written: the same text, or which part changed (the maze's move is its last line).
      const verdict =
        text === other
          ? 'the same answer'
          : moveOf(text) !== null && moveOf(text) === moveOf(other)
            ? `a different answer, the same move (${moveOf(text)})`
            : 'a different answer and a different move';
      return `${first} Under ${labelOf(q)}: "${other}": ${verdict}.`;
    },
  },
  {
    id: 'cpl',
    title: 'A model trained against it',
    region: 'compare-models',
    text: () =>
      'Context Preference Learning (paper 2, §2.1) tunes a model to prefer the answer it gives from a short context over the one it gives from the whole history. The CPL-tuned twin of the demo model was trained that way.',
    action: 'Tick "score this conversation with more models too" (Compare models), then click "Compare with the CPL-tuned demo model".',
    done: (w) => w.compareModels && twinOf(w) !== null,
    reveal: (w) => {
      const a = figuresOf(w);
      const b = twinOf(w);
      if (!a || !b) return '';
      // An answer the demo model wrote (the step before) against the conversation's answer would compare two texts, not two models.
      const scored = (r: PolicyResult) => (answerOf(r) === 'model' ? 'the answer it wrote' : "the conversation's answer");
      if (answerOf(a) !== answerOf(b))
        return `The demo model's figures score ${scored(a)}, its twin's ${scored(b)}: two different texts. Click "use the file's answer" (the view controls) to score the same answer with both, or "Generate each model's answer" to have each write its own.`;
      const change = (x: number, y: number) => (x > 0 ? `${Math.abs(Math.round(((y - x) / x) * 100))} % ${y < x ? 'lower' : 'higher'}` : 'not comparable');
      // Paper 2 (Fig. 7): CPL lowers the diagonal more than the share on prior assistant answers. Said as this pair measures.
      const verdict =
        b.diagonal < a.diagonal
          ? b.diagonal / a.diagonal < b.ratios.prior / a.ratios.prior
            ? 'the diagonal falls more than the share, as paper 2 reports'
            : 'the diagonal falls, but not more than the share'
          : 'here the twin leans on the copy no less than the base: try Full, or another turn';
      return `Under ${a.label}, diagonal ratio: ${share(a.diagonal)} for the demo model, ${share(b.diagonal)} for its CPL twin (${change(a.diagonal, b.diagonal)}); share on prior assistant answers: ${share(a.ratios.prior)} and ${share(b.ratios.prior)} (${change(a.ratios.prior, b.ratios.prior)}): ${verdict}.`;
    },
  },
  {
    id: 'shifted',
    title: 'When the copy moves',
    region: 'conversation',
    text: () =>
      `Everything here works on any conversation, and not every copy sits where paper 2's diagonal looks: it pairs token i of the answer with token i of each prior assistant answer. In the example "${SHIFTED_TITLE}" the last answer gives its thought and move first and the path after them, so the copied path starts later than in every prior assistant answer.`,
    action: `Pick the example "${SHIFTED_TITLE}" in the Conversation panel.`,
    done: (w) => w.exampleName === SHIFTED && figuresOf(w) !== null,
    reveal: (w) => {
      const r = figuresOf(w);
      const c = r && [...r.copy].sort((a, b) => b.longestRun - a.longestRun)[0];
      if (!r || !c) return '';
      const where =
        c.shift === 0 ? 'at the same offset' : `${Math.abs(c.shift)} tokens ${c.shift < 0 ? 'later' : 'earlier'} in this answer than in turn ${c.turn}'s`;
      // Which way they part is the model's to say: the text is a copy either way, the attention may not follow it.
      const reads =
        r.diagonalCopyAligned > r.diagonal
          ? "the attention follows the copy, and paper 2's band misses part of it"
          : "the attention stays nearer paper 2's alignment than the copy's";
      return `Its longest copy, ${c.longestRun} tokens of turn ${c.turn}'s answer, sits ${where}. Under ${r.label}, paper 2's diagonal reads ${share(r.diagonal)} and the copy-aligned diagonal, which moves each band to its answer's copy, ${share(r.diagonalCopyAligned)}: ${reads}. The tool reports paper 2's by default; read the two together when an answer moves text around, and paste your own conversation, or load a chat model from the Hub, to try yours.`;
    },
  },
  {
    id: 'check',
    title: 'Check yourself',
    region: 'card',
    text: () => 'Three questions on what you saw.',
    action: 'Answer the three questions.',
    quiz: QUIZ,
    done: (w) => QUIZ.every((q, i) => w.answers[i] === q.correct),
    reveal: () => 'That is the whole lesson. The inspector stays open: every panel has its "what is this".',
  },
];

/**
 * What the lesson's steps read: a snapshot of the page (LessonWorld), the state a step sets on entry
 * (state/lesson-setup.ts), and the helpers the step texts share. Plain functions, tested without a page.
 */
import type { PolicyResult } from '../../analysis/analyze';
import type { Category } from '../../metrics/categories';
import { chanceOf, type SweepPoint } from '../../analysis/sweep';
import type { LessonAction } from '../../state/lesson-actions';
import type { LessonSetup } from '../../state/lesson-setup';
import { AO_SYSTEM_PROMPT } from '../../context/apply';
import { turnsSeen } from '../../context/history';
import type { PolicyNumbers } from '../../context/policy';
import { fmtPercent } from '../figures/format';
import type { Streak } from './moves';
import type { EvidenceRow } from './evidence';
import type { MazeTrail } from './maze';
import type { StepId } from './order';
import type { Board } from './wall-counts';
import type { CountTable } from './count-table';
import type { GoalChart } from './played';

/** Answers written with every head on and with heads switched off (named layer.head); with a control set, that too. */
export interface OffAnswers {
  withAll: string;
  withOff: string;
  off: string[];
  control?: { off: string[]; withOff: string };
}

/** What the steps read: the figures on screen and what the learner has done. */
export interface LessonWorld {
  /** The figures on screen: model A's policies first, then the compared models'. */
  results: PolicyResult[];
  /** The figures are the loaded model's, of the conversation on screen. */
  fromModel: boolean;
  /** The figures are the example's stored ones (examples/cache/), shown while the model loads. */
  fromCache: boolean;
  /** The policies shown, and whether models are compared. */
  shown: string[];
  compareModels: boolean;
  /** The scored turn as chosen (null: the last) and the number of turns. */
  turn: number | null;
  turns: number;
  radius: number;
  /** The cell pointed at or locked (row: query token, col: key token), or null. */
  pointed: { row: number; col: number } | null;
  exampleName: string | null;
  /** The walls the user message of the scored turn names ("Walls: south." → ['south']), or null: it names none. */
  walls: string[] | null;
  /** The moves that bring the agent nearer its goal, from that message (null or absent: it names no goal). */
  toGoal?: string[] | null;
  /** The answer before the scored one (null: the scored answer is the first). */
  previousAnswer: string | null;
  /** The conversation's longest run of turns giving the same move (null: none of 3 or more). */
  streak: Streak | null;
  /** The maze the user turns describe, up to the scored turn (the case step draws it), or null for another conversation. */
  maze?: MazeTrail | null;
  /** Answers the model wrote, per policy; and those the compared model B wrote. */
  generated: Record<string, string>;
  generatedB: Record<string, string>;
  /** Heads switched off, and the answers written with every head on and with them off. */
  off: string[];
  offAnswers: OffAnswers | null;
  /** Guesses (0–1) locked in, and quiz answers given, in the lesson card. */
  guesses: Record<string, number>;
  answers: Record<string, number>;
  /** The head the figures show (null: the mean of the layer's heads). */
  head: number | null;
  /** The loaded model's final layer (what every step reads), or null before a model is loaded. */
  finalLayer: number | null;
  /** Each model slot's figures turn by turn (the chart "Shares by turn"), as far as they are scored. */
  sweeps: readonly (readonly SweepPoint[] | null)[];
  /** The first model's turns are still being scored. */
  sweeping: boolean;
}

/** A region of the inspector a step points at (the element's data-lesson attribute). */
export type LessonRegion = 'conversation' | 'tokens' | 'heatmap' | 'figures' | 'policies' | 'view' | 'charts' | 'heads' | 'compare-models' | 'card';

/**
 * A reveal: what it says, at most four short sentences shown in the card, and the figures and counts behind it,
 * folded under "The figures behind this" (a newcomer reads the first; a researcher opens the second).
 */
export interface Reveal {
  /** The one line to take away, shown first in bold: what the figures below it mean. */
  takeaway?: string;
  said: string;
  /** What to do next within the step, shown unfolded under the reveal's sentence (the hide step's AO-last). */
  next?: string;
  /**
   * The one limit a newcomer must not miss, shown unfolded under "Careful:" (why no history still repeats, what hiding
   * answers does besides): readers found each such caveat only under "Read more" and took the bold line for all of it.
   */
  caveat?: string;
  more?: string;
  /** The reveal's key figures drawn, each beside what looking at every token equally would give. */
  bars?: Bars;
  /** Short lists side by side, each under its label (the close: what the model writes, what attention showed). */
  points?: { label: string; items: string[] }[];
  /** A count drawn as the running count's bars (the heads step: where the stored repeats went with heads off). */
  board?: Board;
  /** Goals reached playing whole mazes under each policy (the played-through step). */
  goals?: GoalChart;
  /** Steps or policies side by side, in a table (the recaps closing each half of the lesson). */
  table?: RecapTable;
  /** The policies' counts at the wall as a table, in the fold (count-table.ts): every row over the same turns. */
  counts?: CountTable;
  /** The step's comparisons of counts on the luck meter: how often luck alone would give each gap. */
  luck?: LuckRow[];
  /** Every comparison of the lesson in one table, each with its luck alone and counted with the rest (the check's fold). */
  evidence?: EvidenceRow[];
}

/** One comparison on the luck meter: the sign test's chance `p`, in words (`said`), and whether it is under 1 in 20. */
export interface LuckRow {
  label: string;
  p: number;
  said: string;
  clear: boolean;
  /** What this line counts otherwise, said under the meter (each maze once). */
  note?: string;
}

/** A recap's table: a row per policy or step, named with what it shows, its figure, and what that tells. */
export interface RecapTable {
  caption: string;
  /** The three column heads: the row's name, its figure, what it tells. */
  columns: [string, string, string];
  /**
   * `also`: under the figure, a second figure that reads it (how often it finds an open way); `luck`: under that,
   * how often chance alone would give its gap (plain words, from a sign test).
   */
  rows: { label: string; sees: string; figure: string; also?: string; luck?: string; tells: string }[];
}

/** A few shares as bars: each row's value and, marked on it, what an even spread of attention gives the same tokens. */
export interface Bars {
  caption: string;
  /** `at`: the one token a row stands for (its place in the context), which the card can bring into view. */
  rows: { label: string; value: number; even: number; at?: number }[];
}
/** The most words (and a step text's most sentences, each of at most `sentence` words) a card may have, and the most numbers a reveal shows unfolded: read, not skimmed (tested on each). */
// A teacher, reading every card, asked for one plain claim and one figure per card: the takeaway one sentence with no
// colon chain, the sentence under it (`lead`) and the caveat short; the rest folded.
export const WORDS = { text: 70, sentences: 5, sentence: 32, said: 90, saidSentences: 4, takeaway: 18, lead: 30, numbers: 5, caveat: 24 } as const;
/** The numbers a text quotes ("78 %", "1.5 times", "turn 9"): a reveal's takeaway and words keep to `WORDS.numbers`, the rest folded. */
// A policy's name is not a figure: the digits of "Window-6" and "Clip-6→1" are left out.
export const numbersOf = (t: string): string[] => t.match(/(?<![A-Za-z]-|→)\d+(?:[.,]\d+)*/g) ?? [];
/** A card's text cut into the sentences `WORDS` counts: at a full stop, question or exclamation mark before a capital, a quote or a bracket. */
export const sentencesOf = (t: string): string[] => t.split(/(?<=[.!?])\s+(?=[A-Z"(])/).filter(Boolean);

/** A step text's question (its last sentence asking one), or null for a step that asks none (a recap, the case). */
export const questionOf = (text: string): string | null =>
  sentencesOf(text)
    .filter((x) => x.trim().endsWith('?'))
    .at(-1) ?? null;
/** Nothing to say yet (the figures are still computed, or the action is not done). */
export const SILENT: Reveal = { said: '' };
/** A reveal as one text (the tests' way of reading it whole). */
export const revealText = (r: Reveal): string =>
  [r.takeaway, r.said, r.caveat, ...(r.points ?? []).flatMap((p) => [p.label, ...p.items]), r.more].filter(Boolean).join(' ');

export interface QuizQuestion {
  question: string;
  options: string[];
  correct: number;
  /** Why the right option is right, shown once answered. */
  why: string;
  /** The step to go back to after a wrong answer (its id). */
  revisit: StepId;
}

export interface LessonStep {
  id: StepId;
  title: string;
  region: LessonRegion;
  /** What the step sets on entry (by Next, Back, the step list or a link), said in one line. */
  setup: LessonSetup;
  /** At most five short sentences (`WORDS`), in plain words: no section, figure or table numbers, no undefined symbols. */
  text(w: LessonWorld): string;
  /** Where the idea and the measure come from: the papers' sections, the formula. */
  source: string;
  /** The one thing the learner does to go on. */
  action: string;
  /** The element the step's action starts at (a CSS selector): "take me there" focuses it. */
  target: string;
  /** What of the region to bring into view on entry, when not its top or the target (a CSS selector, centred). */
  show?: string;
  /** The picture the reveal reads, brought into view once the action is done, when it lies outside the action's region (a CSS selector, centred). */
  after?: string;
  done(w: LessonWorld): boolean;
  /** When a reveal shows before the step is done (a first half of a two-part action); by default, once done. */
  shows?(w: LessonWorld): boolean;
  /** Nothing to do but read: done on entry, its reveal read with its text (the card does not scroll to it). */
  reading?: true;
  /**
   * What the live figures say, once the step is done; `base` is the page as the step set it up (its own
   * figures before the learner changed anything), or null while they are computed.
   */
  reveal?(w: LessonWorld, base: LessonWorld | null): Reveal;
  /** An action the card itself runs (a button labelled `label`), when the inspector's way takes too many keys. */
  act?: { label: string; run: LessonAction };
  /**
   * A guess asked before the reveal: its key in `guesses`; the figures stay hidden until it is locked in. In whole
   * per cent, or with `choices` one of them (its index is stored).
   */
  guess?: { key: string; label: string; choices?: readonly string[] };
  quiz?: QuizQuestion[];
}

/**
 * Model A's figures under a policy (the first shown when none is named): the model's, or while it loads
 * the example's stored ones (the model's own, computed offline and pinned by a test to a live pass).
 */
export function figuresOf(w: LessonWorld | null, policy?: string): PolicyResult | null {
  if (!w || (!w.fromModel && !w.fromCache)) return null;
  return w.results.find((r) => !r.slot && (policy === undefined || r.policy === policy)) ?? null;
}
export const twinOf = (w: LessonWorld): PolicyResult | null => (w.fromModel ? (w.results.find((r) => r.slot === 1) ?? null) : null);
/** A figure as the figures panel writes it in the lesson, in per cent (the browser test finds each quoted figure there). */
export const share = (v: number): string => fmtPercent(v);
/** Where the card's figures are on the figures panel, for the fold: 'On the figures panel: "prior assistant" 0.5293.' */
export const onPanel = (...figures: [name: string, value: number][]): string =>
  `On the figures panel: ${figures.map(([n, v]) => `${n} ${share(v)}`).join(', ')}.`;
/** How many times an even spread a token's attention on a set of tokens must be before the lesson says it looks back at them. */
export const LOOKS_BACK = 1.5;
/**
 * How a figure reads against chance, as every step words it: a share that leans (1.5 times or more), a little above
 * (1.05), and a diagonal that copies in order more than chance (1.2).
 */
export const AGAINST_CHANCE = { leans: 1.5, aLittle: 1.05, inOrder: 1.2 } as const;
/** A figure against chance in three words, the order a guess offers them: within a factor of 1.2 either way is "about". */
export const VERSUS_CHANCE = ['less than an even share', 'about an even share', 'more than an even share'] as const;
/** Which of `VERSUS_CHANCE` a figure `k` times chance reads as (its index). */
export const versusChance = (k: number): 0 | 1 | 2 => (k >= AGAINST_CHANCE.inOrder ? 2 : k <= 1 / AGAINST_CHANCE.inOrder ? 0 : 1);
/** A share in whole per cents; one that rounds to 0 but is not 0 reads "under 1 %", so it does not contradict the panel's 0.0015. */
export const percent = (v: number): string => (v > 0 && v < 0.005 ? 'under 1 %' : `${Math.round(v * 100)} %`);
/** A share with a decimal under 1 % (an even share of 3 in 609 is 0.5 %, not "1 %" or "under 1 %"); whole per cents above. */
export const finePercent = (v: number): string => (v > 0 && v < 0.01 ? `${(v * 100).toFixed(1)} %` : percent(v));
/** A figure and its unit on one line: "78 %" never wraps between the two. */
export const unbroken = (text: string): string => text.replace(/(\d) %/g, '$1\u00a0%');
/** A caveat or reading, said as a sentence of its own in a fold: its first letter capital. */
export const capitalised = (text: string): string => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);
/** Only this policy is shown, and its figures are the model's. */
export const only = (w: LessonWorld, policy: string): boolean => w.shown.length === 1 && w.shown[0] === policy && figuresOf(w, policy) !== null;
export const LOADING: Reveal = { said: 'The model is still loading: its figures follow.' };

/**
 * A policy against Full at the step's start, by what the model reads: the tokens before its answer (the
 * behaviour steps come before the attention figures are taught, so none is quoted); null before both are on the page.
 */
export function readAgainstFull(r: PolicyResult, base: LessonWorld | null): Reveal | null {
  const full = figuresOf(base, 'full');
  const read = (x: PolicyResult) => x.cost.find((c) => c.turn === x.turn)?.contextTokens;
  if (!full || read(r) === undefined) return null;
  // Reading more than Full: AO adds a line to the system prompt; another policy's stand-ins outgrow the answers.
  // Said in the fold: an aside, not the step's point.
  // About as many as Full (AO: a placeholder for each answer, a line added to the system prompt): said so, and only
  // that (readers met "about as many" and "more" side by side).
  const same = Math.abs(read(r)! - read(full)!) <= read(full)! * 0.05;
  const longer =
    !same && read(r)! > (read(full) ?? Infinity)
      ? r.policy === 'ao'
        ? `It reads more than under Full: AO adds a ${AO_SYSTEM_PROMPT.split(/\s+/).length}-word line to the system prompt, and the tokenizer splits rare words into many tokens.`
        : 'It reads more than under Full: what it puts in place of the answers is longer than they are.'
      : undefined;
  return {
    said: same
      ? `Under ${r.label} the model reads about as many tokens before answering as under Full (${read(r)} against ${read(full)}${r.policy === 'ao' ? ': AO also adds a note to the system prompt, telling the model its answers are shown as placeholders' : ''}).`
      : `Under ${r.label} the model reads ${read(r)} tokens before answering, against ${read(full)} under Full.`,
    more: longer,
  };
}

/**
 * The share of a category attention spread evenly would give: each answer token's weight shared equally by every
 * token it can see, of which the category's tokens before the answer are a part. The shares step's yardstick.
 */
export function evenShare(r: PolicyResult, category: Category): number {
  return chanceOf(r)[category];
}

/**
 * The diagonal ratio attention spread evenly would give: each answer token's weight shared equally by every
 * token it can see, of which the band's cells are the diagonal. The yardstick the step compares the model with.
 */
export function evenDiagonal(r: PolicyResult): number {
  const rows = evenBandRows(r);
  return rows.length ? rows.reduce((x, v) => x + v, 0) / rows.length : 0;
}

/** Row by row, what attention spread evenly puts in the band: the band's cells over the tokens the row can see. */
export function evenBandRows(r: PolicyResult): number[] {
  return bandCells(r).map((x) => x.cells / x.seen);
}

/** Row by row, the band's cells (over every prior assistant answer) and the tokens the row can see: chance worked out. */
export function bandCells(r: PolicyResult): { cells: number; seen: number }[] {
  const spans = r.diagonalPerAnswer.map((d) => r.messages[d.message]!.content);
  return Array.from({ length: Math.max(0, r.query.end - r.query.start) }, (_, i) => {
    let cells = 0;
    for (const p of spans) cells += Math.max(0, Math.min(p.length - 1, i + r.radius) - Math.max(0, i - r.radius) + 1);
    return { cells, seen: r.query.start + i + 1 };
  });
}

/** Two reveals one after the other (a policy against Full, then its count at the wall). */
export const joined = (a: Reveal, b: Reveal): Reveal => ({
  ...(a.takeaway || b.takeaway ? { takeaway: a.takeaway ?? b.takeaway } : {}),
  said: `${a.said} ${b.said}`.trim(),
  ...(a.caveat || b.caveat ? { caveat: a.caveat ?? b.caveat } : {}),
  more: `${a.more ?? ''} ${b.more ?? ''}`.trim(),
  ...(a.bars || b.bars ? { bars: a.bars ?? b.bars } : {}),
  ...(a.board || b.board ? { board: a.board ?? b.board } : {}),
  ...(a.counts || b.counts ? { counts: a.counts ?? b.counts } : {}),
  ...(a.luck || b.luck ? { luck: [...(a.luck ?? []), ...(b.luck ?? [])] } : {}),
});

/** The earlier turns Clip shows answering turn t, in words ("turns 6 to 9"), or null while it keeps them all. */
export function clipShown(t: number, n: PolicyNumbers): string | null {
  const seen = turnsSeen({ kind: 'clip', h: n.clipAt, l: n.clipTo }, t);
  const kept = seen.flatMap((x, i) => (x === 'whole' ? [i + 1] : []));
  if (kept.length === seen.length) return null;
  return kept.length === 0 ? 'no earlier turn' : kept.length === 1 ? `turn ${kept[0]}` : `turns ${kept[0]} to ${kept.at(-1)}`;
}

/** Clip's row of the table worked out in words for the turn answered: which turns it shows, and why (null while it keeps them all). */
export function clipWorked(t: number, n: PolicyNumbers): string | null {
  const shown = clipShown(t, n);
  if (shown === null) return null;
  return `Answering turn ${t}, Clip-${n.clipAt}→${n.clipTo} shows ${shown}: each time the history reached ${n.clipAt} turns it was cut back to the last ${n.clipTo}, then grew again.`;
}

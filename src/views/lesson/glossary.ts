/**
 * The lesson's words, each said once in plain words: readers asked for one place to look a word up when a step
 * uses it again. The policies' entries come from the policies' own names and gists, so they match the tables.
 */
import { parsePolicy, policyGist, policyLabel, policySpecs } from '../../context/policy';
import { STEP_IDS } from './order';
import { buttonsMet } from './policies-met';
import { TABLE } from './policy-numbers';
import { LUCK_LINE } from './wall-counts';
import { AO_PLACEHOLDER } from '../../context/apply';
import { SINK_TOKENS } from '../../context/render';
import { DEFAULTS } from '../../analysis/analyze';

export interface Entry {
  term: string;
  means: string;
}

const WORDS: Entry[] = [
  { term: 'conversational inertia', means: 'a model leaning on its own prior assistant answers more than the task needs, mistakes included.' },
  { term: 'token', means: 'a word piece: the model reads and writes text as tokens.' },
  { term: 'prior assistant answers', means: 'what the model itself wrote in the earlier turns.' },
  {
    term: 'current answer',
    means:
      "the conversation's last answer, already written and read once more so the page can record where each of its tokens looked; each sees only the words before it (the page calls it the scored answer).",
  },
  { term: 'system prompt', means: 'the instructions at the top of the conversation.' },
  {
    term: 'attention',
    means: 'for each token it writes, how the model shares out its looking over the tokens before it; the shares add up to 100 %.',
  },
  {
    term: 'sink',
    means: `the first ${SINK_TOKENS} tokens: a token's shares must add up to 100 %, so looking with nowhere useful to go is dumped there (large models do so a lot; a small one may not).`,
  },
  { term: 'even share', means: "a part's share of the tokens: what it would get if the model looked at every token equally." },
  { term: 'times an even share', means: 'a share divided by its even share: 1 is no more than even, 2 twice as much.' },
  { term: 'parameters', means: "the model's learned numbers (its weights): the Compare models panel gives each model's count." },
  { term: 'heatmap', means: 'a row per token of the answer, a column per token it can look at; brighter is more attention.' },
  {
    term: 'copy, stripe',
    means:
      'on the heatmap, a copy is one bright cell where a token reads the same word in a prior assistant answer, and copies in order make a slanted line; a stripe is a column every row reads, whatever its word.',
  },
  {
    term: 'diagonal ratio',
    means: `the share of the answer's attention inside the pink band, within ${DEFAULTS.radius} tokens either side of the dotted line where the answer's 10th token meets a prior assistant answer's 10th: copies in order fall there, often a token or two right of the line, where a token reads the word it copies next (a copy shifted further is not counted).`,
  },
  { term: 'layer, head', means: 'the model is a stack of layers; each layer has heads, parts that each choose where to look.' },
  { term: 'most-copying heads', means: 'the heads with the highest diagonal ratio: their attention looks most like copying in step.' },
  { term: 'context policy', means: 'a rule for what the model is shown of the earlier turns before it answers.' },
  {
    term: 'CPL (Context Preference Learning)',
    means: 'training a model to prefer the answer it writes seeing less history over the one it writes seeing all of it.',
  },
  { term: 'CPL twin', means: 'a copy of the model trained so, to prefer the move it makes seeing only the turn before.' },
  { term: 'second twin', means: "a copy trained the same way toward the move it makes with no earlier turn at all (this tool's variant)." },
  { term: 'placeholder', means: `the words put in place of a hidden answer by AO and AO-last ("${AO_PLACEHOLDER}").` },
  {
    term: 'the turn before, the previous answer',
    means: "the turn before is the last earlier turn whole (the user's message and the model's answer); the previous answer is the model's answer in it alone.",
  },
  {
    term: 'swap test',
    means: "this tool's test: the previous answer's move changed to an open way, every other word kept, to see whether the model follows it.",
  },
  {
    term: 'at the walls Full hit, played through',
    means:
      'the counts at a wall answer again, under each policy, the turns the model reached with its whole history (Full); played through, each policy plays whole mazes on its own answers, and reaching the goal is counted.',
  },
  {
    term: 'luck',
    means: `how often coin tosses alone would give a gap this size were the two compared alike; rarer than 1 time in ${LUCK_LINE} counts as more than luck (on the meter, right of the line, in the hatched part).`,
  },
];

/** The policies the lesson's buttons offer by its last step: a word the lesson never uses is not listed. */
const offered = buttonsMet(STEP_IDS.length - 1) ?? (() => true);

/** The words, then each policy the lesson uses by its name and what it keeps. */
export const GLOSSARY: Entry[] = [
  ...WORDS,
  ...policySpecs(TABLE)
    .filter(offered)
    .map((spec) => {
      const p = parsePolicy(spec);
      return { term: policyLabel(p), means: `${policyGist(p)}.` };
    }),
];

import type { QuizQuestion } from './world';

/** The last step's questions, each pointing back at the step that teaches it. */
export const QUIZ: QuizQuestion[] = [
  {
    // The definition applied: what tells inertia apart from a model that only looks a lot at its answers.
    question: 'An agent keeps walking into a wall its user named. Which finding would show that this is conversational inertia?',
    options: [
      'while writing the move it gives most of its attention to its prior assistant answers',
      'it repeats the move more often with its own prior assistant answers in view than with them hidden',
      'it repeats the move just as often when the model is shown no earlier turn at all',
    ],
    correct: 1,
    why: 'Inertia is about what the model does: its own answers in view make it repeat more than the task asks. Where it looks is a clue, not the proof; repeating with no history at all is the task itself, not the history.',
    revisit: 'hide',
  },
  {
    // Reading the heatmap, not recalling a word: what one bright column says.
    question: 'In a heatmap, one column is bright from the top row to the bottom one. What does that say?',
    options: [
      'every token of the answer looks at that one token',
      'that one token looks at every token of the answer',
      'that token is the attention sink, wherever it sits in the conversation',
    ],
    correct: 0,
    why: 'Rows are the tokens of the answer, each looking; columns are the tokens looked at: a column bright all the way down is one token every row looks at. A token never looks at tokens after it, and the sink is the first few tokens only.',
    revisit: 'diagonal',
  },
  {
    // Reading the heatmap: a slanting line is copying in step, what the diagonal ratio adds up.
    question:
      "In the heatmap, over one prior assistant answer's columns, a bright line slants down from the top left along the dotted centre. What does it show?",
    options: [
      'each token of the answer reads the matching token of that prior assistant answer, one after another, as a copyist would',
      'every token of the answer looks at one and the same token of that prior assistant answer',
      "the answer's later tokens look at the prior assistant answer more than its first tokens do",
    ],
    correct: 0,
    why: "Row i is the answer's i-th token and the dotted centre is where it looks at the i-th token of the prior assistant answer: a bright line there is reading in step, which the diagonal ratio adds up (within a few tokens of the centre). One token every row looks at is an upright stripe instead.",
    revisit: 'diagonal',
  },
  {
    // Applying the yardstick, not recalling the definition: a figure is read against what chance gives.
    question:
      'On another conversation the diagonal ratio is 12 %, and chance (looking at every token equally) would put 12 % of the attention in the same band. What does that say?',
    options: [
      'the answer copies its prior assistant answers token for token, 12 % of the time',
      "12 % of the answer's words are copied from its prior assistant answers",
      'the band gets what chance gives it: no sign of copying here',
    ],
    correct: 2,
    why: 'The diagonal is read against chance: at 1.0 times chance, nothing lines up with the prior assistant answers.',
    revisit: 'diagonal',
  },
  {
    // The step's own reading applied to a new figure: a look back shows where, not why.
    question:
      'In another conversation a repeated move gives 30 % of its attention to the earlier tokens of the same move, where chance would give them 5 %. What does that show?',
    options: [
      'that those earlier moves cause the repeat, since the model copies what it looks at',
      'that the move weighed those tokens heavily; whether they made the choice needs a test of what it writes without them',
      'nothing at all, since 30 % is well under half of the attention the move shares out',
    ],
    correct: 1,
    why: 'Attention shows where a token reads, against chance; whether what it read made the choice is tested by what the model writes with and without it.',
    revisit: 'reads',
  },
  {
    // The control read the other way round from what the lesson showed.
    question:
      'On another model, Filler (neutral text of the same length in place of each prior assistant answer) leaves the diagonal ratio as high as under Full. What does that say?',
    options: [
      'the model copies the words of its prior assistant answers line for line',
      'the filler text happens to repeat the words of the answers it replaced',
      'any text of that length would give it the same diagonal: it comes from token positions',
    ],
    correct: 2,
    why: 'Filler keeps the positions and removes the words: a diagonal that stays without the words was never about them. On the demo model it falls, so there it follows the words.',
    revisit: 'filler',
  },
  {
    question: 'Answering turn 10, Window-6 shows the model…',
    options: [
      'turns 1 to 6 whole, and nothing of the turns after them',
      'turns 4 to 9 whole, and nothing of turns 1 to 3',
      'every turn, each of its own answers replaced by a placeholder',
    ],
    correct: 1,
    why: 'Window keeps the last 6 turns before the one it answers and drops the older ones: the rows of the table show it.',
    revisit: 'contexts',
  },
  {
    question:
      'With its whole history the agent repeats the move into the wall more often than with no earlier turn at all. Which policy tells whether its own answers cause the extra repeats?',
    options: [
      "AO, where the user's turns stay and the model's own answers are replaced",
      "DE, which drops every earlier turn, the user's and the model's alike",
      'Window-6, which keeps the last 6 turns whole and drops the older ones',
    ],
    correct: 0,
    why: 'DE drops the user turns too, so it cannot tell which part of the history pulls; AO changes only what the model itself wrote.',
    revisit: 'hide',
  },
  {
    // The control applied to new counts: the learner reads AO against DE, as the lesson did.
    question:
      'Another model repeats a wrong move in 70 % of turns with its whole history, in 40 % with none (DE) and in 68 % with only its own answers hidden (AO). What brings the extra repeats?',
    options: [
      'its own prior assistant answers, which AO hides',
      "the user's turns, which AO keeps and DE drops",
      'nothing in the history: the move is the same either way',
    ],
    correct: 1,
    why: "Hiding its own answers barely changes the count (68 %), while dropping the user's turns too brings it down (40 %): here the pull is in what the user said.",
    revisit: 'hide',
  },
  {
    // The rate at the wall on the lesson's own basis: among the answers that make a move, worked out by the learner.
    question:
      'Under another policy 30 % of the answers at a wall make no move at all, and 40 % of all those turns walk back into the wall. Counted as the lesson counts, among the answers that make a move, how often does it repeat the blocked move?',
    options: ['40 %: the share of all the turns', 'about 57 %: 40 of every 70 moves made', '70 %: the share of the answers that make a move'],
    correct: 1,
    why: 'The lesson counts repeats among the moves made, so that an answer with no move does not pass for a wall avoided: 40 of the 70 turns in every 100 that make a move is about 57 %.',
    revisit: 'hide',
  },
  {
    // The mean over heads, read: a strong head hides in an average.
    question: "One head of the last layer puts 40 % of the answer's attention on the diagonal; the layer's figure is 20 %. How can both be true?",
    options: [
      "the layer's figure is that of the head that copies least, the layer's floor",
      'the two figures measure two different answers of the conversation',
      'the heads differ, and the layer figure averages one strong copier with weaker ones',
    ],
    correct: 2,
    why: "The figures so far are the average over the last layer's heads; the grid gives each head its own, so copying that sits in a few heads stands out there.",
    revisit: 'head',
  },
  {
    // The control read: a change that any heads bring is not the top-diagonal heads' doing.
    question:
      'With its three top-diagonal heads switched off the agent stops walking into the wall; with three other heads switched off instead, it stops too. What does that say?',
    options: [
      'the top-diagonal heads carry the pull toward the repeated move, since switching them off stopped it',
      'the model reads the walls the user names with those six heads only, so either set stops the move',
      'switching off any three heads changes the move here: nothing singles out the top-diagonal heads',
    ],
    correct: 2,
    why: 'The control heads are there for this: only a move that changes without the top-diagonal heads, and not without the others, points at them.',
    revisit: 'heads',
  },
  {
    // What CPL changes: the model, not what it is shown.
    question: 'The CPL twin reads the same whole history as the demo model. What makes it lean less on its prior assistant answers?',
    options: [
      'its weights, changed by training on pairs of its own answers; what it reads is unchanged',
      'a context policy that shows it fewer turns, as LT does, so its older answers are never read',
      'a filter that blanks the words of its prior assistant answers before it reads them, as Filler does',
    ],
    correct: 0,
    why: 'CPL changes the model, not its context: shown two answers of its own, one written seeing only the turn before and one from the whole history, it was trained to prefer the first, and it still reads everything.',
    revisit: 'cpl',
  },
];

/** The score in words, and the steps to revisit for the questions answered wrongly. */
export function quizScore(answers: Record<string, number>, questions: QuizQuestion[] = QUIZ): { right: number; answered: number; revisit: string[] } {
  const answered = questions.filter((_, i) => answers[i] !== undefined);
  const wrong = questions.filter((q, i) => answers[i] !== undefined && answers[i] !== q.correct);
  return { right: answered.length - wrong.length, answered: answered.length, revisit: [...new Set(wrong.map((q) => q.revisit))] };
}

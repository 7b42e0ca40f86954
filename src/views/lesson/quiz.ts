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
      'that token copies the answer line for line, from its first token to its last',
      'that token is the attention sink, wherever it sits in the conversation',
    ],
    correct: 0,
    why: 'Rows are the tokens of the answer and columns the tokens they look at: a column bright all the way down is one token every row looks at. A copy shows as a slanting line instead, and the sink is the first few tokens only.',
    revisit: 'sink',
  },
  {
    question: 'The diagonal ratio adds up the attention that token i of the answer gives to…',
    options: [
      'tokens near position i of each prior assistant answer',
      'every token of each prior assistant answer, wherever it sits in that answer',
      "tokens near position i of each of the user's turns",
    ],
    correct: 0,
    why: 'It counts the attention within a few tokens of the same position in every prior assistant answer.',
    revisit: 'diagonal',
  },
  {
    // Applying the yardstick, not recalling the definition: a figure is read against what chance gives.
    question:
      'On another conversation the diagonal ratio is 12 %, and looking at every token equally would put 12 % of the attention in the same band. What does that say?',
    options: [
      'the answer copies its prior assistant answers token for token, 12 % of the time',
      "12 % of the answer's words are copied from its prior assistant answers",
      'the band gets what chance gives it: no sign of copying here',
    ],
    correct: 2,
    why: 'The diagonal is read against chance: at 1.0 times what an even spread gives, nothing lines up with the prior assistant answers.',
    revisit: 'diagonal',
  },
  {
    // The step's own reading applied to a new figure: a look back shows where, not why.
    question:
      'In another conversation a repeated move gives 30 % of its attention to the earlier tokens of the same move, where an even spread would give them 5 %. What does that show?',
    options: [
      'that those earlier moves cause the repeat, since the model copies what it looks at',
      'where the move looks, not why the model chose it',
      'nothing, since 30 % is less than half of its attention',
    ],
    correct: 1,
    why: 'Attention shows where a token reads, against what an even spread would give; whether what it read made the choice is tested by what the model writes with and without it.',
    revisit: 'reads',
  },
  {
    question: 'Filler replaces the prior assistant answers with neutral text of the same length. If the diagonal falls, the model was following…',
    options: [
      'the positions of the tokens only, whatever those tokens say',
      'the instructions written at the top, in the system prompt',
      'the words of its prior assistant answers',
    ],
    correct: 2,
    why: 'Positions are the same under Filler; only the words changed, so the diagonal was read from the words.',
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
      'AO, which keeps every user turn and hides only its own answers',
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
    // The mean over heads, read: a strong head hides in an average.
    question: "One head of the last layer puts 40 % of the answer's attention on the diagonal; the layer's figure is 20 %. How can both be true?",
    options: [
      "the layer's figure is that of the head that copies least, the layer's floor",
      'the two figures measure two different answers of the conversation',
      "the layer's figure is the mean over its heads: one copies strongly, others hardly at all",
    ],
    correct: 2,
    why: "The figures so far are the average over the last layer's heads; the grid gives each head its own, so copying that sits in a few heads stands out there.",
    revisit: 'head',
  },
  {
    question: 'Switching off the heads with the highest diagonal ratio, and then three others as a control, tests…',
    options: [
      'whether the model needs those heads to read the walls the user names',
      'whether the model can still read the user turns once they are gone',
      'whether those heads carry the pull that shapes the move',
    ],
    correct: 2,
    why: 'If the move changes without them more often than without the control heads, they carried part of it; a garbled answer can also mean the model simply misses parts.',
    revisit: 'heads',
  },
  {
    question: 'How was the CPL twin trained?',
    options: [
      'shown two answers of its own, one from a short context and one from the whole history, it learned to prefer the short one',
      'on mazes with its prior assistant answers cut out, and it reads them cut out whenever it is used',
      'to copy its prior assistant answers more faithfully, so that its answers stay the same turn after turn',
    ],
    correct: 0,
    why: 'Context Preference Learning teaches the model to prefer its short-context answer, so it leans less on its prior assistant answers; it still reads the whole history when used.',
    revisit: 'cpl',
  },
];

/** The score in words, and the steps to revisit for the questions answered wrongly. */
export function quizScore(answers: Record<string, number>, questions: QuizQuestion[] = QUIZ): { right: number; answered: number; revisit: string[] } {
  const answered = questions.filter((_, i) => answers[i] !== undefined);
  const wrong = questions.filter((q, i) => answers[i] !== undefined && answers[i] !== q.correct);
  return { right: answered.length - wrong.length, answered: answered.length, revisit: [...new Set(wrong.map((q) => q.revisit))] };
}

import type { QuizQuestion } from './world';

/** The last step's questions, each pointing back at the step that teaches it. */
export const QUIZ: QuizQuestion[] = [
  {
    question: 'Conversational inertia is…',
    options: [
      'the model leaning on its own prior assistant answers more than the task asks, even repeating a move that no longer fits',
      'the model giving most of its attention to its prior assistant answers, whatever it then writes',
      'attention that is spread evenly over every token, so that no turn counts more than another',
    ],
    correct: 0,
    why: 'It is about what the model does (the move repeated into a wall); where it looks, a large share on its prior assistant answers or the diagonal, is a clue to the copying, wanted or not, not inertia itself.',
    revisit: 'case',
  },
  {
    // Reading the heatmap, not recalling a word: what one bright column says.
    question: 'In a heatmap, one column is bright from the top row to the bottom one. What does that say?',
    options: ['every token of the answer looks at that one token', 'that token copies the answer line for line', 'that token gets no attention at all'],
    correct: 0,
    why: 'Rows are the tokens of the answer and columns the tokens they look at: a column bright all the way down is one token every row looks at. A copy shows as a slanting line instead.',
    revisit: 'sink',
  },
  {
    question: 'The diagonal ratio adds up the attention that token i of the answer gives to…',
    options: [
      'every token of each prior assistant answer, wherever it sits',
      'tokens near position i of each prior assistant answer',
      'tokens near position i of each of the user turns',
    ],
    correct: 1,
    why: 'It counts the attention within a few tokens of the same position in every prior assistant answer.',
    revisit: 'diagonal',
  },
  {
    // Applying the yardstick, not recalling the definition: a figure is read against what chance gives.
    question:
      'On another conversation the diagonal ratio is 12 %, and looking at every token equally would put 12 % of the attention in the same band. What does that say?',
    options: [
      'the answer copies its prior assistant answers token for token',
      'the band gets what chance gives it: no sign of copying here',
      "12 % of the answer's words are copied from its prior assistant answers",
    ],
    correct: 1,
    why: 'The diagonal is read against chance: at 1.0 times what an even spread gives, nothing lines up with the prior assistant answers.',
    revisit: 'diagonal',
  },
  {
    question: 'Filler replaces the prior assistant answers with neutral text of the same length. If the diagonal falls, the model was following…',
    options: ['what the prior assistant answers say', 'the positions of the tokens only, whatever they say', 'the instructions written in the system prompt'],
    correct: 0,
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
      "DE, which drops every earlier turn, the user's and the model's alike",
      'AO, which keeps every user turn and hides only its own answers',
      'Window-6, which keeps the last 6 turns whole and drops the older ones',
    ],
    correct: 1,
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
      "the layer's figure is the mean over its heads: one copies strongly, others hardly at all",
      "the layer's figure is that of its one head that copies most",
      'the two measure different answers of the conversation',
    ],
    correct: 0,
    why: "The figures so far are the average over the last layer's heads; the grid gives each head its own, so copying that sits in a few heads stands out there.",
    revisit: 'head',
  },
  {
    question: 'Switching off the heads with the highest diagonal ratio tests…',
    options: [
      'whether those heads carry the pull that shapes the move',
      'whether the model needs those heads to read the walls the user names',
      'whether the model can still read the user turns once they are gone',
    ],
    correct: 0,
    why: 'If the move changes without them but not without the heads that copy least, they carried part of it; a garbled answer can also mean the model simply misses parts.',
    revisit: 'heads',
  },
  {
    question: 'The CPL-tuned twin was trained to…',
    options: [
      'prefer the answer it gives from a short context over the one from the whole history',
      'copy its prior assistant answers more faithfully',
      'read every context with its prior assistant answers cut out, in training and whenever it is used later',
    ],
    correct: 0,
    why: 'Context Preference Learning teaches the model to prefer its short-context answer, so it leans less on its prior assistant answers.',
    revisit: 'cpl',
  },
];

/** The score in words, and the steps to revisit for the questions answered wrongly. */
export function quizScore(answers: Record<string, number>, questions: QuizQuestion[] = QUIZ): { right: number; answered: number; revisit: string[] } {
  const answered = questions.filter((_, i) => answers[i] !== undefined);
  const wrong = questions.filter((q, i) => answers[i] !== undefined && answers[i] !== q.correct);
  return { right: answered.length - wrong.length, answered: answered.length, revisit: [...new Set(wrong.map((q) => q.revisit))] };
}

import type { QuizQuestion } from './world';

/** The last step's questions, each pointing back at the step that teaches it. */
export const QUIZ: QuizQuestion[] = [
  {
    question: 'Conversational inertia is…',
    options: [
      'the model leaning on its own prior assistant answers and repeating their shape',
      'the model forgetting the system prompt',
      'attention that is spread evenly over every token',
    ],
    correct: 0,
    why: 'The answer leans on the answers before it, token by token: the diagonal lines in the heatmap.',
    revisit: 'case',
  },
  {
    question: 'The diagonal ratio adds up the attention that token i of the answer gives to…',
    options: ['the first tokens of the conversation', 'tokens near position i of each prior assistant answer', 'the user turns'],
    correct: 1,
    why: 'It counts the attention within a few tokens of the same position in every prior assistant answer.',
    revisit: 'diagonal',
  },
  {
    question: 'Filler replaces the prior assistant answers with neutral text of the same length. If the diagonal falls, the model was following…',
    options: ['the position of the tokens only', 'what the prior assistant answers say'],
    correct: 1,
    why: 'Positions are the same under Filler; only the words changed, so the diagonal was read from the words.',
    revisit: 'filler',
  },
  {
    question: 'AO (assistant-omitted) shows the model…',
    options: ['nothing from earlier turns', 'every user turn, with a placeholder in place of each of its own answers', 'the last turn only'],
    correct: 1,
    why: 'AO keeps what the user said and hides what the model said: there is no prior assistant answer left to copy.',
    revisit: 'hide',
  },
];

/** The score in words, and the steps to revisit for the questions answered wrongly. */
export function quizScore(answers: Record<string, number>, questions: QuizQuestion[] = QUIZ): { right: number; answered: number; revisit: string[] } {
  const answered = questions.filter((_, i) => answers[i] !== undefined);
  const wrong = questions.filter((q, i) => answers[i] !== undefined && answers[i] !== q.correct);
  return { right: answered.length - wrong.length, answered: answered.length, revisit: [...new Set(wrong.map((q) => q.revisit))] };
}

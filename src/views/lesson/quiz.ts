import type { QuizQuestion } from './world';

/** The last step's questions, each pointing back at the step that teaches it. */
export const QUIZ: QuizQuestion[] = [
  {
    // The definition applied: what tells inertia apart from a model that only looks a lot at its answers.
    question: 'An agent keeps walking into a wall its user named. Which finding would show that this is conversational inertia?',
    options: [
      'while writing the move it gives most of its attention to its prior assistant answers, a sign, if not proof, that it leans on them',
      'it repeats the move more often with its own prior assistant answers in view than with them hidden',
      // A believable slip: the raw rate, with no baseline to read it against (readers found the old option absurd).
      'it walks into the wall again at most of the turns right after hitting it, though the user names that wall each time',
    ],
    correct: 1,
    why: 'Inertia is about what the model does: its own answers in view make it repeat more than the task needs. Where it looks is a clue, not the proof; a high rate alone says nothing until it is read against the rate with no history.',
    revisit: 'hide',
  },
  {
    // The baseline: why every rate is read against DE's, not against none (readers asked what the 48 % is).
    question:
      'In the lesson the demo model, shown no earlier turn at all (DE), still walked back into the wall in about half of its moves. Why is every other rate read against that, not against zero?',
    options: [
      "because even with no history something leads it there: only the part above is the history's pull",
      'because DE is the model at its best, and every other policy is judged by how far it falls short of that',
      'because DE still shows the model its older answers, so it repeats some of them',
    ],
    correct: 0,
    why: "DE shows only the instructions and the last message, so whatever it repeats does not come from the history; what the whole history adds above it is the history's pull.",
    revisit: 'generate',
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
    why: 'DE drops the user turns too, so it cannot tell which part of the history pulls; AO changes only what the model itself wrote (its placeholders confuse the model too, so the lesson then hides one answer, with a control).',
    revisit: 'hide',
  },
  {
    // The lesson's own control, recalled: what hiding the answer two turns back rules out.
    question:
      'In the lesson, hiding only its previous answer (AO-last) brought the repeats at a wall down near DE, while hiding the answer two turns back did not. What does that second result rule out?',
    options: [
      'that its previous answer carries the pull: the older answer held it all along',
      'that the placeholder alone, wherever it stands, takes the repeats away',
      "that the user's turns, which name the walls, carry the pull",
    ],
    correct: 1,
    why: 'The same placeholder one answer further back left the repeats as they were: a placeholder as such does not take them away, so the drop under AO-last goes with that one answer.',
    revisit: 'hide-last',
  },
  {
    // The hiding steps' caveat on new counts: a drop in repeats that comes with more moves into other walls.
    question:
      'With only its previous answer hidden, another model repeats the blocked move in 45 % of its moves, against 80 % with it; but now 35 % of its moves hit another wall, against 10 % before. What follows?',
    options: [
      'the previous answer probably held most of the pull, though a second maze would help: hiding it cures most repeats',
      'the repeats drop, but part of the drop may be confusion: it hits other walls instead',
      'nothing at all: a model confused by the placeholder tells us nothing',
    ],
    correct: 1,
    why: 'Hiding an answer takes words away the model was trained to see: more moves into other walls say it is confused, so not all of the drop is the pull removed. The control (the same placeholder on an older answer) tells how much; a cure would show as more open ways.',
    revisit: 'hide-last',
  },
  {
    // The played-through mazes: a drop in repeats at Full's turns is not a solved task.
    question:
      'Played through whole mazes on its own answers, the model reached the goal about as often with no history as with its whole history, though at the turns Full reached it repeated a blocked move far less with no history. What does that tell?',
    options: [
      "that the history had no pull after all, and the gap counted at Full's own turns was only luck",
      'that fewer repeats into one wall is not a solved maze: other habits can still fail it',
      'that no history is the best policy, since it reaches the goal as often with far less text',
    ],
    correct: 1,
    why: "At the walls Full hit, the history's pull was more than luck. Played through with no history, nothing told the model which way it had just tried, and its own lean sent it into walls again: taking a pull away frees a move, not the task.",
    revisit: 'played',
  },
  {
    // The drop-turns step's reading applied to new counts: LT near DE puts the pull in the older turns.
    question:
      'Another model repeats a wrong move in 80 % of its moves with its whole history, 50 % with none (DE) and 52 % with only the turn before (LT). Where is the extra pull?',
    options: [
      'in the turn before: LT keeps it, and under LT it still repeats',
      'probably in older turns, though more mazes would tell: with the turn before alone it repeats about as with none',
      'in the last user message, which every policy keeps',
    ],
    correct: 1,
    why: 'With only the turn before, it repeats about as rarely as with no history (52 % against 50 %): the turn before brings back almost none of the extra 30 points, so they come from the turns LT drops; the last message, which DE keeps too, brings none of them.',
    revisit: 'contexts',
  },
  {
    // The step's own reading applied to a new figure: a look back shows where, not why.
    question:
      'In another conversation a repeated move gives 30 % of its attention to the earlier tokens of the same move, where an even share would be 5 %. What does that show?',
    options: [
      'that those earlier moves cause the repeat, since the model copies what it looks at',
      'that the move weighed those tokens heavily; whether they made the choice needs a test of what it writes without them',
      'probably little, though it is a hint: 30 % is well under half of the attention the move shares out, so the earlier moves weigh little',
    ],
    correct: 1,
    why: 'Attention shows where a token reads, against an even share; whether what it read made the choice is tested by what the model writes with and without it.',
    revisit: 'shares',
  },
  {
    // The sink, met on the shares step: bright, yet not what the answer leans on.
    question:
      "In a large chat model, the heatmap's first column (the conversation's first token) is bright in almost every row, though that token says nothing about the task. What is it most likely?",
    options: [
      'a copy: every row of the answer writes again the first word of the conversation',
      'probably the instructions, which every token must read to answer, though a test would tell',
      'the sink: where the model parks attention it has no use for, which says little about what it leans on',
    ],
    correct: 2,
    why: "A token's shares must add up to 100 %, and large models park what they do not need on the first tokens: the sink. Its brightness says little about which words the answer leans on, so the shares count it apart.",
    revisit: 'shares',
  },
  {
    // Copy against stripe, as the heatmap step tells them apart.
    question: 'On the heatmap, one token of a prior assistant answer is bright in every row of the new answer, whatever word the row itself is. What is it?',
    options: [
      'a stripe: a token every row reads, not a copy of any one word',
      'a copy in order: each row reads the word at its own place in that answer',
      'most likely a copy of that word, made again at every row, though a test would tell',
    ],
    correct: 0,
    why: 'A copy is one bright cell, a token reading the same word; copies in order make a slanted line. A column bright in every row, whatever the row says, is a stripe.',
    revisit: 'heatmap',
  },
  {
    // The band's edge applied: a copy shifted further than r is missed, so a low ratio does not rule copying out.
    question:
      'On another conversation a bright line slants down parallel to the dotted centre, but 8 tokens to its right. The band reaches 5 tokens either side of the centre. What does the diagonal ratio make of that line?',
    options: [
      'it misses the line: the copy runs outside the band, so the ratio can stay near its even share',
      'it counts the line in full: it runs at the same slope as the dotted centre',
      'it counts the line twice, since a line off the centre falls on two prior assistant answers',
    ],
    correct: 0,
    why: 'The band counts only the attention within 5 tokens of the dotted centre. A copy shifted further (after a longer opening, say) falls outside it: a low ratio does not rule out copying, so look at the heatmap too.',
    revisit: 'diagonal',
  },
  {
    // Applying the yardstick, not recalling the definition: a figure is read against what chance gives.
    question:
      'On another conversation the diagonal ratio is 12 %, and an even share (looking at every token equally) would put 12 % of the attention in the same band. What does that say?',
    options: [
      'probably some copying, though a test would help: 12 % of the attention in the band is a sizeable share',
      "12 % of the answer's words are copied",
      'the band gets just its even share: no sign of copying here',
    ],
    correct: 2,
    why: 'The diagonal is read against an even share: at 1.0 times it, nothing lines up with the prior assistant answers.',
    revisit: 'diagonal',
  },
  {
    // The control read the other way round from what the lesson showed.
    question:
      'On another model, Filler (unrelated filler words of the same length in place of each prior assistant answer) leaves the diagonal ratio as high as under Full. What does that say?',
    options: [
      'the model copies the words of its prior assistant answers line for line',
      'the model copies its answers so strongly that filler cannot stop it',
      'it comes from where the tokens sit, not from what they say',
    ],
    correct: 2,
    why: 'Filler keeps the positions and removes the words: a diagonal that stays without the words was never about them. On the demo model it falls, so there it needs the words.',
    revisit: 'filler',
  },
  {
    // The control read: a change that any heads bring is not the most-copying heads' doing.
    question:
      'With its three most-copying heads switched off the agent stops walking into the wall; with three other heads switched off instead, it stops too. What does that say?',
    options: [
      'most likely the most-copying heads carry the pull, though the other three may carry some of it too',
      'the model reads the walls the user names with those six heads only, so either set stops the move',
      'switching off any three heads changes the move here: nothing singles out the most-copying heads',
    ],
    correct: 2,
    why: 'The control heads are there for this: only a move that changes without the most-copying heads, and not without the others, points at them.',
    revisit: 'heads',
  },
  {
    // What CPL changes: the model, not what it is shown.
    question: 'The CPL twin reads the same whole history as the demo model. What did its CPL training change?',
    options: [
      'the model itself, retrained to prefer the move it made with only the turn before; what it reads is unchanged',
      'the context it is shown: fewer turns, as under LT, so its older answers are never read',
      'the words of its prior assistant answers, blanked by a filter before it reads them, as under Filler',
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

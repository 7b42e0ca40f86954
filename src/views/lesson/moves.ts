/**
 * Reading a maze answer and the turn it replies to: the move, the walls the user message names, and what
 * two answers written under two policies say together (the generation step's reveal). Plain functions.
 */
import { parsePolicy, policyLabel } from '../../context/policy';
import { type OffAnswers, SILENT, type Reveal } from './world';

/** The moves of the maze. */
export const MOVES = ['north', 'south', 'east', 'west'] as const;
/** Whether a token's text is one of the maze's moves. */
export const isMove = (text: string): boolean => (MOVES as readonly string[]).includes(text.trim().toLowerCase());
/** A maze answer's move ("Move: north"; the demo model also writes "Action -> east"), or null. */
export const moveOf = (answer: string): string | null => /(?:Move|Action)\s*(?::|->)\s*(\w+)/i.exec(answer)?.[1]?.toLowerCase() ?? null;
/** The walls a maze observation names ("Walls: east, west." → ['east', 'west']; "Walls: none." → []), or null. */
export function wallsIn(observation: string): string[] | null {
  const list = /Walls:\s*([a-z, ]+)\./.exec(observation)?.[1]?.trim();
  if (list === undefined) return null;
  return list === 'none' ? [] : list.split(/\s*,\s*/);
}
/** The moves that bring the agent nearer the goal, from a maze observation ("Position (3,3). … Goal: (3,4)." → ['south']), or null. */
export function towardGoal(observation: string): string[] | null {
  const m = /Position \((\d+),(\d+)\).*Goal: \((\d+),(\d+)\)/s.exec(observation);
  if (!m) return null;
  const [x, y, gx, gy] = m.slice(1).map(Number) as [number, number, number, number];
  // South is +y in the maze's coordinates (cell = 6y + x + 1 counts rows downwards).
  return [gy > y && 'south', gy < y && 'north', gx > x && 'east', gx < x && 'west'].filter((d): d is string => d !== false);
}
/** Where a move leads, told from the walls the turn's user message names, or null when it cannot be told. */
export function whereTo(move: string | null, walls: string[] | null): 'stay' | 'wall' | 'open' | null {
  if (move === null || walls === null) return null;
  return move === 'stay' ? 'stay' : walls.includes(move) ? 'wall' : 'open';
}
const OPPOSITE: Record<string, string> = { north: 'south', south: 'north', east: 'west', west: 'east' };
/**
 * Where an open move leads against the goal: toward it, away from it, around the wall (sideways, when every move
 * toward the goal is blocked) or aside (sideways while a way toward it is open); null when the goal is not told.
 */
export function goalward(move: string, walls: string[], toGoal: string[] | null): 'toward' | 'away' | 'around' | 'aside' | null {
  if (!toGoal?.length) return null;
  if (toGoal.includes(move)) return 'toward';
  if (toGoal.includes(OPPOSITE[move] ?? '')) return 'away';
  return toGoal.every((d) => walls.includes(d)) ? 'around' : 'aside';
}
/** An answer's move that leaves the wall without heading for the goal (away or aside), or null: the "plays no better" check. */
export function offGoal(answer: string, walls: string[] | null, toGoal: string[] | null): 'away' | 'aside' | null {
  const m = moveOf(answer);
  const g = m !== null && walls !== null && whereTo(m, walls) === 'open' ? goalward(m, walls, toGoal) : null;
  return g === 'away' || g === 'aside' ? g : null;
}
const GOALWARD = { toward: ', toward the goal', away: ', but away from the goal', around: ', around the wall', aside: ', but not toward the goal' };
/**
 * What a model does with an answer's move, told from the walls the last user message names and the moves that
 * lead toward its goal: "moves south, into a wall", "moves north, an open way, but away from the goal".
 */
export function moveClause(answer: string, walls: string[] | null, toGoal: string[] | null = null): string {
  const m = moveOf(answer);
  if (m === null) return 'writes no move';
  const where = whereTo(m, walls);
  if (where === 'stay') return 'stays where it is';
  if (where === null) return `moves ${m}`;
  const g = where === 'open' ? goalward(m, walls!, toGoal) : null;
  return `moves ${m}, ${where === 'wall' ? 'into a wall' : `an open way${g ? GOALWARD[g] : ''}`}`;
}
/** What each outcome of two moves told against the walls says, in the words of the step that compares them. */
export interface MovesSay {
  same: string;
  /** The first into a wall, the second an open way. */
  secondEscapes: string;
  secondWalls: string;
  bothWalls: string;
  bothOpen: string;
}
/** Two answers' moves together: the same, one into a wall and one open, or both alike; compared as answers when the moves cannot be told. */
export function compareMoves(first: string, second: string, walls: string[] | null, say: MovesSay): string {
  const [a, b] = [moveOf(first), moveOf(second)];
  if (a === null || b === null || walls === null) return `Together: ${answersDiffer(first, second)}.`;
  if (a === b) return say.same;
  const [x, y] = [whereTo(a, walls), whereTo(b, walls)];
  if (x === 'stay' || y === 'stay') return `Together: ${answersDiffer(first, second)}.`;
  if (x !== y) return x === 'wall' ? say.secondEscapes : say.secondWalls;
  return x === 'wall' ? say.bothWalls : say.bothOpen;
}
/** What the move written with the whole conversation and the one written with less of it say together. */
export function whatChanged(full: string, less: string, walls: string[] | null): string {
  return compareMoves(full, less, walls, {
    same: 'The same move both ways: here the earlier turns do not change what the model does.',
    secondEscapes: 'The history changes what the model does.',
    secondWalls: 'Here the whole conversation helped: with less of it the model walks into a wall.',
    bothWalls: 'Both moves run into walls: this tiny model is lost either way.',
    bothOpen: 'Both moves are open ways: the history changed the move, not whether it works.',
  });
}
/** How two answers differ, in plain words (the maze's move is its last line). */
export function answersDiffer(a: string, b: string): string {
  if (a === b) return 'the same answer';
  if (moveOf(a) !== null && moveOf(b) === null) return 'a different answer, with no move in it';
  const m = moveOf(a);
  return m !== null && m === moveOf(b) ? `a different answer, the same move (${m})` : 'a different answer and a different move';
}

/**
 * The generation step's reveal: what each answer's move does against the walls and what the two say together
 * (said); the walls as the user message gives them and the answers themselves (more), so each can be checked.
 */
export function generationReveal(generated: Record<string, string>, walls: string[] | null, toGoal: string[] | null = null): Reveal {
  const written = Object.entries(generated);
  if (!written.length) return SILENT;
  const label = (p: string) => policyLabel(parsePolicy(p));
  // The card says where each move leads; the answers themselves are folded, to be checked.
  const under = ([p, text]: [string, string], who = 'the model') => `under ${label(p)} ${who} ${moveClause(text, walls, toGoal)}`;
  const told = walls === null ? '' : `The last user message names ${walls.length ? `the walls: ${walls.join(', ')}` : 'no walls'}. `;
  // With no earlier turn the model cannot know the cells it visited: its list is a guess, not a slip worth a puzzle.
  const guessed = generated.de !== undefined ? ' Under DE it sees no earlier turn, so its list of cells visited is a guess.' : '';
  const more = `${told}${written.map(([p, text]) => `Under ${label(p)} it wrote: "${text}".`).join(' ')}${guessed}`;
  const first = written[0]!;
  if (written.length < 2) return { said: `U${under(first).slice(1)}. Click DE (no earlier turn) and generate again to see whether the move changes.`, more };
  // Full's answer first, whichever was written first: the verdict reads the whole conversation against less of it.
  const full = written.find(([p]) => p === 'full');
  const other = written.filter(([p]) => p !== 'full').at(-1);
  const [a, b] = full && other ? [full, other] : [first, written.at(-1)!];
  const verdict = full && other ? whatChanged(a[1], b[1], walls) : `Together: ${answersDiffer(a[1], b[1])}.`;
  return { said: `U${under(a).slice(1)}; ${under(b, 'it')}. ${verdict}`, more };
}

/**
 * How many words an answer repeats from the start of another before the first that differs, punctuation aside
 * ("Path: 8 9 10" against "Path: 8 9 15." → 3: Path, 8, 9).
 */
export function wordsCopied(answer: string, from: string): number {
  const [a, b] = [answer.match(/\w+/g) ?? [], from.match(/\w+/g) ?? []];
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * Whether an answer's list of cells (a maze answer's first line, where it has more) comes out other than with every
 * head on: a run of one cell, say. Said beside it, so a garbled list is not left a puzzle.
 */
export function listWrong(x: string, withAll: string): boolean {
  const list = (t: string) => (t.includes('\n') ? t.split('\n')[0] : null);
  return list(x) !== null && list(withAll) !== null && list(x) !== list(withAll);
}

/**
 * The heads step's reveal: where the move leads with every head on, with the last layer's heads that follow the
 * diagonal most switched off, and as a control with those that follow it least off; what that says (said); and how
 * much of the previous answer's list each answer copies (more).
 */
export function headsOffReveal(
  a: OffAnswers,
  previous: string | null,
  walls: string[] | null = null,
  toGoal: string[] | null = null,
  // With the count over many turns beside it on the card: this one answer's reading goes to the fold.
  readingInFold = false,
): Reveal {
  const c = a.control;
  // "moves" once: the three answers in one sentence.
  const then = (x: string) => moveClause(x, walls, toGoal).replace(/^moves /, '');
  // The heads by name are in the panel and the fold: the card says where each move leads.
  // A list of cells garbled by the most-copying heads alone: they copy the list (the diagonal step's finding), said where seen.
  // Both sets garbling it: said too, so a long run of one cell is not read as the copying heads' doing alone.
  const [topWrong, controlWrong] = [listWrong(a.withOff, a.withAll), !!c && listWrong(c.withOff, a.withAll)];
  const garbled = topWrong && !controlWrong ? ', and its list of cells comes out different' : '';
  // The first sentence is what the card shows unfolded: the two answers the step is about, side by side.
  const moves = `With every head on the model ${moveClause(a.withAll, walls, toGoal)}; with the most-copying heads off, ${then(a.withOff)}${garbled}.${
    c ? ` With the lowest off, ${then(c.withOff)}${topWrong && controlWrong ? '; both change its list of cells' : ''}.` : ''
  }`;
  const named = `Switched off (named by layer and head, each counted from 0, so L1·H0 is the last layer's 1st head): ${a.off.join(', ')} (most copying: highest diagonal ratio)${c ? `; ${c.off.join(', ')} (lowest)` : ''}, in the last layer.`;
  const copied =
    previous === null
      ? ''
      : ` Each begins with the list of cells visited, copied from the previous answer (copying the task asks for). ${copiedAlike(
          [wordsCopied(a.withAll, previous), wordsCopied(a.withOff, previous), ...(c ? [wordsCopied(c.withOff, previous)] : [])],
          topWrong || controlWrong,
        )}`;
  const grid = ' In the grid, × marks a head switched off.';
  const reading = offMeaning(a, walls);
  return {
    said: readingInFold ? moves : `${moves} ${reading}`,
    more: `${readingInFold ? `On this answer: ${reading[0]!.toLowerCase()}${reading.slice(1)} ` : ''}${named}${grid} The answers are side by side under the button.${copied}`,
  };
}

/** What the moves with heads off say: whether the most-copying heads carry the repeated move, against the control. */
function offMeaning(a: OffAnswers, walls: string[] | null): string {
  const [on, off] = [moveOf(a.withAll), moveOf(a.withOff)];
  const control = a.control && moveOf(a.control.withOff);
  if (off === null && on !== null)
    return 'Without those heads the answer falls apart (it no longer ends in a move): switching them off breaks the model and says nothing about inertia.';
  if (off === on) return 'The move does not hang on those heads alone.';
  const escapes = whereTo(on, walls) === 'wall' && whereTo(off, walls) === 'open';
  if (control === undefined)
    return escapes
      ? 'Without those heads it takes an open way, though a model missing parts may also just write differently.'
      : 'Without those heads the move changes.';
  if (control !== on)
    return 'The others off change the move too: in a model this small any three heads matter, so this does not single out the most-copying heads.';
  // A list of cells gone wrong shows in the answers on the card: said, so it is not left a puzzle. Without the
  // most-copying heads alone it shows they copy the list too; with both sets it is what any three heads off do.
  const [list, offList, controlList] = [a.withAll, a.withOff, a.control!.withOff].map((x) => x.split('\n')[0]);
  if (!escapes) return 'The most-copying heads change the move, though not to an open way; the others leave it as it was.';
  // Where the new move leads against the goal is in the first sentence ("but away from the goal"); how much of
  // the pull they carry, in the count over the stored turns that follows.
  if (offList !== list && controlList === list) return 'Only the most-copying heads change the move, and they change the list of cells too: they copy.';
  if (offList !== list) return 'Both sets change the list of cells; here only the most-copying heads change the move.';
  return 'Only the most-copying heads change the move: they carry some of the pull of its earlier moves.';
}

/** A run of turns that give the same move, and whether its last move runs into a wall the user message named. */
export interface Streak {
  from: number;
  to: number;
  move: string;
  /** The first turn from which every move of the run runs into a wall its user message names (null: the last does not). */
  wallFrom: number | null;
}

/**
 * The longest run (3 turns or more, the first when two tie) of answers that give the same move, from each turn's
 * answer and the user message it replies to: what the first step points the reader at.
 */
export function longestStreak(turns: readonly { answer: string; asked: string | null }[]): Streak | null {
  let best: Streak | null = null;
  let start = 0;
  for (let i = 1; i <= turns.length; i++) {
    const move = moveOf(turns[start]!.answer);
    if (i < turns.length && move !== null && moveOf(turns[i]!.answer) === move) continue;
    if (move !== null && i - start >= 3 && (!best || i - start > best.to - best.from + 1)) {
      const intoWall = (k: number) => whereTo(move, turns[k]!.asked === null ? null : wallsIn(turns[k]!.asked!)) === 'wall';
      let k = i;
      while (k > start && intoWall(k - 1)) k--;
      best = { from: start + 1, to: i, move, wallFrom: k < i ? k + 1 : null };
    }
    start = i;
  }
  return best;
}

/** The first step's point: the run of one move into a wall the user named, which the lesson sets out to explain. */
/**
 * Where the demo model's habit comes from (training/data.ts: about half its maze games repeat one move for a few turns),
 * and what the lesson asks of it then: a reader asked whether a taught habit is still inertia.
 */
export const TAUGHT = 'practice mazes often repeat a move, so the habit is in the model; the lesson asks what in the conversation sets it off.';

export function streakReveal(s: Streak | null, toGoal: readonly string[] | null = null): Reveal {
  if (!s) return SILENT;
  const into = s.wallFrom === null ? 0 : s.to - s.wallFrom + 1;
  if (into < 2) return { said: streakSaid(s) };
  // The run into the wall in bold; where the move began earlier, when it still led somewhere, said apart (one count each).
  return {
    takeaway: `From turn ${s.wallFrom} on, it answers ${s.move} into a wall the user named, ${into} turns in a row.`,
    // Where the goal does lie that way, said in the sentence: readers took the repeat for heading to the goal.
    said:
      s.wallFrom! > s.from
        ? `It had said ${s.move} since turn ${s.from}${toGoal?.includes(s.move) ? ', toward its goal' : ''}; from turn ${s.wallFrom} on, a wall blocks that way, and it keeps saying it.`
        : `Each of those ${s.move} moves runs into a wall the user named${toGoal?.includes(s.move) ? ', though its goal lies that way' : ''}.`,
    // Where the habit comes from, said first: a reader took the demo model's repeats for something it found on its own.
    caveat: TAUGHT,
  };
}

/** Where the conversation repeats itself: "Turns 2 to 10 say south 9 times in a row, from turn 5 on into a wall the user named." */
const streakSaid = (s: Streak): string => {
  const walls =
    s.wallFrom === null
      ? ''
      : s.wallFrom === s.to
        ? ', the last into a wall the user named'
        : `, ${s.wallFrom === s.from ? 'each' : `from turn ${s.wallFrom} on`} into a wall the user named`;
  return `Turns ${s.from} to ${s.to} say ${s.move} ${s.to - s.from + 1} times in a row${walls}.`;
};

/**
 * How far each answer copies the previous one before it differs, said once where they agree: readers could not read
 * "11 with every head on, 11 with the most-copying heads off, 11 with the lowest off". `n`: every head on, the
 * most-copying off, then the lowest off where written.
 */
export function copiedAlike(n: number[], changed: boolean): string {
  const after = changed ? ', then go their own ways' : '';
  if (n.every((x) => x === n[0])) return `${n.length === 3 ? 'All three' : 'Both'} copy its first ${n[0]} words alike${after}.`;
  const names = ['with every head on', 'with the most-copying heads off', 'with the lowest off'];
  return `Words copied from it before an answer first differs: ${n.map((x, i) => `${x} ${names[i]}`).join(', ')}.`;
}

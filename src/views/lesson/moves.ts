/**
 * Reading a maze answer and the turn it replies to: the move, the walls the user message names, and what
 * two answers written under two policies say together (the generation step's reveal). Plain functions.
 */
import { parsePolicy, policyLabel } from '../../context/policy';

/** A maze answer's move ("Move: north"; the demo model also writes "Action -> east"), or null. */
export const moveOf = (answer: string): string | null => /(?:Move|Action)\s*(?::|->)\s*(\w+)/i.exec(answer)?.[1]?.toLowerCase() ?? null;
/** The walls a maze observation names ("Walls: east, west." → ['east', 'west']; "Walls: none." → []), or null. */
export function wallsIn(observation: string): string[] | null {
  const list = /Walls:\s*([a-z, ]+)\./.exec(observation)?.[1]?.trim();
  if (list === undefined) return null;
  return list === 'none' ? [] : list.split(/\s*,\s*/);
}
/** Where a move leads, told from the walls the turn's user message names, or null when it cannot be told. */
export function whereTo(move: string | null, walls: string[] | null): 'stay' | 'wall' | 'open' | null {
  if (move === null || walls === null) return null;
  return move === 'stay' ? 'stay' : walls.includes(move) ? 'wall' : 'open';
}
/** Where an answer's move leads, as a sentence ('' when it cannot be told). */
export function moveVerdict(answer: string, walls: string[] | null): string {
  const m = moveOf(answer);
  const where = whereTo(m, walls);
  if (where === null) return '';
  if (where === 'stay') return 'It stays where it is.';
  return where === 'wall' ? `Its move, ${m}, runs into a wall the last user message names.` : `Its move, ${m}, is an open way.`;
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
    same: 'The same move both ways: here the prior assistant answers do not change what the model does.',
    secondEscapes:
      'With its prior assistant answers in view the model repeats their move into the wall; with fewer of them, or none, it takes an open way. Here inertia changes what the model does, not only where it looks.',
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

/** The generation step's reveal: each answer written, its move told against the walls, then both together. */
export function generationReveal(generated: Record<string, string>, walls: string[] | null): string {
  const written = Object.entries(generated);
  if (!written.length) return '';
  const said = ([p, text]: [string, string]) => {
    const where = moveVerdict(text, walls);
    return `Under ${policyLabel(parsePolicy(p))} the model wrote: "${text}".${where ? ` ${where}` : ''}`;
  };
  // The walls as the user message gives them, so the reader can check each move against them.
  const told = walls === null ? '' : `The last user message names ${walls.length ? `the walls: ${walls.join(', ')}` : 'no walls'}. `;
  if (written.length < 2) return `${told}${said(written[0]!)} Click DE (no earlier turn) and generate again to see whether the answer changes.`;
  // Full's answer first, whichever was written first: the verdict reads the whole conversation against less of it.
  const full = written.find(([p]) => p === 'full');
  const other = written.filter(([p]) => p !== 'full').at(-1);
  if (!full || !other)
    return `${told}${said(written[0]!)} ${said(written[written.length - 1]!)} Together: ${answersDiffer(written[0]![1], written[written.length - 1]![1])}.`;
  return `${told}${said(full)} ${said(other)} ${whatChanged(full[1], other[1], walls)}`;
}

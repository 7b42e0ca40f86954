/**
 * The demo model's training data: a seeded generator of the multi-turn conversations the papers study.
 * Read this file to know exactly what the model was taught.
 *  - maze episodes (paper 2): the user reports position, walls and goal; the assistant restates its
 *    path as the cells visited so far (its previous answer's list, copied, plus the current cell, which it
 *    works out from the position: the user never names cells), then gives a thought
 *    and an action. Some episodes repeat an earlier wrong action into a wall for a few turns
 *    (conversational inertia); most of those then break out of it.
 *  Every conversation keeps one answer style (phrasing, action format, list prefix) chosen at its
 *  start, as a model keeps the style of its own earlier answers: the right wording of an answer can
 *  only be read from the earlier answers, which is the imitation the papers describe.
 *  - incrementally specified arithmetic (paper 1 §4.1): facts arrive turn by turn, the assistant keeps
 *    a running total, and answers the question at the end.
 *  - chat: standalone asks mixed into a conversation (paper 1's "new ask") and iterative edit requests.
 *  - summaries: paper 1's summary prompt over one answer of the three kinds above, answered in one
 *    sentence that keeps what a later turn needs (the cell and the move; the total; the list), so the
 *    SUM and Summary policies have real summaries to score.
 */
import { SUMMARY_PROMPT } from '../src/context/apply';
import type { Message } from '../src/conversation/types';
import { mulberry32 } from '../src/util/random';

export type Rng = () => number;
export const rng: (seed: number) => Rng = mulberry32;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

// ---------------------------------------------------------------- maze
export type Dir = 'north' | 'south' | 'east' | 'west';
const DIRS: Dir[] = ['north', 'south', 'east', 'west'];
const STEP: Record<Dir, [number, number]> = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0] };
export const MAZE_SYSTEM =
  'You are a maze agent on a 6x6 grid; cell = 6y + x + 1. Each turn, list the cells you visited, then give one thought and one action: north, south, east or west.';

/** Walls around a cell: the grid border plus seeded inner walls. */
function wallsAt(x: number, y: number, size: number, seed: number): Dir[] {
  return DIRS.filter((d) => {
    const [dx, dy] = STEP[d];
    const nx = x + dx;
    const ny = y + dy;
    if (nx < 0 || ny < 0 || nx >= size || ny >= size) return true;
    const a = Math.min(x * size + y, nx * size + ny);
    const b = Math.max(x * size + y, nx * size + ny);
    return rng(seed * 1000003 + a * 97 + b)() < 0.22;
  });
}

/** One episode's answer style: each situation's phrasing and the action line's format. */
interface MazeStyle {
  toward: (dirs: string, dir: Dir) => string;
  keep: (dir: Dir) => string;
  blocked: (wanted: string, dir: Dir) => string;
  change: (last: Dir, dir: Dir) => string;
  goal: string;
  action: string;
  /** The line that lists the cells visited so far, e.g. `Visited: 2 3 9.` */
  history: string;
}
const MAZE_STYLES: MazeStyle[] = [
  {
    toward: (d, x) => `the goal is ${d}, go ${x}`,
    keep: (x) => `keep going ${x}`,
    blocked: (w, x) => `${w} is blocked, try ${x}`,
    change: (l, x) => `${l} is blocked, I must change direction, go ${x}`,
    goal: 'I am at the goal',
    action: 'Action: ',
    history: 'Visited:',
  },
  {
    toward: (d, x) => `heading ${x}, the goal lies ${d}`,
    keep: (x) => `same as before, ${x} again`,
    blocked: (w, x) => `cannot go ${w}, so ${x}`,
    change: (l, x) => `stop repeating ${l}, turn ${x}`,
    goal: 'goal reached',
    action: 'Move: ',
    history: 'Path:',
  },
  {
    toward: (d, x) => `moving ${x} brings me closer, goal ${d}`,
    keep: (x) => `continue ${x} as planned`,
    blocked: (w, x) => `a wall stops ${w}, use ${x}`,
    change: (l, x) => `${l} fails every time, switch to ${x}`,
    goal: 'arrived at the goal',
    action: 'Next move: ',
    history: 'Cells so far:',
  },
  {
    toward: (d, x) => `${x} is the way, target ${d}`,
    keep: (x) => `stay the course, ${x}`,
    blocked: (w, x) => `${w} closed, taking ${x}`,
    change: (l, x) => `enough ${l}, now ${x}`,
    goal: 'done, this is the goal',
    action: 'Action -> ',
    history: 'Been at:',
  },
];

function toward(x: number, y: number, gx: number, gy: number, walls: Dir[], r: Rng, style: MazeStyle): { dir: Dir; why: string } {
  const wanted: Dir[] = [];
  if (gx > x) wanted.push('east');
  if (gx < x) wanted.push('west');
  if (gy > y) wanted.push('south');
  if (gy < y) wanted.push('north');
  const open = wanted.filter((d) => !walls.includes(d));
  if (open.length) {
    const dir = pick(r, open);
    return { dir, why: style.toward(wanted.length > 1 ? `${gy > y ? 'south' : 'north'}-${gx > x ? 'east' : 'west'}` : dir, dir) };
  }
  const free = DIRS.filter((d) => !walls.includes(d));
  const dir = pick(r, free.length ? free : DIRS);
  return { dir, why: style.blocked(wanted.join(' and '), dir) };
}

/** A maze as the environment knows it: where the agent is, the goal, and the seed of its inner walls. */
export interface MazeWorld {
  x: number;
  y: number;
  gx: number;
  gy: number;
  seed: number;
}

/** A maze drawn from `r` (the same draws mazeEpisode makes): start in the top-left 3×3, goal in the bottom-right. */
export function mazeWorld(r: Rng): MazeWorld {
  const seed = int(r, 1, 1e6);
  const x = int(r, 0, 2);
  const y = int(r, 0, 2);
  return { seed, x, y, gx: int(r, 3, 5), gy: int(r, 3, 5) };
}

/** The user message of turn `t`, as the training data writes it ("Round t.", the words the demo models were trained on). */
export function mazeObservation(w: MazeWorld, t: number, bumped: boolean): string {
  const walls = wallsAt(w.x, w.y, 6, w.seed);
  return `Round ${t}. Position (${w.x},${w.y}). Walls: ${walls.length ? walls.join(', ') : 'none'}. Goal: (${w.gx},${w.gy}).${bumped ? ' You hit a wall.' : ''}`;
}

/** The world after an action; a wall (or an action that is not a move) leaves the agent where it was. */
export function mazeMove(w: MazeWorld, action: string): { world: MazeWorld; bumped: boolean } {
  const dir = action as Dir;
  if (!DIRS.includes(dir)) return { world: w, bumped: false };
  if (wallsAt(w.x, w.y, 6, w.seed).includes(dir)) return { world: w, bumped: true };
  return { world: { ...w, x: w.x + STEP[dir][0], y: w.y + STEP[dir][1] }, bumped: false };
}

export function mazeEpisode(r: Rng, turns = int(r, 8, 16)): Message[] {
  const size = 6;
  const world = mazeWorld(r);
  const { seed, gx, gy } = world;
  let { x, y } = world;
  const msgs: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
  const style = pick(r, MAZE_STYLES);
  // Inertia: from some turn on, the agent keeps repeating its last action even into a wall.
  const stuckFrom = r() < 0.5 ? int(r, 2, turns - 3) : Infinity;
  const stuckFor = int(r, 2, 6);
  const breaksOut = r() < 0.6;
  let last: Dir = 'east';
  let bumped = false;
  // Every answer starts by listing the cells visited so far, as agents keep their state in their own
  // words: all but the last cell can only be copied from the previous answer, token by token at the
  // same offsets (each cell number is one token, so the copy lines up). The user gives positions, not
  // cells: with cell numbers in the user turns too, a longer-trained model learned to rebuild the list
  // from the user turns instead of reading its own answers.
  const cell = (cx: number, cy: number) => 6 * cy + cx + 1;
  const visited: number[] = [];
  const recap = () => `${style.history} ${visited.join(' ')}.\n`;
  for (let t = 1; t <= turns; t++) {
    const walls = wallsAt(x, y, size, seed);
    msgs.push({ role: 'user', content: mazeObservation({ ...world, x, y }, t, bumped) });
    visited.push(cell(x, y));
    let dir: Dir;
    let thought: string;
    if (x === gx && y === gy) {
      msgs.push({ role: 'assistant', content: `${recap()}Thought: ${style.goal}.\n${style.action}stay` });
      break;
    }
    const stuck = t >= stuckFrom && (t < stuckFrom + stuckFor || !breaksOut);
    if (stuck) {
      dir = last;
      thought = style.keep(dir);
    } else if (bumped && t === stuckFrom + stuckFor) {
      ({ dir } = toward(x, y, gx, gy, walls, r, style));
      thought = style.change(last, dir);
    } else {
      ({ dir, why: thought } = toward(x, y, gx, gy, walls, r, style));
    }
    msgs.push({ role: 'assistant', content: `${recap()}Thought: ${thought}.\n${style.action}${dir}` });
    bumped = walls.includes(dir);
    if (!bumped) {
      x += STEP[dir][0];
      y += STEP[dir][1];
    }
    last = dir;
  }
  return msgs;
}

// ---------------------------------------------------------------- arithmetic
const NAMES = ['Tom', 'Ana', 'Lee', 'Mia', 'Sam', 'Eva', 'Ben', 'Ida'];
const ITEMS = ['apples', 'coins', 'books', 'stamps', 'shells', 'cards', 'pens', 'eggs'];
export const MATH_SYSTEM = 'You solve a word problem whose facts arrive one turn at a time. Keep a running total.';

const MATH_STYLES = [
  { running: 'So far:', answer: 'Answer:' },
  { running: 'Running total:', answer: 'Final answer:' },
  { running: 'Now:', answer: 'Result:' },
];

export function arithmeticProblem(r: Rng): Message[] {
  const name = pick(r, NAMES);
  const item = pick(r, ITEMS);
  const style = pick(r, MATH_STYLES);
  let total = int(r, 2, 20);
  const msgs: Message[] = [
    { role: 'system', content: MATH_SYSTEM },
    { role: 'user', content: `Fact: ${name} has ${total} ${item}.` },
    { role: 'assistant', content: `${style.running} ${name} has ${total} ${item}.` },
  ];
  const steps = int(r, 2, 6);
  for (let i = 0; i < steps; i++) {
    const kind = total > 3 && r() < 0.4 ? 'loses' : r() < 0.2 ? 'doubles' : 'gets';
    const before = total;
    let fact: string;
    let work: string;
    if (kind === 'doubles') {
      total *= 2;
      fact = `${name} doubles the ${item}.`;
      work = `${before} × 2 = ${total}`;
    } else {
      const n = kind === 'loses' ? int(r, 1, Math.min(9, total - 1)) : int(r, 1, 15);
      total = kind === 'loses' ? total - n : total + n;
      fact = `${name} ${kind === 'loses' ? 'gives away' : 'gets'} ${n} ${item}.`;
      work = `${before} ${kind === 'loses' ? '−' : '+'} ${n} = ${total}`;
    }
    msgs.push({ role: 'user', content: `Fact: ${fact}` }, { role: 'assistant', content: `${style.running} ${work} ${item}.` });
  }
  msgs.push(
    { role: 'user', content: `Question: how many ${item} does ${name} have now?` },
    { role: 'assistant', content: `${style.answer} ${total} ${item}.` },
  );
  return msgs;
}

// ---------------------------------------------------------------- chat: new asks and edits
const COLORS = ['red', 'green', 'blue', 'yellow', 'purple', 'orange', 'white', 'black', 'pink', 'gray'];
const ANIMALS = ['cat', 'dog', 'fox', 'owl', 'bee', 'cow', 'elk', 'ant', 'bat', 'yak'];
export const CHAT_SYSTEM = 'You are a helpful assistant. Answer briefly.';

function newAsk(r: Rng): [string, string] {
  const a = int(r, 2, 30);
  const b = int(r, 2, 30);
  return pick(r, [
    (): [string, string] => [`New question: what is ${a} plus ${b}?`, `${a} plus ${b} is ${a + b}.`],
    (): [string, string] => [
      `New question: is ${a} larger than ${b}?`,
      a > b ? `Yes, ${a} is larger than ${b}.` : a === b ? `No, ${a} equals ${b}.` : `No, ${a} is smaller than ${b}.`,
    ],
    (): [string, string] => {
      const c = pick(r, ANIMALS);
      return [`New question: how do you spell ${c} backwards?`, `${c} backwards is ${[...c].reverse().join('')}.`];
    },
  ])();
}

export function chatSession(r: Rng): Message[] {
  const pool = pick(r, [COLORS, ANIMALS]);
  const noun = pool === COLORS ? 'colors' : 'animals';
  let list = [...pool].sort(() => r() - 0.5).slice(0, int(r, 2, 4));
  const prefix = pick(r, ['Here is the list:', 'Updated list:', 'The list is now:']);
  const msgs: Message[] = [
    { role: 'system', content: CHAT_SYSTEM },
    { role: 'user', content: `Write a list of ${list.length} ${noun}.` },
    { role: 'assistant', content: `${prefix} ${list.join(', ')}.` },
  ];
  const turns = int(r, 3, 8);
  for (let i = 0; i < turns; i++) {
    if (r() < 0.3) {
      const [q, a] = newAsk(r);
      msgs.push({ role: 'user', content: q }, { role: 'assistant', content: a });
      continue;
    }
    const unused = pool.filter((p) => !list.includes(p));
    const op = list.length > 2 && r() < 0.35 ? 'remove' : unused.length && r() < 0.5 ? 'add' : 'replace';
    let ask: string;
    if (op === 'remove') {
      const gone = pick(r, list);
      list = list.filter((x) => x !== gone);
      ask = `Remove ${gone}.`;
    } else if (op === 'add' && unused.length) {
      const extra = pick(r, unused);
      list = [...list, extra];
      ask = `Add ${extra}.`;
    } else {
      const old = pick(r, list);
      const repl = pick(r, unused.length ? unused : pool);
      list = list.map((x) => (x === old ? repl : x));
      ask = `Replace ${old} with ${repl}.`;
    }
    msgs.push({ role: 'user', content: ask }, { role: 'assistant', content: `${prefix} ${list.join(', ')}.` });
  }
  return msgs;
}

// ---------------------------------------------------------------- summaries
/** The one-sentence summary of an answer: the last cell and the move; the running total; the list. */
export function summaryOf(answer: string): string {
  const maze = /^[^:\n]+:((?: \d+)+)\.\nThought: [^\n]+\.\n[^\n]*?(north|south|east|west|stay)$/.exec(answer);
  if (maze) {
    const cell = maze[1]!.trim().split(' ').pop();
    return maze[2] === 'stay' ? `At cell ${cell} the agent reached the goal.` : `At cell ${cell} the agent moved ${maze[2]}.`;
  }
  const total = /^(?:So far|Running total|Now): (?:.* = )?(.+)\.$/.exec(answer);
  if (total) return `The running total is ${total[1]}.`;
  const final = /^(?:Answer|Final answer|Result): (.+)\.$/.exec(answer);
  if (final) return `The answer is ${final[1]}.`;
  const list = /^(?:Here is the list|Updated list|The list is now): (.+)\.$/.exec(answer);
  if (list) return `The list is ${list[1]}.`;
  return answer; // a one-sentence answer is its own summary
}

/** Paper 1's summary prompt over one answer of a fresh conversation, and its summary. */
export function summaryTask(r: Rng): Message[] {
  const u = r();
  const source = u < 0.6 ? mazeEpisode(r) : u < 0.8 ? arithmeticProblem(r) : chatSession(r);
  const answers = source.filter((m) => m.role === 'assistant');
  const answer = pick(r, answers).content;
  return [
    { role: 'user', content: SUMMARY_PROMPT.replace('{response}', answer) },
    { role: 'assistant', content: summaryOf(answer) },
  ];
}

/** One conversation: 45 % maze, 20 % arithmetic, 20 % chat, 15 % a summary. */
export function conversation(r: Rng): Message[] {
  const u = r();
  return u < 0.45 ? mazeEpisode(r) : u < 0.65 ? arithmeticProblem(r) : u < 0.85 ? chatSession(r) : summaryTask(r);
}

/**
 * Maze episodes the demo model plays itself (the rollouts of cpl-figures.ts, seeds 700,000 + k); at each turn
 * right after it hit a wall, the move it writes under Full (the episode's own answer), LT, DE, Window-6, AO, Filler and SUM, AO-last (only its latest answer hidden), AO-second-last (only the answer before it: the control), Cut-last (the latest answer cut to its first line, the list of cells: the control that keeps those facts),
 * and the moves the CPL twin and the second twin (trained toward DE's answers) write under Full on the same history, and the
 * move written with the previous answer's move swapped for an open way (the swap test), and how much the Full answer's move looks back at
 * the same move in the earlier answers; where Full repeats the move, the moves it writes with the last layer's 3 heads
 * that follow the diagonal most switched off, and with the 3 that follow it least (the heads step's count). Used by
 * scripts/inertia-turns.ts and its pinning test.
 */
import { bottomHeads, type HeadDiagonals, type HeadRef, topHeads, withHeadsOff } from '../src/analysis/ablation';
import { analyzePolicy, type AnalysisModel } from '../src/analysis/analyze';
import { generateAnswer } from '../src/analysis/answer';
import { analyzeHeads } from '../src/analysis/heads';
import { SummaryCache } from '../src/analysis/policy-inputs';
import type { Message } from '../src/conversation/types';
import type { OpenModel } from '../src/runtime/open-model';
import { timesEven, tokenReading } from '../src/views/lesson/attention-reveals';
import { evenDiagonal, evenShare } from '../src/views/lesson/world';
import { isMove, MOVES, towardGoal } from '../src/views/lesson/moves';
import type { WallTurn } from '../src/views/lesson/wall-records';
import { actionOf, greedyAnswer } from './cpl-pairs';
import { MAZE_SYSTEM, mazeMove, mazeObservation, mazeWorld, rng } from './data';

export const FIRST_SEED = 700_000;
const TURNS = 16;

/**
 * The models that write: the demo model, its CPL twin, and the demo model opened with head figures (`heads`, which
 * ranks the heads; the others are opened as the app's first pass opens them, so their moves are the episode's own).
 */
export interface Writers {
  model: OpenModel;
  twin: OpenModel;
  /** The second twin, trained toward the answer with no earlier turn (DE). */
  twinDe: OpenModel;
  heads: OpenModel;
}

/** One episode: its turns right after a wall, and the history as it stood at each (for picking the lesson's). */
export async function wallEpisode({ model, twin, twinDe, heads }: Writers, seed: number): Promise<{ turn: WallTurn; history: Message[] }[]> {
  let world = mazeWorld(rng(seed));
  let bumped = false;
  let last: string | null = null;
  const out: { turn: WallTurn; history: Message[] }[] = [];
  const history: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
  // One summary per answer for the whole episode: the history only grows, so an answer's index keeps its text.
  const summaries = new SummaryCache(model, { messages: history });
  for (let t = 1; t <= TURNS; t++) {
    history.push({ role: 'user', content: mazeObservation(world, t, bumped) });
    const { text } = await greedyAnswer(model, history);
    history.push({ role: 'assistant', content: text.trim() });
    const act = actionOf(text);
    if (act === null) break;
    if (bumped && last !== null) {
      const write = async (m: OpenModel, policy: string) => actionOf(await generateAnswer(m, { messages: history }, policy, t, { summaries }));
      const blocked = MOVES.filter((d) => mazeMove(world, d).bumped);
      // Where the goal lies from here, as the turn's user message says it: is it beyond the wall just hit?
      const toGoal = towardGoal(history.at(-2)!.content) ?? [];
      // The swap test's move: the first open way other than the one that hit the wall.
      const swapTo = MOVES.find((d) => d !== last && !blocked.includes(d)) ?? last;
      const moves = {
        full: act,
        lt: await write(model, 'lt'),
        de: await write(model, 'de'),
        'window:6': await write(model, 'window:6'),
        'clip:6:1': await write(model, 'clip:6:1'),
        'summary:6:1': await write(model, 'summary:6:1'),
        ao: await write(model, 'ao'),
        'ao-last': await write(model, 'ao-last'),
        'ao-second-last': await write(model, 'ao-second-last'),
        'cut-last': await write(model, 'cut-last'),
        filler: await write(model, 'filler'),
        sum: await write(model, 'sum'),
        twin: await write(twin, 'full'),
        'twin-de': await write(twinDe, 'full'),
        // The swap test: its previous answer's move (thought and action) changed to an open way, every other word kept.
        'swap-last': actionOf(await generateAnswer(model, { messages: swapLastMove(history, last, swapTo) }, 'full', t)),
      };
      const headsOff = act === last ? await headsOffMoves(heads, history, t, seed) : null;
      out.push({ turn: { seed, turn: t, hit: last, blocked, toGoal, swapTo, moves, ...(await moveLook(model, history, t)), headsOff }, history: [...history] });
    }
    if (act === 'stay') break;
    ({ world, bumped } = mazeMove(world, act));
    last = act;
    if (world.x === world.gx && world.y === world.gy) break;
  }
  return out;
}

/**
 * The history with the previous answer (turn t − 1's, before the last user message and the answer being written) told
 * another move: in its lines after the first (the thought and the action; the first, the list of cells, is left), each
 * `from` becomes `to`. The swap test: does the model follow the move it is shown to have made?
 */
export function swapLastMove(history: readonly Message[], from: string, to: string): Message[] {
  const i = history.length - 3;
  const prev = history[i];
  if (prev?.role !== 'assistant') return [...history];
  const [first, ...rest] = prev.content.split('\n');
  const content = [first, ...rest.map((l) => l.replaceAll(from, to))].join('\n');
  return history.map((m, k) => (k === i ? { ...m, content } : m));
}

/**
 * The reads step's figure for the Full answer of `turn` (the last in `history`): its move, the answer's last token, puts
 * this many times an even spread of its last layer's attention on the same move in the prior assistant answers (two
 * decimals; null when the answer ends in no move, or no earlier answer wrote it). The page computes it the same way.
 * With it, the answer's prior assistant share and diagonal ratio, each beside what an even spread gives (`reads`).
 */
async function moveLook(model: AnalysisModel, history: Message[], turn: number): Promise<Pick<WallTurn, 'look' | 'reads'>> {
  const r = await analyzePolicy(model, { messages: history }, 'full', { turn, keepAttention: 'answer', cost: 'last' });
  const t = tokenReading(r, r.query.end - r.query.start - 1);
  const s = t?.sameWord;
  // The answer's shares as the shares and diagonal steps read them, so the lesson can say them over every turn, not one answer.
  const four = (x: number) => Math.round(x * 10_000) / 10_000;
  const reads = { prior: four(r.ratios.prior), priorEven: four(evenShare(r, 'prior')), diagonal: four(r.diagonal), diagonalEven: four(evenDiagonal(r)) };
  return { look: t && s && isMove(t.text) ? Math.round(timesEven(s) * 100) / 100 : null, reads };
}

/**
 * The heads step's moves for `turn` (the last in `history`): the last layer's 3 heads with the highest diagonal
 * ratio under Full switched off, then the 3 with the lowest, as the lesson's button does on the page; then 3 drawn at
 * random (the second control, in the stored count only).
 */
async function headsOffMoves(model: OpenModel, history: Message[], turn: number, seed: number): Promise<WallTurn['headsOff']> {
  const conversation = { messages: history };
  const last = (await analyzeHeads(model, conversation, 'full', { turn })).slice(-1);
  const write = async (off: ReturnType<typeof topHeads>) => actionOf(await generateAnswer(withHeadsOff(model, off), conversation, 'full', turn));
  return { top: await write(topHeads(last, 3)), bottom: await write(bottomHeads(last, 3)), random: await write(randomHeads(last, 3, seed * 100 + turn)) };
}

/**
 * k of the last layer's heads drawn at random from those outside its top k by diagonal ratio (seeded by the episode and
 * the turn, so a rerun draws the same): the second control, beside the lowest heads. Drawn from every head, it could
 * switch off top heads too, and a reader could not tell what set it apart.
 */
export function randomHeads(last: HeadDiagonals, k: number, seed: number): HeadRef[] {
  const layer = last.at(-1)!;
  const top = new Set(topHeads(last, k).map(([, h]) => h));
  const r = rng(seed);
  const draws = layer.perHead.flatMap((_, i) => (top.has(i) ? [] : [{ i, v: r() }]));
  return draws
    .sort((x, y) => x.v - y.v)
    .slice(0, k)
    .map((x) => [layer.layer, x.i] as const);
}

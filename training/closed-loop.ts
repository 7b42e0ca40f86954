/**
 * Each maze played to its end under one context policy: every answer written under that policy, on a history made
 * of its own earlier answers (closed loop). The stored wall turns (wall-turns.ts) re-answer the turns Full reached;
 * here each policy reaches its own turns, so a policy that leaves the wall sooner is not judged on Full's stuck runs,
 * and whether it reaches the goal can be counted. Used by scripts/closed-loop.ts and its pinning test.
 */
import { generateAnswer } from '../src/analysis/answer';
import { SummaryCache } from '../src/analysis/policy-inputs';
import type { Message } from '../src/conversation/types';
import type { OpenModel } from '../src/runtime/open-model';
import { MOVES } from '../src/views/lesson/moves';
import type { PlayedMaze } from '../src/views/lesson/closed-loop';
import { actionOf } from './cpl-pairs';
import { MAZE_SYSTEM, mazeMove, mazeObservation, mazeWorld, rng } from './data';

/** As many turns as the stored episodes allow (wall-turns.ts). */
export const PLAY_TURNS = 16;

/**
 * One maze (seed) played under `policy` by `model`: the turns it took, whether it reached the goal, its moves into a
 * wall, and, right after each such move, whether it wrote the same move again. Null where the start cell is walled on
 * all four sides (no move can leave it; the lesson leaves such mazes out).
 */
export async function playMaze(model: OpenModel, policy: string, seed: number): Promise<PlayedMaze | null> {
  let world = mazeWorld(rng(seed));
  if (MOVES.every((d) => mazeMove(world, d).bumped)) return null;
  const history: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
  const summaries = new SummaryCache(model, { messages: history });
  const played: PlayedMaze = { seed, turns: 0, reached: false, hits: 0, afterWall: 0, repeats: 0, ended: 'turns' };
  let bumped = false;
  let last: string | null = null;
  for (let t = 1; t <= PLAY_TURNS; t++) {
    history.push({ role: 'user', content: mazeObservation(world, t, bumped) });
    // The answer to the last user message, under the policy, with the model's own earlier answers in the history.
    // generateAnswer writes turn t's answer in place of the one the conversation holds: an empty one, until written.
    history.push({ role: 'assistant', content: '' });
    const text = (await generateAnswer(model, { messages: history }, policy, t, { summaries })).trim();
    history[history.length - 1] = { role: 'assistant', content: text };
    played.turns = t;
    const act = actionOf(text);
    if (bumped && last !== null && act !== null && act !== 'stay') {
      played.afterWall++;
      if (act === last) played.repeats++;
    }
    if (act === null || act === 'stay') {
      played.ended = act === null ? 'no move' : 'stay';
      break;
    }
    ({ world, bumped } = mazeMove(world, act));
    if (bumped) played.hits++;
    last = act;
    if (world.x === world.gx && world.y === world.gy) {
      played.reached = true;
      played.ended = 'goal';
      break;
    }
  }
  return played;
}

/**
 * Turns where the demo model walks into a wall it was just told about, played by the model itself:
 * 40 maze episodes (the rollouts of training/cpl-figures.ts, seeds 700,000 + k), each turn after a
 * bump answered under Full (the whole history), LT (the turn before only) and DE (no earlier turn).
 * Prints how often each repeats the move that hit the wall, and writes to examples/maze-wall.json the
 * first episode, scored at turn 5 or later, where Full repeats it and LT and DE both take an open way
 * (the lesson's example of inertia changing the move).
 *   npx tsx scripts/inertia-turns.ts
 */
import { writeFileSync } from 'node:fs';
import { generateAnswer } from '../src/analysis/answer';
import { dirSource } from '../src/cli/dir-source';
import type { Message } from '../src/conversation/types';
import { openModel } from '../src/runtime/open-model';
import { actionOf, greedyAnswer } from '../training/cpl-pairs';
import { MAZE_SYSTEM, mazeMove, mazeObservation, mazeWorld, rng } from '../training/data';
import { DEMO_DIR } from '../training/figures';

const EPISODES = 40;
const TURNS = 16;
const model = await openModel(dirSource(process.env.MODEL_DIR ?? DEMO_DIR));
let afterBump = 0;
let fullRepeats = 0;
let ltRepeats = 0;
let deRepeats = 0;
const cases: { seed: number; turn: number; lt: string; de: string | null }[] = [];
let best: { seed: number; turn: number; messages: Message[] } | null = null;
for (let k = 0; k < EPISODES; k++) {
  let world = mazeWorld(rng(700_000 + k));
  let bumped = false;
  let last: string | null = null;
  const history: Message[] = [{ role: 'system', content: MAZE_SYSTEM }];
  for (let t = 1; t <= TURNS; t++) {
    history.push({ role: 'user', content: mazeObservation(world, t, bumped) });
    const { text } = await greedyAnswer(model, history);
    history.push({ role: 'assistant', content: text.trim() });
    const act = actionOf(text);
    if (act === null) break;
    if (bumped) {
      afterBump++;
      const lt = actionOf(await generateAnswer(model, { messages: history }, 'lt', t));
      const de = actionOf(await generateAnswer(model, { messages: history }, 'de', t));
      const repeats = act === last;
      fullRepeats += repeats ? 1 : 0;
      ltRepeats += lt === last ? 1 : 0;
      deRepeats += de === last ? 1 : 0;
      const moves = lt !== null && lt !== last && !mazeMove(world, lt).bumped;
      if (repeats && moves) cases.push({ seed: 700_000 + k, turn: t, lt, de });
      // The lesson's example: the earliest such turn from turn 5 on (so the history holds a few answers to
      // copy) where only Full repeats: with no earlier turn at all (DE) the model moves on too, so the
      // repeat comes from the history, not from the observation.
      const deMoves = de !== null && de !== last && !mazeMove(world, de).bumped;
      if (repeats && moves && deMoves && t >= 5 && (!best || t < best.turn)) best = { seed: 700_000 + k, turn: t, messages: [...history] };
    }
    if (act === 'stay') break;
    ({ world, bumped } = mazeMove(world, act));
    last = act;
    if (world.x === world.gx && world.y === world.gy) break;
  }
}
console.log(`${afterBump} turns right after a wall: the move that hit it repeated under Full in ${fullRepeats}, LT in ${ltRepeats}, DE in ${deRepeats}`);
console.log(`Full repeats it and LT moves on: ${cases.map((c) => `${c.seed}@${c.turn} (LT ${c.lt}, DE ${c.de})`).join(', ')}`);
if (best) {
  writeFileSync('examples/maze-wall.json', `${JSON.stringify({ messages: best.messages }, null, 2)}\n`);
  console.log(`examples/maze-wall.json: seed ${best.seed}, turn ${best.turn}`);
}
await model.session.release();

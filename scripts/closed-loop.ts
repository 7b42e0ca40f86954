/**
 * The 40 maze episodes of scripts/inertia-turns.ts, each played to its end under Full, LT, DE, AO, AO-last and
 * AO-second-last (every answer written under that policy, on a history of its own earlier answers), and by the CPL
 * twin under Full: whether it reaches the goal, and how often it walks back into a wall it just hit, on its own turns.
 * Writes examples/cache/closed-loop.json (the lesson's recap quotes it; a test pins the first maze to a fresh run).
 *   npx tsx scripts/closed-loop.ts
 */
import { writeFileSync } from 'node:fs';
import { dirSource } from '../src/cli/dir-source';
import { CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../src/model/demo';
import { openModel } from '../src/runtime/open-model';
import { type ClosedLoopRecord, PLAYERS, type PlayedMaze, playTally } from '../src/views/lesson/closed-loop';
import { playMaze } from '../training/closed-loop';
import { FIRST_SEED } from '../training/wall-turns';

const EPISODES = 40;
const model = await openModel(dirSource(DEMO_MODEL_PATH));
const twin = await openModel(dirSource(CPL_MODEL_PATH));
const played = {} as ClosedLoopRecord['played'];
for (const p of PLAYERS) {
  const mazes: PlayedMaze[] = [];
  for (let k = 0; k < EPISODES; k++) {
    const m = await playMaze(p === 'twin' ? twin : model, p === 'twin' ? 'full' : p, FIRST_SEED + k);
    if (m) mazes.push(m);
  }
  played[p] = mazes;
  const t = playTally(mazes);
  console.log(
    `${p}: goal in ${t.reached} of ${t.mazes} mazes; right after a wall, the same move again in ${t.repeats} of ${t.afterWall} moves (${t.repeatRate} %)`,
  );
}
writeFileSync('examples/cache/closed-loop.json', `${JSON.stringify({ episodes: EPISODES, firstSeed: FIRST_SEED, played })}\n`);
await Promise.all([model.session.release(), twin.session.release()]);

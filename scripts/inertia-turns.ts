/**
 * Turns where the demo model walks into a wall it was just told about, played by the model itself: 40 maze
 * episodes (training/wall-turns.ts), each turn after a bump answered under Full (the whole history), LT (the
 * turn before only), DE (no earlier turn), Window-6, Clip-6→1, Summary-6→1, AO, AO-last, AO-second-last, Cut-last, SUM and Filler, and by the CPL twin and the second twin (trained toward DE's answers) under Full on the same history, and with its previous answer's move swapped for an open way (the swap test);
 * where Full repeats the move, also with the last layer's 3 most and 3 least diagonal heads switched off, and 3 drawn at random from the other five.
 * Writes every such turn to examples/cache/wall-turns.json (the lesson quotes its counts; a test pins the first
 * episodes to a fresh run), and to examples/maze-wall.json the first episode, scored at turn 5 or later, where
 * Full repeats the move and LT and DE both take an open way (the lesson's example of inertia changing the move).
 *   npx tsx scripts/inertia-turns.ts
 */
import { writeFileSync } from 'node:fs';
import { dirSource } from '../src/cli/dir-source';
import type { Message } from '../src/conversation/types';
import { openModel } from '../src/runtime/open-model';
import { isOpen, wallCounts, type WallTurn } from '../src/views/lesson/wall-records';
import { CPL_DE_MODEL_PATH, CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../src/model/demo';
import { FIRST_SEED, wallEpisode } from '../training/wall-turns';

const EPISODES = 40;
const model = await openModel(dirSource(DEMO_MODEL_PATH));
const twin = await openModel(dirSource(CPL_MODEL_PATH));
const twinDe = await openModel(dirSource(CPL_DE_MODEL_PATH));
const heads = await openModel(dirSource(DEMO_MODEL_PATH), { headFigures: true });
const turns: WallTurn[] = [];
let best: { seed: number; turn: number; messages: Message[] } | null = null;
for (let k = 0; k < EPISODES; k++) {
  for (const { turn: w, history } of await wallEpisode({ model, twin, twinDe, heads }, FIRST_SEED + k)) {
    turns.push(w);
    const open = (m: string | null) => isOpen(w, m) && m !== w.hit;
    // The lesson's example: the earliest such turn from turn 5 on (so the history holds a few answers to copy)
    // where only Full repeats: with no earlier turn at all (DE) the model moves on too, so the repeat comes
    // from the history, not from the observation.
    if (w.moves.full === w.hit && open(w.moves.lt) && open(w.moves.de) && w.turn >= 5 && (!best || w.turn < best.turn))
      best = { seed: w.seed, turn: w.turn, messages: history };
  }
}
const c = wallCounts(EPISODES, turns);
console.log(
  `${c.turns} turns right after a wall in ${EPISODES} episodes: the move that hit it repeated under Full in ${c.repeats.full}, LT in ${c.repeats.lt}, DE in ${c.repeats.de}; by the CPL twin (Full) in ${c.repeats.twin}, by the second twin (trained toward DE) in ${c.repeats['twin-de']}`,
);
console.log(
  `Window-6 repeats it in ${c.repeats['window:6']}, AO in ${c.repeats.ao}, AO-last in ${c.repeats['ao-last']}, AO-second-last in ${c.repeats['ao-second-last']}, Cut-last in ${c.repeats['cut-last']} (moves made: AO-last ${c.moved['ao-last']}, Cut-last ${c.moved['cut-last']})`,
);
if (c.walledIn?.turns) console.log(`left out: ${c.walledIn.turns} turns in ${c.walledIn.mazes} mazes that start the model walled in on all four sides`);
if (c.stages) {
  const { first, after } = c.stages;
  console.log(
    `meeting a wall for the first time (${first.turns} turns): Full repeats ${first.full.repeats} of ${first.full.moved}, DE ${first.de.repeats} of ${first.de.moved}; after its previous answer walked into it (${after.turns} turns): Full ${after.full.repeats} of ${after.full.moved}, DE ${after.de.repeats} of ${after.de.moved}`,
  );
}
const h = c.headsOff;
console.log(
  `of the ${h.of} repeats under Full, with the last layer's top 3 heads off it repeats ${h.repeats.top} (open ${h.open.top}, no move ${h.none.top}), the bottom 3 off ${h.repeats.bottom} (open ${h.open.bottom}, no move ${h.none.bottom}), 3 at random off ${h.repeats.random} (open ${h.open.random}, no move ${h.none.random})`,
);
if (c.reads)
  console.log(
    `over the turns, Full's answer: prior assistant share ${c.reads.prior.toFixed(3)} (even ${c.reads.priorEven.toFixed(3)}), diagonal ${c.reads.diagonal.toFixed(3)} (even ${c.reads.diagonalEven.toFixed(3)})`,
  );
if (c.followed)
  console.log(
    `the swap test (its previous answer's move changed to an open way): it writes that move in ${c.followed.swap} of ${c.moved['swap-last']} moves; on the same turns Full writes it in ${c.followed.full}, DE in ${c.followed.de}; the blocked move in ${c.repeats['swap-last']}`,
  );
if (c.goalBeyond)
  console.log(`the goal beyond the wall just hit: ${c.goalBeyond.turns} of ${c.turns} turns; of DE's ${c.repeats.de} repeats, ${c.goalBeyond.deRepeats}`);
console.log(`an open way: Full ${c.open.full}, LT ${c.open.lt}, DE ${c.open.de}, Window-6 ${c.open['window:6']}, AO ${c.open.ao}, the CPL twin ${c.open.twin}`);
writeFileSync(
  'examples/cache/wall-turns.json',
  `${JSON.stringify({ model: 'inertia-demo', twin: 'inertia-demo-cpl', twinDe: 'inertia-demo-cpl-de', episodes: EPISODES, firstSeed: FIRST_SEED, turns })}\n`,
);
if (best) {
  writeFileSync('examples/maze-wall.json', `${JSON.stringify({ messages: best.messages }, null, 2)}\n`);
  console.log(`examples/maze-wall.json: seed ${best.seed}, turn ${best.turn}`);
}
await Promise.all([model.session.release(), twin.session.release(), twinDe.session.release(), heads.session.release()]);

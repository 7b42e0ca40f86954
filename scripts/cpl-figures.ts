/**
 * Prints the CPL-tuned demo model's figures next to the base model's (training/cpl-figures.ts).
 *   npm run cpl-figures        (MODEL_DIR=<dir> for a trial run's model)
 */
import { dirSource } from '../src/cli/dir-source';
import { openModel } from '../src/runtime/open-model';
import { CPL_DIR, CPL_POLICIES, change, cplAttention, cplRollouts, medianChange } from '../training/cpl-figures';
import { DEMO_DIR, heldOutContinuations } from '../training/figures';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const f4 = (v: number) => v.toFixed(4);
const rows: Record<string, Awaited<ReturnType<typeof measure>>> = {};
async function measure(dir: string) {
  const model = await openModel(dirSource(dir));
  const attention = await cplAttention(model);
  const rollouts = await cplRollouts(model);
  const format = await heldOutContinuations(model);
  await model.session.release();
  return { attention, rollouts, format };
}
for (const [name, dir] of [
  ['base', DEMO_DIR],
  ['CPL', process.env.MODEL_DIR ?? CPL_DIR],
] as const)
  rows[name] = await measure(dir);
const [b, c] = [rows.base!, rows.CPL!];
for (const p of CPL_POLICIES) {
  console.log(
    `${p}: maze example, last answer: diagonal ${f4(b.attention.example.diagonal[p]!)} → ${f4(c.attention.example.diagonal[p]!)} (${pct(change(b.attention.example.diagonal[p]!, c.attention.example.diagonal[p]!))}), prior share ${f4(b.attention.example.prior[p]!)} → ${f4(c.attention.example.prior[p]!)} (${pct(change(b.attention.example.prior[p]!, c.attention.example.prior[p]!))})`,
  );
  const d = medianChange(
    b.attention.episodes.map((e) => e.diagonal[p]!),
    c.attention.episodes.map((e) => e.diagonal[p]!),
  );
  const pr = medianChange(
    b.attention.episodes.map((e) => e.prior[p]!),
    c.attention.episodes.map((e) => e.prior[p]!),
  );
  console.log(`${p}: ${b.attention.episodes.length} held-out episodes, median change: diagonal ${pct(d)}, prior share ${pct(pr)}`);
}
for (const [name, r] of Object.entries(rows)) {
  const o = r.rollouts;
  console.log(
    `${name}: ${o.episodes} held-out mazes played greedily under Full: goal reached ${o.reachedGoal}, after a wall the same action again ${o.repeatedIntoWall} of ${o.afterBump}, malformed answers ${o.malformed}; format check ${r.format.wellFormed}/${r.format.total} well-formed`,
  );
}

/**
 * Chooses a training snapshot by what it shows, on validation episodes only.
 *   TRAIN_STEPS=3300 SNAPSHOTS=2700:25 MODEL_DIR=<dir> /usr/bin/python3 training/train.py
 *   MODEL_DIR=<dir> npx tsx training/pick.ts
 * For each <dir>/step-N (the tokenizer files are copied in from models/inertia-demo), prints the
 * validation figures (maze seeds from 980,000), the example's and the held-out ones (seeds from 990,000),
 * and names the first snapshot whose validation medians meet the targets (full ÷ filler ≥ 2×, ρ ≥ 0.8)
 * and whose example passes the model tests. The held-out columns are printed, never used to choose.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dirSource } from '../src/cli/dir-source';
import { openModel } from '../src/runtime/open-model';
import { median } from '../src/metrics/stats';
import { DEMO_DIR, heldOutEpisodeFigures, inertiaFigures, VALIDATION_SEED, type EpisodeFigures } from './figures';

const root = process.env.MODEL_DIR;
if (!root) throw new Error('set MODEL_DIR to the folder train.py wrote its step-N snapshots into');
const steps = readdirSync(root)
  .filter((d) => /^step-\d+$/.test(d))
  .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
const medians = (eps: EpisodeFigures[]) => [median(eps.map((e) => e.fillerRatio)), median(eps.map((e) => e.priorSpearman))] as const;
const f = (v: number, d = 2) => v.toFixed(d).padStart(6);
console.log('snapshot    | validation ×, ρ | example ×, ρ, prior slope > user | held-out ×, ρ');
let chosen: string | undefined;
for (const step of steps) {
  const dir = join(root, step);
  for (const file of ['tokenizer.json', 'tokenizer_config.json']) if (!existsSync(join(dir, file))) copyFileSync(join(DEMO_DIR, file), join(dir, file));
  const model = await openModel(dirSource(dir));
  const [vRatio, vRho] = medians(await heldOutEpisodeFigures(model, 8, VALIDATION_SEED));
  const ex = await inertiaFigures(model, []);
  const exRatio = ex.diagonalFull / ex.diagonalFiller;
  const [hRatio, hRho] = medians(await heldOutEpisodeFigures(model, 8));
  await model.session.release();
  const exOk = exRatio >= 2 && ex.priorSpearman >= 0.8 && ex.priorSlope > ex.userSlope;
  const ok = vRatio >= 2 && vRho >= 0.8 && exOk;
  if (ok && !chosen) chosen = step;
  console.log(
    `${step.padEnd(11)} | ${f(vRatio)} ${f(vRho, 3)} | ${f(exRatio)} ${f(ex.priorSpearman, 3)} ${exOk ? 'yes' : 'no '} | ${f(hRatio)} ${f(hRho, 3)}${ok ? '  meets the targets' : ''}`,
  );
}
console.log(chosen ? `chosen: ${chosen} (the first snapshot that meets the targets on validation episodes and the example)` : 'no snapshot meets the targets');

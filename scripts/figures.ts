/**
 * Prints what the embedded demo model shows (issue 4's four figures), measured on the committed model.
 *   npm run figures
 */
import { dirSource } from '../src/cli/dir-source';
import { openModel } from '../src/runtime/open-model';
import { median } from '../src/metrics/stats';
import { DEMO_DIR, heldOutContinuations, heldOutEpisodeFigures, inertiaFigures } from '../training/figures';

const model = await openModel(dirSource(process.env.MODEL_DIR ?? DEMO_DIR));
const f4 = (v: number) => v.toFixed(4);
/** Issue 4's targets, checked as stated: the figures are printed whether they pass or not. */
const verdict = (ok: boolean, target: string) => `   [${ok ? 'PASS' : 'FAIL'}: ${target}]`;
const cont = await heldOutContinuations(model);
console.log(
  `1. greedy continuation of ${cont.total} held-out conversations: ${cont.wellFormed} well-formed, ${cont.exact} equal to the generator's answer${verdict(cont.wellFormed / cont.total >= 0.8, 'well-formed')}`,
);
for (const s of cont.samples) console.log(`     ${s.ok ? 'ok ' : 'BAD'} ${JSON.stringify(s.got)}   (data: ${JSON.stringify(s.expected)})`);
const f = await inertiaFigures(model);
console.log(
  `2. maze example, last answer: diagonal ratio full ${f4(f.diagonalFull)} vs filler ${f4(f.diagonalFiller)}: ×${(f.diagonalFull / f.diagonalFiller).toFixed(2)}${verdict(f.diagonalFull >= 2 * f.diagonalFiller, 'full ≥ 2× filler')}`,
);
console.log(
  `3. sweep over turns under full (turns ${f.turns[0]}..${f.turns[f.turns.length - 1]}): prior share Spearman ρ = ${f.priorSpearman.toFixed(3)}; slope per turn prior ${f4(f.priorSlope)}, user ${f4(f.userSlope)}${verdict(f.priorSpearman >= 0.8, 'ρ ≥ 0.8')}${verdict(f.userSlope < f.priorSlope, 'user rises slower')}`,
);
console.log(`     prior: ${f.prior.map(f4).join(' ')}`);
console.log(`     user:  ${f.user.map(f4).join(' ')}`);
console.log(
  `4. mean diagonal over the turns: ${Object.entries(f.meanDiagonal)
    .map(([k, v]) => `${k} ${f4(v)}`)
    .join(', ')}${verdict(f.meanDiagonal['clip:12:1']! < f.meanDiagonal.full!, 'clip:12:1 < full')}`,
);
const eps = await heldOutEpisodeFigures(model);
const range = (xs: number[], d: number) => `median ${median(xs).toFixed(d)}, range ${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}`;
console.log(`5. the same on ${eps.length} held-out maze episodes (seeds ${eps.map((e) => e.seed).join(', ')}):`);
console.log(
  `     full ÷ filler diagonal: ${range(
    eps.map((e) => e.fillerRatio),
    2,
  )}; prior share ρ over the turns: ${range(
    eps.map((e) => e.priorSpearman),
    3,
  )}`,
);
await model.session.release();

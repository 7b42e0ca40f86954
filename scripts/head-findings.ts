/**
 * `npx tsx scripts/head-findings.ts`: where the demo models' inertia lives (training/head-figures.ts), on the
 * maze example and 12 held-out episodes. Writes docs/bench/heads-demo.json (the test reads it) and prints a summary.
 */
import { writeFileSync } from 'node:fs';
import { dirSource } from '../src/cli/dir-source';
import { CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../src/model/demo';
import { openModel } from '../src/runtime/open-model';
import { ablationFigures, modelHeads } from '../training/head-figures';

const N = 12;
const open = (path: string) => openModel(dirSource(path), { headFigures: true, inspectLayers: 'all', prefer: ['wasm'] });
const [base, cpl] = [await open(DEMO_MODEL_PATH), await open(CPL_MODEL_PATH)];
const out = { episodes: N, base: await modelHeads(base, N), cpl: await modelHeads(cpl, N), ablation: await ablationFigures(base, N) };
writeFileSync('docs/bench/heads-demo.json', `${JSON.stringify(out, null, 1)}\n`);
const f = (v: number) => v.toFixed(4);
console.log('base final-layer heads (example):', out.base.finalHeads.map(f).join(' '));
console.log('base final-layer heads (episodes):', out.base.finalHeadsOnEpisodes.map(f).join(' '));
console.log('cpl  final-layer heads (example):', out.cpl.finalHeads.map(f).join(' '));
console.log('cpl  final-layer heads (episodes):', out.cpl.finalHeadsOnEpisodes.map(f).join(' '));
console.log('top (example):', out.base.top, 'top-3 counts on episodes:', out.base.topOnEpisodes, 'cpl:', out.cpl.top, out.cpl.topOnEpisodes);
console.log('profile:', out.base.profile, out.cpl.profile);
console.log('ablation:', JSON.stringify(out.ablation, null, 1));

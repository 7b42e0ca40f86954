// Writes examples/cache/maze-full.json: the start screen's figures while the demo model loads.
import { readFile, writeFile } from 'node:fs/promises';
import { analyzePolicy } from '../src/analysis/analyze';
import { turnsSweep } from '../src/analysis/sweep';
import { dirSource } from '../src/cli/dir-source';
import { parseConversation } from '../src/conversation/parse';
import { DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from '../src/model/demo';
import { openModel } from '../src/runtime/open-model';

const model = await openModel(dirSource(DEMO_MODEL_PATH));
const conv = parseConversation(await readFile('examples/maze.json', 'utf8')).conversation!;
const r = await analyzePolicy(model, conv, 'full', { keepAttention: 'answer' });
const sweep = await turnsSweep(model, conv, 'full', { known: r });
const round = (v: number) => Number(v.toPrecision(7));
const { attention, ...rest } = r;
const mean = attention!.mean;
const doc = {
  model: DEMO_MODEL_LABEL,
  example: 'maze',
  policy: 'full',
  sweep,
  // The head mean only: per-head rows would make the file several times larger, and a new r or head runs the model.
  result: { ...rest, attention: { layer: attention!.layer, mean: { ...mean, data: Array.from(mean.data, round) }, perHead: null } },
};
await writeFile('examples/cache/maze-full.json', `${JSON.stringify(doc, (_, v) => (v === Infinity ? null : v))}\n`);
console.log(`examples/cache/maze-full.json: ${r.tokens.length} tokens, ${mean.rows} answer rows, diagonal ${r.diagonal.toFixed(4)}`);
await model.session.release();

/**
 * How much q8, q4 and q4g128 weights move the figures: the largest |Δ| of each category share and of the diagonal
 * ratio against the same model in its own precision, on the demo models (trained weights) over their example
 * conversations and policies, and on every family's tiny random checkpoint. Writes docs/bench/quant.md and
 * docs/bench/quant-fidelity.json (the precision selector's "?" reads the latter).
 *   npx tsx scripts/quant-fidelity.ts
 * The full-precision graph is itself within 1e-5 of the float64 reference (tests/model/graph/graph-parity.test.ts),
 * far below these changes, so "against full precision" and "against the reference" read the same.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { analyzePolicy } from '../src/analysis/analyze';
import { figureChange, largestChange, type FigureChange } from '../src/analysis/fidelity';
import { dirSource } from '../src/cli/dir-source';
import { parseConversation } from '../src/conversation/parse';
import type { Conversation } from '../src/conversation/types';
import { CATEGORIES } from '../src/metrics/categories';
import { CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../src/model/demo';
import type { ModelSource } from '../src/model/source/source';
import type { Quant } from '../src/model/precision/quantize';
import { openModel } from '../src/runtime/open-model';
import { FAMILY_CASES } from '../tests/helpers/family-cases';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles } from '../tests/helpers/tiny-model';

const EXAMPLES = ['maze', 'arithmetic', 'mixed-chat'];
const POLICIES = ['full', 'clip:12:1', 'ao'];
const QUANTS = ['q8', 'q4', 'q4g128'] as const;

const conversation = (name: string): Conversation => parseConversation(readFileSync(`examples/${name}.json`, 'utf8')).conversation!;
const TINY_CHAT: Conversation = {
  messages: [
    { role: 'system', content: 'You keep a list.' },
    { role: 'user', content: 'Start a list with ant.' },
    { role: 'assistant', content: 'The list is: ant.' },
    { role: 'user', content: 'Add bee.' },
    { role: 'assistant', content: 'The list is: ant, bee.' },
    { role: 'user', content: 'Add cat.' },
    { role: 'assistant', content: 'The list is: ant, bee, cat.' },
  ],
};

/** The figures of every (conversation, policy) at one precision. */
async function figures(source: () => ModelSource, quant: Quant, convs: Conversation[], policies: string[]) {
  const model = await openModel(source(), { quant });
  const out = [];
  for (const c of convs) for (const p of policies) out.push(await analyzePolicy(model, c, p));
  await model.session.release();
  return out;
}

async function fidelity(source: () => ModelSource, convs: Conversation[], policies: string[]): Promise<Record<string, FigureChange>> {
  const base = await figures(source, 'none', convs, policies);
  const out: Record<string, FigureChange> = {};
  for (const q of QUANTS) {
    const other = await figures(source, q, convs, policies);
    out[q] = largestChange(base.map((b, i) => figureChange(b, other[i]!)));
  }
  return out;
}

const rows: { model: string; over: string; quant: string; change: FigureChange }[] = [];
for (const [name, dir] of [
  ['demo model', DEMO_MODEL_PATH],
  ['CPL twin', CPL_MODEL_PATH],
] as const) {
  const r = await fidelity(() => dirSource(dir), EXAMPLES.map(conversation), POLICIES);
  for (const q of QUANTS) rows.push({ model: name, over: `${EXAMPLES.length} examples × ${POLICIES.join(', ')}`, quant: q, change: r[q]! });
  console.log(`${name} done`);
}
for (const [name, opts] of FAMILY_CASES) {
  const r = await fidelity(() => memorySource(tinyModelFiles(opts)), [TINY_CHAT], ['full', 'ao']);
  for (const q of QUANTS)
    rows.push({ model: `tiny ${name.split(' ')[0]} (seed ${opts.seed})`, over: 'a 3-turn list chat × full, ao', quant: q, change: r[q]! });
}

const f = (v: number) => v.toFixed(4);
const header = `| model | over | precision | ${CATEGORIES.join(' | ')} | diagonal |\n| --- | --- | --- | ${CATEGORIES.map(() => '---:').join(' | ')} | ---: |`;
const lines = rows.map(
  (r) => `| ${r.model} | ${r.over} | ${r.quant} | ${CATEGORIES.map((c) => f(r.change.shares[c])).join(' | ')} | ${f(r.change.diagonal)} |`,
);
const worst = (q: string, tiny: boolean) => largestChange(rows.filter((r) => r.quant === q && r.model.startsWith('tiny') === tiny).map((r) => r.change));
const summary = Object.fromEntries(QUANTS.map((q) => [q, { trained: worst(q, false), tiny: worst(q, true) }]));
writeFileSync('docs/bench/quant-fidelity.json', `${JSON.stringify({ when: new Date().toISOString().slice(0, 10), rows, summary }, null, 1)}\n`);
writeFileSync(
  'docs/bench/quant.md',
  `# Quantized weights: how far the figures move

Latest \`npx tsx scripts/quant-fidelity.ts\` (${new Date().toISOString().slice(0, 10)}, Node wasm): the largest |Δ| of each category
share and of the diagonal ratio (r = 5) at q8, q4 (blocks of 32) and q4g128 (groups of 128) against the same model in its own precision, final layer, head mean.
The demo models have trained weights; the tiny checkpoints are random (their attention is nearly uniform, so their changes are small by nature).

${header}
${lines.join('\n')}

Raw numbers: [quant-fidelity.json](quant-fidelity.json).
`,
);
console.log(`${header}\n${lines.join('\n')}`);

import { readFileSync } from 'node:fs';
import { dirSource } from '../src/cli/dir-source';
import { openModel } from '../src/runtime/open-model';
import { DEMO_MODEL_PATH } from '../src/model/demo';
import { parseConversation } from '../src/conversation/parse';
import { analyzePolicy } from '../src/analysis/analyze';
const model = await openModel(dirSource(DEMO_MODEL_PATH), { headFigures: true });
const conv = parseConversation(readFileSync('examples/maze-wall.json', 'utf8')).conversation!;
const r = await analyzePolicy(model as never, conv, 'full', { keepAttention: 'answer' });
const ph = r.attention!.perHead!;
console.log(Object.keys(ph), r.perHead.map((h) => h.diagonal.toFixed(3)));
const q0 = r.query.start;
const last = r.messages.filter((m) => m.category === 'prior').at(-1)!.content;
for (const head of [0, 1, 2, 3, 4, 5, 6, 7]) {
  console.log('head', head);
  for (let i = 0; i < 14; i++) {
    const row: string[] = [];
    for (let j = 0; j < 14; j++) {
      const v = (ph as any).data[((head * ph.rows) + i) * ph.seqLen + last.start + j] as number;
      row.push(v > 0.3 ? '#' : v > 0.1 ? '+' : v > 0.03 ? '.' : ' ');
    }
    console.log(r.tokens[q0 + i]!.text.padStart(6), '|' + row.join('') + '|');
  }
}

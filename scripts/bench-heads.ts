/**
 * `npm run bench:heads`: what every layer's and head's figures cost. The plain inspection pass (the final
 * layer's per-head rows of the last 64 tokens, as the inspector fetches them) against the same pass in a
 * head-figure graph (what the app builds), without the figures asked for and with them: every layer's attention
 * reduced to each head's shares and diagonal per prior answer (8 answers here). Node wasm, random weights at the
 * demo model's shape and the whole 135M shape (30 layers), 512 and 2,048 tokens. Writes docs/bench/heads.md.
 */
import { writeFileSync } from 'node:fs';
import { headFigureInputs } from '../src/analysis/heads';
import { loadCheckpoint } from '../src/model/checkpoint/checkpoint';
import { resolveWeights } from '../src/model/checkpoint/weights';
import { buildGraph } from '../src/model/graph/graph';
import { median } from '../src/metrics/stats';
import { ModelSession } from '../src/runtime/ort-runtime';
import { BENCH_MODELS, benchIds, inspectionPass } from '../tests/helpers/bench-shapes';
import { memorySource } from '../tests/helpers/memory-source';
import { tinyModelFiles } from '../tests/helpers/tiny-model';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const rows: string[] = [];
for (const shape of ['demo', '135m'] as const) {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ ...BENCH_MODELS[shape]!, dtype: 'BF16' })));
  const { spec } = ckpt;
  const weights = resolveWeights(spec, ckpt);
  const last = spec.numLayers - 1;
  const requests = [512, 2048].map((tokens) => {
    const ids = benchIds(tokens, spec.vocabSize);
    const req = inspectionPass(ids);
    const [a0, a1] = req.attnRows!;
    // Eight prior answers of 40 tokens spread over the context; keys' categories cycle.
    const priors = Array.from({ length: 8 }, (_, k) => ({ start: Math.floor(((k + 1) * (tokens - 64)) / 10), length: 40 }));
    const categories = ids.map((_, j) => (['system', 'user', 'prior', 'current'] as const)[j % 4]!);
    return { tokens, req, withHeads: { ...req, headFigures: headFigureInputs(categories, priors, a1 - a0, 5) } };
  });
  // One session at a time (two of the 135M shape and a 2,048-token pass do not fit one wasm heap).
  const times = new Map<string, number>();
  // The demo shape: each kind's session made twice, in turn, and the faster kept. A session's speed depends on
  // what the wasm heap held before it (the first head-figure session after a plain one ran its 512-token pass
  // at 133 ms, the next one at 79; the plain graph's at 72); the 135M shape's sessions are too large for two rounds.
  const rounds = shape === 'demo' ? 2 : 1;
  for (const kind of Array.from({ length: rounds }, () => ['plain', 'graph', 'heads'] as const).flat()) {
    const session = await ModelSession.create(buildGraph(spec, weights, { inspectLayers: [last], headFigures: kind !== 'plain' }), spec, { prefer: ['wasm'] });
    for (const { tokens, req, withHeads } of requests) {
      const r = kind === 'heads' ? withHeads : req;
      // Two warm-ups: a new session's first passes grow onnxruntime's arena (one left the second kind's 512-token
      // pass at 1.85x the plain one; after a second, 1.0x).
      await session.forward(r);
      await session.forward(r);
      const xs: number[] = [];
      for (let i = 0; i < (tokens >= 2048 ? Math.max(2, REPEATS - 2) : REPEATS); i++) {
        const t0 = performance.now();
        await session.forward(r);
        xs.push(performance.now() - t0);
      }
      times.set(`${kind}-${tokens}`, Math.min(median(xs), times.get(`${kind}-${tokens}`) ?? Infinity));
    }
    await session.release();
  }
  for (const { tokens } of requests) {
    const [p, g, h] = [times.get(`plain-${tokens}`)!, times.get(`graph-${tokens}`)!, times.get(`heads-${tokens}`)!];
    const line = `| ${shape} (${spec.numLayers} layers × ${spec.numHeads} heads) | ${tokens} | ${p.toFixed(0)} | ${g.toFixed(0)} | ${(g / p).toFixed(2)} | ${h.toFixed(0)} | ${(h / p).toFixed(2)} |`;
    console.log(line);
    rows.push(line);
  }
}
writeFileSync(
  'docs/bench/heads.md',
  `# Every layer and head in one pass: the cost\n\nLatest \`npm run bench:heads\` (${new Date().toISOString().slice(0, 10)}), Node wasm on this 2-core machine, medians after two warm-up runs. The plain inspection pass against the same pass in a head-figure graph (the graph the app builds), first without the figures asked for (what every pass of the app costs now), then with every layer's attention reduced to each head's five shares and its diagonal per prior answer (8 answers). Target: at most 1.15×.\n\n| model shape | tokens | plain pass (ms) | head-figure graph, figures not asked (ms) | ratio | with every layer's head figures (ms) | ratio |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n`,
);

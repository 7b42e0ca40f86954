import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { generateAnswer, withAnswer } from '../../src/analysis/answer';
import { answerOf } from '../../src/export/figures';
import { greedyGenerate } from '../../src/analysis/generate';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { DEMO_MODEL_PATH } from '../../src/model/demo';
import { referenceForward } from '../../src/model/graph/reference';
import { openModel } from '../../src/runtime/open-model';

describe('generation on the KV cache (demo model)', () => {
  it('writes the same tokens as re-running the whole forward, which are the float64 reference argmax', async () => {
    const model = await openModel(dirSource(DEMO_MODEL_PATH));
    expect(model.graph.kvCache).toBe(true);
    const conv = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!;
    const prompt = model.tokenizer.encode(
      model.tokenizer.render(
        conv.messages.slice(0, 4).map(({ role, content }) => ({ role, content })),
        true,
      ),
    );
    const cached = await greedyGenerate(model.session, prompt, { maxTokens: 12, stopIds: [] });
    const rerun = await greedyGenerate(model.session, prompt, { maxTokens: 12, stopIds: [], noCache: true });
    expect(cached).toEqual(rerun);
    // Independent check: the reference's argmax at each step.
    const ids = [...prompt];
    const V = model.checkpoint.spec.vocabSize;
    for (let i = 0; i < 4; i++) {
      const ref = await referenceForward(model.checkpoint.spec, model.weights, ids);
      const last = ref.logits.subarray((ids.length - 1) * V);
      let best = 0;
      for (let v = 1; v < V; v++) if (last[v]! > last[best]!) best = v;
      expect(cached[i]).toBe(best);
      ids.push(best);
    }
    // And through the analysis layer: the answer the app streams.
    const answer = await generateAnswer(model, conv, 'full', 2);
    expect(answer.length).toBeGreaterThan(0);
    // Scored in place of the conversation's own, it is marked as the model's, as every export then says.
    const scored = await analyzePolicy(model, withAnswer(conv, 2, answer), 'ao', { turn: 2 });
    expect(scored.messages[scored.messages.length - 1]).toMatchObject({ kind: 'current', generated: true });
    expect(answerOf(scored)).toBe('model');
    expect(answerOf(await analyzePolicy(model, conv, 'ao', { turn: 2 }))).toBe('conversation');
    await model.session.release();
  });
});

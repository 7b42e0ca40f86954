import { beforeAll, describe, expect, it } from 'vitest';
import { generateAnswer } from '../../src/analysis/answer';
import { parseConversation } from '../../src/conversation/parse';
import { answerOf } from '../../src/export/figures';
import { openModel } from '../../src/runtime/open-model';
import { setModelClient } from '../../src/state/model-client';
import { unanswered, useInspector } from '../../src/state/inspector-store';
import { useModelStore } from '../../src/state/model-store';
import { inProcessClient, memoryFiles } from '../helpers/in-process-worker';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';

const idle = () =>
  new Promise<void>((resolve) => {
    const check = () => {
      const s = useInspector.getState();
      if (!s.analyzing && !s.sweeping && !s.generating && useModelStore.getState().load.status !== 'loading')
        setTimeout(() => (useInspector.getState().analyzing ? check() : resolve()), 400);
      else setTimeout(check, 50);
    };
    check();
  });

describe('a conversation that ends with a user message', () => {
  const files = tinyModelFiles({ family: 'llama', heads: 4, kvHeads: 2, layers: 2, seed: 61 });
  beforeAll(async () => {
    setModelClient(inProcessClient());
    await useModelStore.getState().loadModel(memoryFiles(files));
    expect(useModelStore.getState().load.error).toBeNull();
  });

  it('is answered by the model on request: the answer is added to the conversation, marked as the model’s, and scored', async () => {
    const text = 'User: Position (0,0).\nAssistant: Action: east\nUser: Position (1,0).';
    useInspector.getState().setText(text, true);
    await idle();
    expect(unanswered(useInspector.getState())).toBe(1);
    expect(
      useInspector
        .getState()
        .parsed.issues.map((i) => i.text)
        .join(),
    ).toContain('not scored');
    await useInspector.getState().answerLast();
    await idle();
    const s = useInspector.getState();
    const messages = s.parsed.conversation!.messages;
    expect(messages).toHaveLength(4);
    expect(messages[3]).toMatchObject({ role: 'assistant', generated: true });
    expect(unanswered(s)).toBe(0);
    // The same greedy answer as the model gives outside the app, for the same context.
    const reference = await openModel(memorySource(files));
    const conv = parseConversation(text).conversation!;
    const want = await generateAnswer(reference, { messages: [...conv.messages, { role: 'assistant', content: '' }] }, 'full', 2);
    await reference.session.release();
    expect(messages[3]!.content).toBe(want || '(empty)');
    // Scored as the last turn, and every export says whose answer it was; the mark survives a save and paste.
    expect(s.results[0]!.turn).toBe(2);
    expect(answerOf(s.results[0]!)).toBe('model');
    expect(parseConversation(s.text).conversation!.messages[3]!.generated).toBe(true);
  });
});

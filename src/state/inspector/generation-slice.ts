import { STALE_MODEL } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { modelClient } from '../model-client';
import { useModelStore } from '../model-store';
import { activePolicies, scoredTurn, unanswered, type GenerationSlice, type Slice } from './types';

/** The generation under way in the worker, cancelled when something newer starts. */
let generationCall: Call<unknown> | null = null;

export const generationSlice: Slice<GenerationSlice> = (set, get) => ({
  generated: {},
  generating: null,
  async generate() {
    const info = useModelStore.getState().info;
    const s = get();
    const conversation = s.parsed.conversation;
    const turn = scoredTurn(s);
    if (!info || !conversation || turn === null) return;
    generationCall?.cancel();
    const generated = { ...s.generated };
    let call: Call<string> | null = null;
    try {
      for (const spec of activePolicies(s)) {
        set({ generating: { policy: spec, text: '' } });
        call = modelClient().call('generate', { modelId: info.modelId, conversation, policy: spec, turn }, (text) => generationCall === call && set({ generating: { policy: spec, text } }));
        generationCall = call;
        generated[spec] = await call.promise;
        if (generationCall !== call) return;
      }
      generationCall = null;
      set({ generated, generating: null });
      get().scheduleAnalysis();
    } catch (e) {
      if (generationCall === call && (e as Error)?.name !== STALE_MODEL) set({ generating: null, analysisError: (e as Error).message });
    }
  },
  async answerLast() {
    const info = useModelStore.getState().info;
    const s = get();
    const conversation = s.parsed.conversation;
    if (!info || !conversation || unanswered(s) === 0) return;
    generationCall?.cancel();
    const spec = activePolicies(s)[0]!;
    // A turn for the answer to come: its context is everything before it, as for any answer the model writes.
    const open = { messages: [...conversation.messages, { role: 'assistant' as const, content: '' }] };
    const turn = open.messages.filter((m) => m.role === 'assistant').length;
    let call: Call<string> | null = null;
    try {
      set({ generating: { policy: spec, text: '' } });
      call = modelClient().call('generate', { modelId: info.modelId, conversation: open, policy: spec, turn }, (text) => generationCall === call && set({ generating: { policy: spec, text } }));
      generationCall = call;
      const answer = await call.promise;
      if (generationCall !== call) return;
      generationCall = null;
      set({ generating: null });
      // Written into the conversation, so it is scored as its last answer, saved with it, and marked as the model's.
      get().setMessages([...conversation.messages, { role: 'assistant', content: answer || '(empty)', generated: true }]);
      get().setTurn(null);
    } catch (e) {
      if (generationCall === call && (e as Error)?.name !== STALE_MODEL) set({ generating: null, analysisError: (e as Error).message });
    }
  },
  clearGenerated() {
    get().stopGeneration();
    set({ generated: {} });
    get().scheduleAnalysis();
  },
  stopGeneration() {
    generationCall?.cancel();
    generationCall = null;
    set({ generating: null });
  },
});

import type { Conversation } from '../../conversation/types';
import { STALE_MODEL } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { modelClient, type ModelSlot } from '../model-client';
import { modelStores, useModelStore } from '../model-store';
import { activePolicies, generatedIn, scoredTurn, unanswered, type GenerationSlice, type Slice } from './types';

export const generationSlice: Slice<GenerationSlice> = (set, get) => {
  /** The generation under way in a worker, cancelled when something newer starts. */
  let generationCall: Call<unknown> | null = null;

  /**
   * One answer written by the model in the worker, streamed into `generating`; null when something newer
   * took over (that newer call owns the state). Errors other than a model change are shown.
   */
  const write = async (modelId: number, conversation: Conversation, policy: string, turn: number, slot: ModelSlot = 0): Promise<string | null> => {
    set({ generating: { policy, text: '', slot } });
    const call: Call<string> = modelClient(slot).call(
      'generate',
      { modelId, conversation, policy, turn },
      (text) => generationCall === call && set({ generating: { policy, text, slot } }),
    );
    generationCall = call;
    try {
      const answer = await call.promise;
      return generationCall === call ? answer : null;
    } catch (e) {
      if (generationCall === call && (e as Error)?.name !== STALE_MODEL) set({ generating: null, analysisError: (e as Error).message });
      return null;
    }
  };

  return {
    generated: [],
    generating: null,
    async generate() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      const turn = scoredTurn(s);
      if (!info || !conversation || turn === null) return;
      generationCall?.cancel();
      const generated = [{ ...generatedIn(s, 0) }];
      for (const spec of activePolicies(s)) {
        const answer = await write(info.modelId, conversation, spec, turn);
        if (answer === null) return;
        generated[0]![spec] = answer;
      }
      // Compare models: each compared model writes its own answer under the same policy, and its figures score it.
      const spec = activePolicies(s)[0]!;
      for (const [slot, store] of modelStores().entries()) {
        if (slot === 0) continue;
        const other = s.compareModels ? store.getState().info : null;
        generated[slot] = { ...generatedIn(s, slot) };
        if (!other) continue;
        const answer = await write(other.modelId, conversation, spec, turn, slot);
        if (answer === null) return;
        generated[slot]![spec] = answer;
      }
      generationCall = null;
      set({ generated, generating: null });
      get().scheduleAnalysis();
    },
    async answerLast() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      if (!info || !conversation || unanswered(s) === 0) return;
      generationCall?.cancel();
      // A turn for the answer to come: its context is everything before it, as for any answer the model writes.
      const open = { messages: [...conversation.messages, { role: 'assistant' as const, content: '' }] };
      const answer = await write(info.modelId, open, activePolicies(s)[0]!, open.messages.filter((m) => m.role === 'assistant').length);
      if (answer === null) return;
      generationCall = null;
      set({ generating: null });
      // Written into the conversation, so it is scored as its last answer, saved with it, and marked as the model's.
      get().setMessages([...conversation.messages, { role: 'assistant', content: answer || '(empty)', generated: true }]);
      get().setTurn(null);
    },
    clearGenerated() {
      get().stopGeneration();
      set({ generated: [] });
      get().scheduleAnalysis();
    },
    stopGeneration() {
      generationCall?.cancel();
      generationCall = null;
      set({ generating: null });
    },
  };
};

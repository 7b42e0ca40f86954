import type { Conversation } from '../../conversation/types';
import { STALE_MODEL } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { modelClient, type ModelSlot } from '../model-client';
import { useModelBStore, useModelStore } from '../model-store';
import { activePolicies, scoredTurn, unanswered, type GenerationSlice, type Slice } from './types';

/** The generation under way in the worker, cancelled when something newer starts. */
let generationCall: Call<unknown> | null = null;

export const generationSlice: Slice<GenerationSlice> = (set, get) => {
  /**
   * One answer written by the model in the worker, streamed into `generating`; null when something newer
   * took over (that newer call owns the state). Errors other than a model change are shown.
   */
  const write = async (modelId: number, conversation: Conversation, policy: string, turn: number, slot: ModelSlot = 'a'): Promise<string | null> => {
    const model = slot === 'b' ? { model: 'b' as const } : {};
    set({ generating: { policy, text: '', ...model } });
    const call: Call<string> = modelClient(slot).call('generate', { modelId, conversation, policy, turn }, (text) => generationCall === call && set({ generating: { policy, text, ...model } }));
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
    generated: {},
    generatedB: {},
    generating: null,
    async generate() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      const turn = scoredTurn(s);
      if (!info || !conversation || turn === null) return;
      generationCall?.cancel();
      const generated = { ...s.generated };
      for (const spec of activePolicies(s)) {
        const answer = await write(info.modelId, conversation, spec, turn);
        if (answer === null) return;
        generated[spec] = answer;
      }
      // Compare models: model B writes its own answer under the same policy, and its figures score it.
      const infoB = s.compareModels ? useModelBStore.getState().info : null;
      const generatedB = { ...s.generatedB };
      if (infoB) {
        const spec = activePolicies(s)[0]!;
        const answer = await write(infoB.modelId, conversation, spec, turn, 'b');
        if (answer === null) return;
        generatedB[spec] = answer;
      }
      generationCall = null;
      set({ generated, generatedB, generating: null });
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
      set({ generated: {}, generatedB: {} });
      get().scheduleAnalysis();
    },
    stopGeneration() {
      generationCall?.cancel();
      generationCall = null;
      set({ generating: null });
    },
  };
};

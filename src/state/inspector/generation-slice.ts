import { type AblationKind, type HeadRef, inHeadOrder } from '../../analysis/ablation';
import type { Conversation } from '../../conversation/types';
import { STALE_MODEL, type Generation } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { modelClient, type ModelSlot } from '../model-client';
import { modelStores, useModelStore } from '../model-store';
import { activePolicies, generatedIn, scoredTurn, unanswered, type GenerationSlice, type InspectorState, type Slice } from './types';

type Set = Parameters<Slice<GenerationSlice>>[0];

/**
 * The generation under way in a worker (cancelled when something newer starts), and how one answer is
 * written: streamed into `generating`, null when something newer took over (that newer call owns the
 * state). Errors other than a model change are shown.
 */
class Writer {
  call: Call<unknown> | null = null;
  constructor(private readonly set: Set) {}

  async write(
    modelId: number,
    conversation: Conversation,
    policy: string,
    turn: number,
    slot: ModelSlot = 0,
    off: HeadRef[] = [],
    offKind: AblationKind = 'zero',
  ): Promise<string | null> {
    const set = this.set;
    const since = performance.now();
    set({ generating: { policy, text: '', slot, tokens: 0, since } });
    const call: Call<Generation> = modelClient(slot).call(
      'generate',
      { modelId, conversation, policy, turn, off, offKind },
      ({ text, tokens }) => this.call === call && set({ generating: { policy, text, slot, tokens, since } }),
    );
    this.call = call;
    try {
      const answer = await call.promise;
      if (this.call !== call) return null;
      set({ lastGeneration: { policy, slot, tokens: answer.tokens, ms: performance.now() - since, stop: answer.stop } });
      return answer.text;
    } catch (e) {
      if (this.call === call && (e as Error)?.name !== STALE_MODEL) set({ generating: null, analysisError: (e as Error).message });
      return null;
    }
  }

  cancel(): void {
    this.call?.cancel();
    this.call = null;
  }
}

export const generationSlice: Slice<GenerationSlice> = (set, get) => {
  const w = new Writer(set);
  const write = w.write.bind(w);

  return {
    generated: [],
    generating: null,
    lastGeneration: null,
    offAnswers: null,
    answerWithHeadsOff: (control) => answerWithHeadsOff(w, set, get, control),
    async generate() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      const turn = scoredTurn(s);
      if (!info || !conversation || turn === null) return;
      w.call?.cancel();
      const generated = [{ ...generatedIn(s, 0) }];
      for (const spec of activePolicies(s)) {
        // Written as the figures score it: with the heads switched off, if any.
        const answer = await write(info.modelId, conversation, spec, turn, 0, s.off, s.offKind);
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
      w.call = null;
      set({ generated, generating: null });
      get().scheduleAnalysis();
    },
    async answerLast() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      if (!info || !conversation || unanswered(s) === 0) return;
      w.call?.cancel();
      // A turn for the answer to come: its context is everything before it, as for any answer the model writes.
      const open = { messages: [...conversation.messages, { role: 'assistant' as const, content: '' }] };
      const answer = await write(info.modelId, open, activePolicies(s)[0]!, open.messages.filter((m) => m.role === 'assistant').length);
      if (answer === null) return;
      w.call = null;
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
      w.cancel();
      set({ generating: null });
    },
  };
};

/**
 * The first policy's answer written twice, with every head on and with the heads switched off; with `control`,
 * a third time with those heads off instead (the same number of other heads: is it those heads, or any?).
 */
async function answerWithHeadsOff(w: Writer, set: Set, get: () => InspectorState, control?: HeadRef[]): Promise<void> {
  const info = useModelStore.getState().info;
  const s = get();
  const conversation = s.parsed.conversation;
  const turn = scoredTurn(s);
  if (!info || !conversation || turn === null || !s.off.length) return;
  w.call?.cancel();
  set({ offAnswers: null });
  const policy = activePolicies(s)[0]!;
  const withAll = await w.write(info.modelId, conversation, policy, turn);
  if (withAll === null) return;
  const withOff = await w.write(info.modelId, conversation, policy, turn, 0, s.off, s.offKind);
  if (withOff === null) return;
  const controlOff = control?.length ? await w.write(info.modelId, conversation, policy, turn, 0, control, s.offKind) : undefined;
  if (controlOff === null) return;
  w.call = null;
  set({
    generating: null,
    offAnswers: {
      policy,
      turn,
      off: s.off,
      withAll,
      withOff,
      // Listed in the order `off` is kept in.
      ...(control && controlOff !== undefined && { control: { off: inHeadOrder(control), withOff: controlOff } }),
    },
  });
}

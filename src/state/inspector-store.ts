import { create } from 'zustand';
import { analysisSlice } from './inspector/analysis-slice';
import { conversationSlice } from './inspector/conversation-slice';
import { generationSlice } from './inspector/generation-slice';
import type { InspectorState } from './inspector/types';
import { viewSlice } from './inspector/view-slice';
import { modelStores, useModelStore } from './model-store';

export { activePolicies, scoredTurn, unanswered, type InspectorState } from './inspector/types';

/**
 * The inspector's state, in slices (state/inspector/): the conversation as typed, the view (what a link
 * carries), the analysis job, generation. Hover has a store of its own (hover-store.ts).
 */
export const useInspector = create<InspectorState>()((...a) => ({
  ...conversationSlice(...a),
  ...viewSlice(...a),
  ...analysisSlice(...a),
  ...generationSlice(...a),
}));

// A new load stops the old model's work (a sweep over turns can take minutes on a software adapter,
// and it would hold the device the new session needs); the loaded model scores what is on screen.
useModelStore.subscribe((s, prev) => {
  if (s.load.status === 'loading' && prev.load.status !== 'loading') {
    useInspector.getState().stopAnalysis();
    useInspector.getState().stopGeneration();
  }
  if (s.info && s.info !== prev.info) void useInspector.getState().analyze();
  // The model was released (its worker stopped, or a model that fits only alone replaces it): its figures go with it.
  if (!s.info && prev.info && useInspector.getState().resultsFrom === 'model')
    useInspector.setState({ results: [], resultsFrom: null, sweeps: [], sweeping: null, analyzing: false });
});
// A compared model that loaded (or went) changes what is compared.
for (const store of modelStores().slice(1)) {
  store.subscribe((s, prev) => {
    if (s.info !== prev.info && useInspector.getState().compareModels) useInspector.getState().scheduleAnalysis();
  });
}

import type { PolicyResult } from '../../analysis/analyze';
import type { LayerSweep, SweepPoint } from '../../analysis/sweep';
import { atRadius, sweepAtRadius } from '../../analysis/rescore';
import { STALE_MODEL } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { cachedStartResult } from '../cached-result';
import { START_EXAMPLE } from '../examples';
import { FULL_MATRIX_MAX_TOKENS } from '../limits';
import { modelClient, type ModelSlot } from '../model-client';
import { mark, useModelBStore, useModelStore, type ModelInfo } from '../model-store';
import { activePolicies, scoredTurn, type AnalysisSlice, type InspectorState, type Slice } from './types';

const cachedStart = cachedStartResult();

/** A model as the results depend on it: its slot (each has its own worker and ids), which one, and the date its template writes. */
const modelKey = (info: ModelInfo | null, slot: ModelSlot = 'a') => (info ? [slot, info.modelId, info.templateDate] : null);

/** What a sweep was computed for: the model, the text, the policy and the turn (the layers come together; the radius is re-read). */
function sweepKey(info: ModelInfo | null, text: string, generated: string | undefined, r: PolicyResult, slot: ModelSlot = 'a'): string {
  return JSON.stringify([modelKey(info, slot), text, generated ?? null, r.policy, r.turn, r.tokens.length]);
}

// Newest request wins: a slower, older analysis never overwrites a newer one.
let latest = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** The sweep under way in the worker, cancelled when a newer analysis starts. */
let sweepCall: Call<unknown> | null = null;
const isStale = (e: unknown) => (e as Error)?.name === STALE_MODEL;

/**
 * Results already computed, so a change that needs no new pass needs none: a policy added to compare (or
 * compare turned off), a layer the last pass fetched, a radius (re-read from the attention kept). Keyed
 * by everything a pass depends on.
 */
const RESULTS_KEPT = 24;
const results = new Map<string, PolicyResult>();
function resultKey(info: ModelInfo, text: string, answer: string | undefined, spec: string, turn: number, layer: number, fullMatrix: boolean, slot: ModelSlot = 'a'): string {
  return JSON.stringify([modelKey(info, slot), text, answer ?? null, spec, turn, layer, fullMatrix]);
}
function keepResult(key: string, r: PolicyResult): void {
  results.delete(key);
  results.set(key, r);
  while (results.size > RESULTS_KEPT) results.delete(results.keys().next().value!);
}
/** The last sweep, every layer it fetched, with each turn's answer rows (so a layer or a radius needs no pass). */
let sweeps: { key: string; byLayer: Map<number, LayerSweep> } | null = null;
/** A computed sweep read at a layer and a radius, or null when it was not computed for that layer. */
function sweepAt(key: string, layer: number, radius: number): SweepPoint[] | null {
  const l = sweeps?.key === key ? sweeps.byLayer.get(layer) : undefined;
  return l ? sweepAtRadius(l.points, l.rows, radius) : null;
}

/** The answer a slot's model wrote for a policy (it replaces the file's), if any. */
const answerIn = (s: InspectorState, slot: ModelSlot, spec: string) => (slot === 'b' ? s.generatedB : s.generated)[spec];

/** A result as the sweep reuses it: its answer rows (the head mean), not every head. */
const withoutHeads = (r: PolicyResult): PolicyResult => (r.attention ? { ...r, attention: { ...r.attention, perHead: null } } : r);

/** The layers one pass fetches: every layer the graph has (a few, for small models), so the layer selector re-reads them; the full matrix only the one shown. */
const layersFor = (s: InspectorState, info: ModelInfo, layer: number) => (s.fullMatrix || info.inspectLayers.length > 8 ? [layer] : info.inspectLayers);

export const analysisSlice: Slice<AnalysisSlice> = (set, get) => {
  /** Paper 2's Fig. 2 for the first active policy, reusing the turn just scored. */
  async function sweepFor(id: number, info: ModelInfo, known: PolicyResult) {
    const s = get();
    const conversation = s.parsed.conversation;
    if (!conversation) return;
    const answer = s.generated[known.policy];
    const key = sweepKey(info, s.text, answer, known);
    // Computed already for this layer (at any radius): re-read, no pass.
    const ready = sweepAt(key, known.layer, known.radius);
    if (ready) return void set({ sweep: { policy: known.policy, key, radius: known.radius, points: ready }, sweeping: null });
    set((st) => ({ sweeping: { done: 0, total: Math.max(0, known.turn - 1) }, sweep: st.sweep?.key === key ? st.sweep : null }));
    try {
      // Every layer the analysis fetched; the scored turn's results are reused.
      const layers = layersFor(s, info, known.layer);
      const knownLayers = layers.map((l) => results.get(resultKey(info, s.text, answer, known.policy, known.turn, l, s.fullMatrix))).filter((r): r is PolicyResult => r !== undefined);
      const call = modelClient().call('sweep', {
        modelId: info.modelId, conversation, ...(answer !== undefined && { answer }), policy: known.policy, turn: known.turn,
        layers: [known.layer, ...layers.filter((l) => l !== known.layer)], radius: known.radius, known: [known, ...knownLayers].map(withoutHeads),
      }, ({ done, total }) => id === latest && set({ sweeping: { done, total } }));
      sweepCall = call;
      const byLayer = await call.promise;
      if (id === latest) {
        sweeps = { key, byLayer };
        const radius = get().radius;
        set({ sweep: { policy: known.policy, key, radius, points: sweepAt(key, known.layer, radius) ?? byLayer.get(known.layer)!.points }, sweeping: null });
      }
    } catch (e) {
      if (id === latest && !isStale(e)) set({ sweeping: null, analysisError: `rounds sweep: ${(e as Error).message}` });
    }
  }

  /**
   * The tokens-per-round series of each shown result (paper 1's Fig. 4): the analysis sends the scored
   * round only, so the figures do not wait for two template renders per round; the series follows.
   */
  async function costsFor(id: number, shown: PolicyResult[]) {
    const s = get();
    const conversation = s.parsed.conversation;
    if (!conversation) return;
    for (const r of shown) {
      if (r.cost.length >= r.turn) continue;
      const slot = r.model ?? 'a';
      const info = (slot === 'b' ? useModelBStore : useModelStore).getState().info;
      if (!info) return;
      try {
        const answer = answerIn(s, slot, r.policy);
        const cost = await modelClient(slot).call('cost', { modelId: info.modelId, conversation, ...(answer !== undefined && { answer }), policy: r.policy, turn: r.turn }).promise;
        if (id !== latest) return;
        // One pass's results (every layer it fetched) share their token list: each kept one gets the series.
        for (const [k, v] of results) if (v.tokens === r.tokens) results.set(k, { ...v, cost });
        const same = (x: PolicyResult) => x.policy === r.policy && x.turn === r.turn && x.model === r.model && x.tokens === r.tokens;
        set((st) => ({ results: st.results.map((x) => (same(x) ? { ...x, cost } : x)) }));
      } catch (e) {
        if (id === latest && !isStale(e)) set({ analysisError: `tokens per round: ${(e as Error).message}` });
      }
    }
  }

  /** Compare models: model B's sweep under the same policy, after model A's (each worker runs its own). */
  async function sweepOfB(id: number, known: PolicyResult | undefined) {
    const info = useModelBStore.getState().info;
    const s = get();
    const conversation = s.parsed.conversation;
    if (!known) return void set({ sweepB: null });
    if (!info || !conversation || id !== latest) return;
    // Its points are read at the radius they were computed for (no re-read kept for B).
    const answer = answerIn(s, 'b', known.policy);
    const key = `${sweepKey(info, s.text, answer, known, 'b')}@${known.radius}`;
    if (s.sweepB?.key === key) return;
    try {
      const byLayer = await modelClient('b').call('sweep', {
        modelId: info.modelId, conversation, ...(answer !== undefined && { answer }), policy: known.policy, turn: known.turn, layers: [known.layer], radius: known.radius, known: [withoutHeads(known)],
      }).promise;
      if (id === latest) set({ sweepB: { key, points: byLayer.get(known.layer)!.points } });
    } catch (e) {
      if (id === latest && !isStale(e)) set({ sweepB: null, analysisError: `model B's rounds sweep: ${(e as Error).message}` });
    }
  }

  return {
    results: [cachedStart.result],
    resultsFrom: 'cache',
    resultsText: START_EXAMPLE.text,
    analyzing: false,
    stale: false,
    analysisError: null,
    analysisMs: null,
    sweep: { policy: cachedStart.policy, key: sweepKey(null, START_EXAMPLE.text, undefined, cachedStart.result), radius: cachedStart.result.radius, points: cachedStart.sweep },
    sweeping: null,
    sweepB: null,

    scheduleAnalysis(delayMs = 0) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void get().analyze(), delayMs);
    },

    rereadRadius(r) {
      const s = get();
      const rescored = s.results.map((x) => atRadius(x, r));
      const r0 = s.results[0];
      const sweep = s.sweep && r0 ? sweepAt(s.sweep.key, r0.layer, r) : null;
      if (!rescored.every((x): x is PolicyResult => x !== null) || (s.sweep && !sweep)) return false;
      set({ radius: r, results: rescored, sweepB: null, ...(s.sweep && sweep && { sweep: { ...s.sweep, radius: r, points: sweep } }) });
      // Model B's sweep is computed again at this radius (its rows are not kept).
      void sweepOfB(latest, rescored.find((x) => x.model === 'b'));
      return true;
    },

    stopAnalysis() {
      latest++;
      sweepCall?.cancel();
      set({ analyzing: false, sweeping: null });
    },

    async analyze() {
      const info = useModelStore.getState().info;
      const s = get();
      const conversation = s.parsed.conversation;
      const id = ++latest;
      sweepCall?.cancel();
      if (!info || !conversation) {
        // Nothing to score yet; the cached start figures stay only while they describe what is on screen.
        if (s.resultsFrom === 'cache' && !(s.exampleName === cachedStart.example && activePolicies(s).join() === cachedStart.policy && s.turn === null)) set({ results: [], resultsFrom: null });
        set({ analyzing: false, stale: !conversation && get().results.length > 0 });
        return;
      }
      const turn = scoredTurn(s);
      if (turn === null) {
        set({ results: [], resultsFrom: null, analyzing: false, analysisError: 'the conversation has no assistant answer to score: add one (or mark one) in the editor' });
        return;
      }
      const t0 = performance.now();
      // An earlier refusal was of the earlier request: this one gets its own answer.
      set({ analyzing: true, analysisError: null });
      try {
        const layer = s.layer ?? info.spec.numLayers - 1;
        const layers = layersFor(s, info, layer);
        const out: PolicyResult[] = [];
        /** One policy scored by the model in a slot, or the result kept from an earlier request. */
        const score = async (slot: ModelSlot, m: ModelInfo, spec: string, at: number, asked: number[]): Promise<PolicyResult | null> => {
          const answer = answerIn(s, slot, spec);
          const key = (l: number) => resultKey(m, s.text, answer, spec, turn, l, s.fullMatrix, slot);
          const kept = results.get(key(at));
          if (kept) return kept;
          const all = await modelClient(slot).call('analyze', {
            modelId: m.modelId, conversation, ...(answer !== undefined && { answer }), policy: spec, turn,
            layers: asked, radius: s.radius, keep: s.fullMatrix ? 'all' : 'answer', fullMatrixMaxTokens: FULL_MATRIX_MAX_TOKENS,
          }).promise;
          if (id !== latest) return null;
          const tagged = slot === 'b' ? all.map((x) => ({ ...x, model: 'b' as const, label: `${x.label} · model B` })) : all;
          for (const x of tagged) keepResult(key(x.layer), x);
          return tagged.find((x) => x.layer === at)!;
        };
        for (const spec of activePolicies(s)) {
          const r = await score('a', info, spec, layer, layers.includes(layer) ? layers : [layer]);
          if (!r) return;
          out.push(r);
        }
        // Compare models: the same conversation, turn and policy scored by model B, at its own final layer.
        const infoB = s.compareModels ? useModelBStore.getState().info : null;
        let errorB: string | null = null;
        if (infoB) {
          const lastB = infoB.spec.numLayers - 1;
          try {
            const r = await score('b', infoB, out[0]!.policy, lastB, [lastB]);
            if (!r) return;
            out.push(r);
          } catch (e) {
            // Model A's figures stand; B's failure is said as B's.
            if (isStale(e)) return;
            errorB = `model B: ${(e as Error).message}`;
          }
        }
        // The radius may have changed while the passes ran: it is re-read, not recomputed.
        const radius = get().radius;
        const shown = out.map((r) => atRadius(r, radius) ?? r);
        set({ results: shown, resultsFrom: 'model', resultsText: s.text, analyzing: false, stale: false, analysisError: errorB, analysisMs: performance.now() - t0 });
        mark('figures: shown');
        void costsFor(id, shown);
        void sweepFor(id, info, shown[0]!).then(() => sweepOfB(id, shown.find((r) => r.model === 'b')));
      } catch (e) {
        // Figures already on screen are of the view before this one: marked as such, not passed off as its own.
        if (id === latest && !isStale(e)) set({ analyzing: false, analysisError: (e as Error).message, stale: get().results.length > 0 });
      }
    },
  };
};

import type { PolicyResult } from '../../analysis/analyze';
import type { RoundCost } from '../../context/cost';
import { STALE_MODEL, type InspectEvent } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { cachedStartResult } from '../cached-result';
import { START_EXAMPLE } from '../examples';
import { FULL_MATRIX_MAX_TOKENS } from '../limits';
import { modelClient, slotName, type ModelSlot } from '../model-client';
import { mark, modelStores, type ModelInfo } from '../model-store';
import { activePolicies, generatedIn, sameSweepOf, scoredTurn, type AnalysisSlice, type InspectorState, type Slice, type SweepOf } from './types';

const cachedStart = cachedStartResult();
const isStale = (e: unknown) => (e as Error)?.name === STALE_MODEL;

/** The layers one pass fetches: every layer the graph has (a few, for small models), so the layer selector re-reads them; the full matrix only the one shown. */
const layersFor = (s: InspectorState, info: ModelInfo, layer: number) => (s.fullMatrix || info.inspectLayers.length > 8 ? [layer] : info.inspectLayers);

/** A compared model's result, named as such. */
const tagged = (r: PolicyResult, slot: ModelSlot): PolicyResult => (slot === 0 ? r : { ...r, slot, label: `${r.label} · model ${slotName(slot)}` });

/** The models that score this view: the first, and in compare-models mode every other slot with a model loaded. */
function slotsToScore(s: InspectorState): { slot: ModelSlot; info: ModelInfo }[] {
  const infos = modelStores().map((m, slot) => ({ slot, info: m.getState().info }));
  return infos.filter((x): x is { slot: ModelSlot; info: ModelInfo } => x.info !== null && (x.slot === 0 || s.compareModels));
}

export const analysisSlice: Slice<AnalysisSlice> = (set, get) => {
  // Newest request wins: a slower, older one never overwrites a newer one.
  let latest = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Each slot's request in its worker, cancelled when a newer one starts. */
  const calls = new Map<ModelSlot, Call<void>>();
  /** The request whose figures are on screen, and series that came before them (slot|policy → series). */
  let shownFor = 0;
  const early = new Map<string, RoundCost[]>();
  const withCost = (r: PolicyResult, cost: RoundCost[] | undefined): PolicyResult => (cost ? { ...r, cost } : r);
  const cancelAll = () => {
    for (const c of calls.values()) c.cancel();
    calls.clear();
  };

  /**
   * One slot's request: resolves with its figures (the first event), then keeps setting what later events
   * bring (each policy's series, the sweep) while this is the newest request.
   */
  function inspect(id: number, slot: ModelSlot, info: ModelInfo, s: InspectorState, turn: number): Promise<PolicyResult[]> {
    const conversation = s.parsed.conversation!;
    const policies = slot === 0 ? activePolicies(s) : activePolicies(s).slice(0, 1);
    const layer = slot === 0 ? (s.layer ?? info.spec.numLayers - 1) : info.spec.numLayers - 1;
    const generated = generatedIn(s, slot);
    const of: SweepOf = [info.modelId, s.text, generated[policies[0]!] ?? null, policies[0]!, turn, layer];
    // A curve of something else goes now; one of the same stays until the new one comes.
    set((st) => ({ sweeps: withSlot(st.sweeps, slot, st.sweeps[slot] && sameSweepOf(st.sweeps[slot]!.of, of) ? st.sweeps[slot]! : null) }));
    return new Promise<PolicyResult[]>((resolve, reject) => {
      const onEvent = (e: InspectEvent) => {
        if (id !== latest) return;
        if (e.kind === 'figures') resolve(e.results.map((r) => tagged(r, slot)));
        else if (e.kind === 'cost') {
          // Before the figures are shown (another slot's still coming) the series waits for them.
          if (shownFor !== id) return void early.set(`${slot}|${e.policy}`, e.cost);
          const same = (x: PolicyResult) => x.policy === e.policy && (x.slot ?? 0) === slot;
          set((st) => ({ results: st.results.map((x) => (same(x) ? withCost(x, e.cost) : x)) }));
        } else if (e.kind === 'sweeping') {
          if (slot === 0) set({ sweeping: { done: e.done, total: e.total } });
        } else
          set((st) => ({
            sweeps: withSlot(st.sweeps, slot, { policy: e.policy, radius: e.radius, points: e.points, of }),
            ...(slot === 0 && { sweeping: null }),
          }));
      };
      const call = modelClient(slot).call(
        'inspect',
        {
          modelId: info.modelId,
          conversation,
          generated,
          policies,
          turn,
          layer,
          layers: layersFor(s, info, layer),
          radius: s.radius,
          fullMatrix: s.fullMatrix,
          fullMatrixMaxTokens: FULL_MATRIX_MAX_TOKENS,
          sweep: policies[0]!,
        },
        onEvent,
      );
      calls.set(slot, call);
      call.promise.then(
        () => {
          if (calls.get(slot) === call) calls.delete(slot);
          if (id === latest && slot === 0) set({ sweeping: null });
          // Cancelled before its figures: a newer request answers instead.
          resolve([]);
        },
        (e) => {
          if (id === latest && slot === 0) set({ sweeping: null });
          reject(e);
        },
      );
    });
  }

  return {
    results: [cachedStart.result],
    resultsFrom: 'cache',
    resultsText: START_EXAMPLE.text,
    analyzing: false,
    stale: false,
    analysisError: null,
    analysisMs: null,
    sweeps: [
      {
        policy: cachedStart.policy,
        radius: cachedStart.result.radius,
        points: cachedStart.sweep,
        of: [-1, START_EXAMPLE.text, null, cachedStart.policy, cachedStart.result.turn, cachedStart.result.layer],
      },
    ],
    sweeping: null,

    scheduleAnalysis(delayMs = 0) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void get().analyze(), delayMs);
    },

    stopAnalysis() {
      latest++;
      cancelAll();
      set({ analyzing: false, sweeping: null });
    },

    async analyze() {
      const s = get();
      const conversation = s.parsed.conversation;
      const slots = slotsToScore(s);
      const id = ++latest;
      cancelAll();
      early.clear();
      if (!slots.some((x) => x.slot === 0) || !conversation) {
        // Nothing to score yet; the cached start figures stay only while they describe what is on screen.
        if (s.resultsFrom === 'cache' && !(s.exampleName === cachedStart.example && activePolicies(s).join() === cachedStart.policy && s.turn === null))
          set({ results: [], resultsFrom: null });
        set({ analyzing: false, stale: !conversation && get().results.length > 0 });
        return;
      }
      const turn = scoredTurn(s);
      if (turn === null) {
        set({
          results: [],
          resultsFrom: null,
          analyzing: false,
          analysisError: 'the conversation has no assistant answer to score: add one (or mark one) in the editor',
        });
        return;
      }
      const t0 = performance.now();
      // An earlier refusal was of the earlier request: this one gets its own answer.
      set({ analyzing: true, analysisError: null });
      // Every slot at once, each in its own worker.
      const asked = slots.map(({ slot, info }) =>
        inspect(id, slot, info, s, turn).then(
          (results) => ({ slot, results, error: null }),
          (error: unknown) => ({ slot, results: [] as PolicyResult[], error }),
        ),
      );
      const answers = await Promise.all(asked);
      if (id !== latest || answers.some((a) => a.error && isStale(a.error))) return;
      const first = answers[0]!;
      if (first.error) {
        // Figures already on screen are of the view before this one: marked as such, not passed off as its own.
        set({ analyzing: false, analysisError: (first.error as Error).message, stale: get().results.length > 0 });
        return;
      }
      // A compared model's failure is said as its own; the others' figures stand.
      const errors = answers.filter((a) => a.error).map((a) => `model ${slotName(a.slot)}: ${(a.error as Error).message}`);
      const results = answers.flatMap((a) => a.results).map((r) => withCost(r, early.get(`${r.slot ?? 0}|${r.policy}`)));
      if (!results.length) return;
      shownFor = id;
      set((st) => ({
        results,
        resultsFrom: 'model',
        resultsText: s.text,
        analyzing: false,
        stale: false,
        analysisError: errors.join('; ') || null,
        analysisMs: performance.now() - t0,
        // Sweeps of slots no longer compared go.
        sweeps: st.sweeps.map((x, slot) => (answers.some((a) => a.slot === slot) ? x : null)),
      }));
      mark('figures: shown');
    },
  };
};

/** A copy of `list` with `slot`'s entry set. */
function withSlot<T>(list: (T | null)[], slot: number, value: T | null): (T | null)[] {
  const out = [...list];
  while (out.length <= slot) out.push(null);
  out[slot] = value;
  return out;
}

import type { PolicyResult } from '../../analysis/analyze';
import { headName } from '../../analysis/ablation';
import type { TurnCost } from '../../context/cost';
import { policySpecs } from '../../context/policy';
import { STALE_MODEL, type InspectEvent } from '../../worker/api';
import type { Call } from '../../worker/rpc';
import { cachedStartResult } from '../cached-result';
import { START_EXAMPLE } from '../examples';
import { FULL_MATRIX_MAX_TOKENS } from '../limits';
import { modelClient, slotName, type ModelSlot } from '../model-client';
import { mark, modelStores, type ModelInfo } from '../model-store';
import { activePolicies, generatedIn, sameSweepOf, scoredTurn, type AnalysisSlice, type InspectorState, type Slice, type SweepOf } from './types';

type Set = Parameters<Slice<AnalysisSlice>>[0];
type Get = Parameters<Slice<AnalysisSlice>>[1];
const withCost = (r: PolicyResult, cost: TurnCost[] | undefined): PolicyResult => (cost ? { ...r, cost } : r);

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

/**
 * The analysis job of one inspector store: the newest request wins (a slower, older one never overwrites a
 * newer one), each slot's request can be cancelled, and series that come before the figures wait for them.
 */
class AnalysisJob {
  latest = 0;
  timer: ReturnType<typeof setTimeout> | null = null;
  /** Each slot's request in its worker, cancelled when a newer one starts. */
  private readonly calls = new Map<ModelSlot, Call<void>>();
  /** The request whose figures are on screen, and series that came before them (slot|policy → series). */
  private shownFor = 0;
  private readonly early = new Map<string, TurnCost[]>();

  constructor(
    private readonly set: Set,
    private readonly get: Get,
  ) {}

  cancelAll(): void {
    for (const c of this.calls.values()) c.cancel();
    this.calls.clear();
  }

  /** What one slot's events set: each policy's series (once its figures are shown), the sweep and its progress. */
  private onEvent(id: number, slot: ModelSlot, of: SweepOf, e: InspectEvent, figures: (r: PolicyResult[]) => void): void {
    const set = this.set;
    if (id !== this.latest) return;
    if (e.kind === 'figures') return void figures(e.results.map((r) => tagged(r, slot)));
    if (e.kind === 'cost') {
      if (slot === 0) set((st) => ({ contextCosts: { of: st.contextCosts.of, costs: { ...st.contextCosts.costs, [e.policy]: e.cost } } }));
      // Before the figures are shown (another slot's still coming) the series waits for them.
      if (this.shownFor !== id) return void this.early.set(`${slot}|${e.policy}`, e.cost);
      const same = (x: PolicyResult) => x.policy === e.policy && (x.slot ?? 0) === slot;
      return void set((st) => ({ results: st.results.map((x) => (same(x) ? withCost(x, e.cost) : x)) }));
    }
    if (e.kind === 'sweeping') {
      // The curve grows as the turns are scored (a sweep of a large model takes minutes).
      const partial = { policy: of[3], radius: this.get().radius, points: e.points, of };
      return void set((st) => ({ sweeps: withSlot(st.sweeps, slot, partial), ...(slot === 0 && { sweeping: { done: e.done, total: e.total } }) }));
    }
    if (e.kind === 'heads') return void set((st) => ({ headFigures: { ...st.headFigures, [`${slot}|${e.policy}`]: e.layers } }));
    set((st) => ({ sweeps: withSlot(st.sweeps, slot, { policy: e.policy, radius: e.radius, points: e.points, of }), ...(slot === 0 && { sweeping: null }) }));
  }

  /** One slot's request: resolves with its figures (the first event); later events keep setting what they bring. */
  inspect(id: number, slot: ModelSlot, info: ModelInfo, s: InspectorState, turn: number): Promise<PolicyResult[]> {
    const policies = slot === 0 ? activePolicies(s) : activePolicies(s).slice(0, 1);
    const layer = slot === 0 ? (s.layer ?? info.spec.numLayers - 1) : info.spec.numLayers - 1;
    const generated = generatedIn(s, slot);
    const off = slot === 0 && s.off.length ? `${s.offKind}:${s.off.map(headName).join(',')}` : '';
    const of: SweepOf = [info.modelId, s.text, generated[policies[0]!] ?? null, policies[0]!, turn, layer, off];
    // A curve of something else goes now; one of the same stays until the new one comes.
    this.set((st) => ({ sweeps: withSlot(st.sweeps, slot, st.sweeps[slot] && sameSweepOf(st.sweeps[slot]!.of, of) ? st.sweeps[slot]! : null) }));
    return new Promise<PolicyResult[]>((resolve, reject) => {
      const request = {
        modelId: info.modelId,
        conversation: s.parsed.conversation!,
        generated,
        policies,
        turn,
        layer,
        layers: layersFor(s, info, layer),
        radius: s.radius,
        fullMatrix: s.fullMatrix,
        fullMatrixMaxTokens: FULL_MATRIX_MAX_TOKENS,
        sweep: policies[0]!,
        heads: s.heads,
        contexts: slot === 0 && s.contexts ? policySpecs(s.policyNumbers).filter((p) => !policies.includes(p)) : [],
        // Heads are picked on model A's grid: a compared model keeps every head on.
        off: slot === 0 ? s.off : [],
        offKind: s.offKind,
      };
      const call = modelClient(slot).call('inspect', request, (e) => this.onEvent(id, slot, of, e, resolve));
      this.calls.set(slot, call);
      const done = () => {
        if (this.calls.get(slot) === call) this.calls.delete(slot);
        if (id === this.latest && slot === 0) this.set({ sweeping: null });
      };
      // Ended before its figures (cancelled): a newer request answers instead.
      call.promise.then(
        () => (done(), resolve([])),
        (e) => (done(), reject(e)),
      );
    });
  }

  /** Every slot at once, each in its own worker; the figures are shown together. */
  async run(): Promise<void> {
    const { set, get } = this;
    const s = get();
    const conversation = s.parsed.conversation;
    const slots = slotsToScore(s);
    const id = ++this.latest;
    this.cancelAll();
    this.early.clear();
    if (!slots.some((x) => x.slot === 0) || !conversation) return this.nothingToScore(s);
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
    // The grid of the view before goes: this view's comes with its own event, after its figures.
    set({ analyzing: true, analysisError: null, headFigures: {} });
    const costsOf = `${turn}|${s.text}`;
    if (get().contextCosts.of !== costsOf) set({ contextCosts: { of: costsOf, costs: {} } });
    const asked = slots.map(({ slot, info }) =>
      this.inspect(id, slot, info, s, turn).then(
        (results) => ({ slot, results, error: null }),
        (error: unknown) => ({ slot, results: [] as PolicyResult[], error }),
      ),
    );
    const answers = await Promise.all(asked);
    if (id !== this.latest || answers.some((a) => a.error && isStale(a.error))) return;
    const first = answers[0]!;
    // Figures already on screen are of the view before this one: marked as such, not passed off as its own.
    if (first.error) return void set({ analyzing: false, analysisError: (first.error as Error).message, stale: get().results.length > 0 });
    // A compared model's failure is said as its own; the others' figures stand.
    const errors = answers.filter((a) => a.error).map((a) => `model ${slotName(a.slot)}: ${(a.error as Error).message}`);
    const results = answers.flatMap((a) => a.results).map((r) => withCost(r, this.early.get(`${r.slot ?? 0}|${r.policy}`)));
    if (!results.length) return;
    this.shownFor = id;
    const a = slots.find((x) => x.slot === 0)!.info;
    set((st) => ({
      results,
      resultsFrom: 'model',
      resultsText: s.text,
      resultsModel: { id: a.modelId, name: a.source },
      analyzing: false,
      stale: false,
      analysisError: errors.join('; ') || null,
      analysisMs: performance.now() - t0,
      // Sweeps of slots no longer compared go.
      sweeps: st.sweeps.map((x, slot) => (answers.some((a) => a.slot === slot) ? x : null)),
    }));
    mark('figures: shown');
  }

  /** No model or no conversation yet: the cached start figures stay only while they describe what is on screen. */
  private nothingToScore(s: InspectorState): void {
    if (s.resultsFrom === 'cache' && !(s.exampleName === cachedStart.example && activePolicies(s).join() === cachedStart.policy && s.turn === null)) {
      this.set({ results: [], resultsFrom: null });
    }
    this.set({ analyzing: false, stale: !s.parsed.conversation && this.get().results.length > 0 });
  }
}

export const analysisSlice: Slice<AnalysisSlice> = (set, get) => {
  const job = new AnalysisJob(set, get);
  return {
    results: [cachedStart.result],
    resultsFrom: 'cache',
    resultsText: START_EXAMPLE.text,
    resultsModel: null,
    analyzing: false,
    stale: false,
    analysisError: null,
    analysisMs: null,
    sweeps: [
      {
        policy: cachedStart.policy,
        radius: cachedStart.result.radius,
        points: cachedStart.sweep,
        of: [-1, START_EXAMPLE.text, null, cachedStart.policy, cachedStart.result.turn, cachedStart.result.layer, ''],
      },
    ],
    sweeping: null,
    headFigures: {},
    contextCosts: { of: '', costs: {} },
    scheduleAnalysis(delayMs = 0) {
      if (job.timer) clearTimeout(job.timer);
      job.timer = setTimeout(() => void get().analyze(), delayMs);
    },
    stopAnalysis() {
      job.latest++;
      job.cancelAll();
      set({ analyzing: false, sweeping: null });
    },
    analyze: () => job.run(),
  };
};

/** A copy of `list` with `slot`'s entry set. */
function withSlot<T>(list: (T | null)[], slot: number, value: T | null): (T | null)[] {
  const out = [...list];
  while (out.length <= slot) out.push(null);
  out[slot] = value;
  return out;
}

import { create } from 'zustand';
import type { PolicyResult } from '../analysis/analyze';
import type { LayerSweep, SweepPoint } from '../analysis/sweep';
import { atRadius, sweepAtRadius } from '../analysis/rescore';
import { parseConversation } from '../conversation/parse';
import { splitRounds } from '../conversation/rounds';
import type { Message, ParseResult } from '../conversation/types';
import { parsePolicy, policySpec } from '../context/policy';
import { cachedStartResult } from './cached-result';
import { exampleNamed, START_EXAMPLE } from './examples';
import { resetHover } from './hover-store';
import { useModelStore, type ModelInfo } from './model-store';
import { modelClient } from './model-client';
import { STALE_MODEL } from '../worker/api';
import type { Call } from '../worker/rpc';
import { DEFAULT_VIEW, pickInspectorView, type ViewState } from './url-state';
import { FULL_MATRIX_MAX_TOKENS } from './limits';

export interface InspectorState {
  /** What the person pasted or edited: kept as typed, whatever its errors. */
  text: string;
  exampleName: string | null;
  parsed: ParseResult;
  /** The policies shown: policies[0] alone, or all of them (2–4) in compare mode. */
  policies: string[];
  compare: boolean;
  turn: number | null;
  layer: number | null;
  head: 'mean' | number;
  radius: number;
  fullMatrix: boolean;
  results: PolicyResult[];
  /** 'cache': the start screen's stored figures, shown while the model loads. */
  resultsFrom: 'model' | 'cache' | null;
  analyzing: boolean;
  /** The figures shown are of an earlier conversation: the text now on screen cannot be scored. */
  stale: boolean;
  analysisError: string | null;
  /** Milliseconds of the last analysis, from the request to the figures. */
  analysisMs: number | null;
  /** `key` names what the sweep was computed for, so a stale curve is dropped, not shown under new settings. */
  sweep: { policy: string; key: string; radius: number; points: SweepPoint[] } | null;
  sweeping: { done: number; total: number } | null;
  /** Answers the model wrote, per policy spec, for the scored turn; they replace the file's answer. */
  generated: Record<string, string>;
  generating: { policy: string; text: string } | null;
  /** `fresh`: a new conversation (an example, a file), so the scored turn goes back to the last. */
  setText(text: string, fresh?: boolean): void;
  setMessages(messages: Message[]): void;
  setPolicy(spec: string): void;
  setCompare(on: boolean): void;
  toggleComparePolicy(spec: string): void;
  setTurn(turn: number | null): void;
  setLayer(layer: number | null): void;
  setHead(head: 'mean' | number): void;
  setRadius(r: number): void;
  setFullMatrix(on: boolean): void;
  applyView(v: ViewState, text: string | null): void;
  analyze(): Promise<void>;
  generate(): Promise<void>;
  clearGenerated(): void;
}

/** The active policies: the first alone, or every one in compare mode. */
export function activePolicies(s: Pick<InspectorState, 'policies' | 'compare'>): string[] {
  return s.compare ? s.policies : s.policies.slice(0, 1);
}

/** The turn scored: the chosen one, else the last assistant turn. */
export function scoredTurn(s: Pick<InspectorState, 'turn' | 'parsed'>): number | null {
  const c = s.parsed.conversation;
  if (!c) return null;
  const n = splitRounds(c.messages).rounds.length;
  if (n === 0) return null;
  return s.turn !== null && s.turn <= n ? s.turn : n;
}

const cachedStart = cachedStartResult();

/** A model as the results depend on it: which one, and the date its template writes. */
const modelKey = (info: ModelInfo | null) => (info ? [info.modelId, info.templateDate] : null);

/** What a sweep was computed for: the model, the text, the policy and the turn (the layers come together; the radius is re-read). */
function sweepKey(info: ModelInfo | null, text: string, generated: string | undefined, r: PolicyResult): string {
  return JSON.stringify([modelKey(info), text, generated ?? null, r.policy, r.turn, r.tokens.length]);
}

// Newest request wins: a slower, older analysis never overwrites a newer one.
let latest = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** The sweep and the generation under way in the worker, cancelled when something newer starts. */
let sweepCall: Call<unknown> | null = null;
let generationCall: Call<unknown> | null = null;
const isStale = (e: unknown) => (e as Error)?.name === STALE_MODEL;

/**
 * Results already computed, so a change that needs no new pass needs none: a policy added to compare (or
 * compare turned off), a layer the last pass fetched, a radius (re-read from the attention kept). Keyed
 * by everything a pass depends on; the model by identity.
 */
const RESULTS_KEPT = 24;
const results = new Map<string, PolicyResult>();
function resultKey(info: ModelInfo, text: string, answer: string | undefined, spec: string, turn: number, layer: number, fullMatrix: boolean): string {
  return JSON.stringify([modelKey(info), text, answer ?? null, spec, turn, layer, fullMatrix]);
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

/** A result as the sweep reuses it: its answer rows (the head mean), not every head. */
const withoutHeads = (r: PolicyResult): PolicyResult => (r.kept ? { ...r, kept: { ...r.kept, perHead: null } } : r);

export const useInspector = create<InspectorState>()((set, get) => {
  /** Re-analyse after a change; text edits wait for a pause in typing. */
  const schedule = (delayMs = 0) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void get().analyze(), delayMs);
  };
  const parse = (text: string) => parseConversation(text);

  return {
    text: START_EXAMPLE.text,
    exampleName: START_EXAMPLE.name,
    parsed: parse(START_EXAMPLE.text),
    // The view's defaults, from the one table the link's codec uses too.
    ...pickInspectorView(DEFAULT_VIEW),
    fullMatrix: false,
    results: [cachedStart.result],
    resultsFrom: 'cache',
    analyzing: false,
    stale: false,
    analysisError: null,
    analysisMs: null,
    sweep: { policy: cachedStart.policy, key: sweepKey(null, START_EXAMPLE.text, undefined, cachedStart.result), radius: cachedStart.result.radius, points: cachedStart.sweep },
    sweeping: null,
    generated: {},
    generating: null,

    setText(text, fresh = false) {
      resetHover();
      set((s) => ({ text, exampleName: exampleNamed(text), parsed: parse(text), generated: {}, turn: fresh ? null : s.turn }));
      schedule(300);
    },
    setMessages(messages) {
      // The editor writes the conversation back as text, so the text stays the one source of truth.
      get().setText(`${JSON.stringify(messages.map(({ line: _l, ...m }) => m), null, 2)}\n`);
    },
    setPolicy(spec) {
      const p = policySpec(parsePolicy(spec));
      set((s) => ({ policies: s.compare ? (s.policies.includes(p) ? s.policies : [...s.policies.slice(0, 3), p]) : [p, ...s.policies.slice(1).filter((x) => x !== p)] }));
      schedule();
    },
    setCompare(on) {
      set((s) => ({ compare: on, policies: on && s.policies.length < 2 ? [...s.policies, s.policies[0] === 'clip:12:1' ? 'ao' : 'clip:12:1'] : s.policies }));
      schedule();
    },
    toggleComparePolicy(spec) {
      const p = policySpec(parsePolicy(spec));
      const s = get();
      if (s.policies.includes(p)) {
        if (s.policies.length <= 2) return; // compare needs two
        set({ policies: s.policies.filter((x) => x !== p) });
      } else {
        if (s.policies.length >= 4) return;
        set({ policies: [...s.policies, p] });
      }
      schedule();
    },
    setTurn(turn) {
      resetHover();
      set({ turn, generated: {} });
      schedule();
    },
    setLayer(layer) {
      set({ layer });
      schedule();
    },
    setHead(head) {
      set({ head });
    },
    setRadius(r) {
      // The diagonal is re-read from the attention each result kept: no model pass.
      const s = get();
      const rescored = s.results.map((x) => atRadius(x, r));
      const r0 = s.results[0];
      const sweep = s.sweep && r0 ? sweepAt(s.sweep.key, r0.layer, r) : null;
      if (rescored.every((x): x is PolicyResult => x !== null) && (sweep || !s.sweep)) {
        set({ radius: r, results: rescored, ...(s.sweep && sweep && { sweep: { ...s.sweep, radius: r, points: sweep } }) });
        return;
      }
      set({ radius: r });
      schedule();
    },
    setFullMatrix(on) {
      resetHover();
      set({ fullMatrix: on });
      schedule();
    },
    applyView(v, text) {
      if (text !== null) set({ text, exampleName: exampleNamed(text), parsed: parse(text) });
      set({ ...pickInspectorView(v), generated: {} });
      schedule();
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
      set({ analyzing: true });
      try {
        const layer = s.layer ?? info.spec.numLayers - 1;
        // One pass fetches every layer the graph has (a few, for small models), so the layer selector re-reads them; the full matrix only the one shown.
        const inspectable = info.inspectLayers;
        const layers = s.fullMatrix || inspectable.length > 8 ? [layer] : inspectable;
        const out: PolicyResult[] = [];
        for (const spec of activePolicies(s)) {
          const key = (l: number) => resultKey(info, s.text, s.generated[spec], spec, turn, l, s.fullMatrix);
          let r = results.get(key(layer));
          if (!r) {
            const all = await modelClient().call('analyze', {
              modelId: info.modelId, conversation, ...(s.generated[spec] !== undefined && { answer: s.generated[spec] }), policy: spec, turn,
              layers: layers.includes(layer) ? layers : [layer], radius: s.radius, keep: s.fullMatrix ? 'all' : 'answer', fullMatrixMaxTokens: FULL_MATRIX_MAX_TOKENS,
            }).promise;
            if (id !== latest) return;
            for (const x of all) keepResult(key(x.layer), x);
            r = all.find((x) => x.layer === layer)!;
          }
          out.push(r);
        }
        // The radius may have changed while the passes ran: it is re-read, not recomputed.
        const radius = get().radius;
        out.splice(0, out.length, ...out.map((r) => atRadius(r, radius) ?? r));
        set({ results: out, resultsFrom: 'model', analyzing: false, stale: false, analysisError: null, analysisMs: performance.now() - t0 });
        void sweepFor(id, info, out[0]!);
      } catch (e) {
        if (id === latest && !isStale(e)) set({ analyzing: false, analysisError: (e as Error).message });
      }
    },

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
        schedule();
      } catch (e) {
        if (generationCall === call && !isStale(e)) set({ generating: null, analysisError: (e as Error).message });
      }
    },
    clearGenerated() {
      generationCall?.cancel();
      generationCall = null;
      set({ generated: {}, generating: null });
      schedule();
    },
  };

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
      // Every layer the analysis fetched, each turn in one pass; the scored turn's results are reused.
      const inspectable = info.inspectLayers;
      const layers = s.fullMatrix || inspectable.length > 8 ? [known.layer] : inspectable;
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

});

// A new load stops the old model's work (a rounds sweep can take minutes on a software adapter,
// and it would hold the device the new session needs); the loaded model scores what is on screen.
useModelStore.subscribe((s, prev) => {
  if (s.load.status === 'loading' && prev.load.status !== 'loading') {
    latest++;
    sweepCall?.cancel();
    generationCall?.cancel();
    generationCall = null;
    useInspector.setState({ analyzing: false, sweeping: null, generating: null });
  }
  if (s.info && s.info !== prev.info) void useInspector.getState().analyze();
  // The model was released (its worker stopped, or a model that fits only alone replaces it): its figures go with it.
  if (!s.info && prev.info && useInspector.getState().resultsFrom === 'model') useInspector.setState({ results: [], resultsFrom: null, sweep: null, sweeping: null, analyzing: false });
});

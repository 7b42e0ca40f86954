import { create } from 'zustand';
import { analyzePolicyLayers, SummaryCache, type PolicyResult } from '../analysis/analyze';
import { roundsSweepLayers, type LayerSweep, type SweepPoint } from '../analysis/sweep';
import { atRadius, sweepAtRadius } from '../analysis/rescore';
import { generateAnswer, withAnswer } from '../analysis/answer';
import { parseConversation } from '../conversation/parse';
import { splitRounds } from '../conversation/rounds';
import type { Conversation, Message, ParseResult } from '../conversation/types';
import { parsePolicy, policySpec } from '../context/policy';
import { cachedStartResult } from './cached-result';
import { exampleNamed, START_EXAMPLE } from './examples';
import { hoverReducer, NO_HOVER, type HoverAction, type HoverState } from './hover-lock';
import { currentModel, useModelStore } from './model-store';
import type { ViewState } from './url-state';
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
  hover: HoverState;
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
  dispatchHover(a: HoverAction): void;
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

/** What a sweep was computed for: the model, the text, the policy and the turn (the layers come together; the radius is re-read). */
function sweepKey(model: object | null, text: string, r: PolicyResult): string {
  if (model && !modelIds.has(model)) modelIds.set(model, ++nextModelId);
  return JSON.stringify([model ? modelIds.get(model) : null, text, r.policy, r.turn, r.tokens.length]);
}

// Newest request wins: a slower, older analysis never overwrites a newer one.
let latest = 0;
let generationRun = 0;
/**
 * Resolves after the browser has painted a frame (or after 100 ms in a hidden tab, where frames stop).
 * ORT's wasm runs on the page's thread and each model pass resolves at once, so without this the whole
 * sweep would run before React could show the figures it follows.
 */
const nextPaint = () => new Promise<void>((resolve) => {
  if (typeof requestAnimationFrame === 'undefined') return void setTimeout(resolve, 0);
  const fallback = setTimeout(resolve, 100);
  requestAnimationFrame(() => {
    clearTimeout(fallback);
    setTimeout(resolve, 0);
  });
});

let timer: ReturnType<typeof setTimeout> | null = null;
let summaries: { conversation: Conversation; model: unknown; cache: SummaryCache } | null = null;

type Model = NonNullable<ReturnType<typeof currentModel>>;

function summaryCache(model: Model, conversation: Conversation): SummaryCache {
  if (!summaries || summaries.conversation !== conversation || summaries.model !== model) summaries = { conversation, model, cache: new SummaryCache(model, conversation) };
  return summaries.cache;
}

/**
 * Results already computed, so a change that needs no new pass needs none: a policy added to compare (or
 * compare turned off), a layer the last pass fetched, a radius (re-read from the attention kept). Keyed
 * by everything a pass depends on; the model by identity.
 */
const RESULTS_KEPT = 24;
const results = new Map<string, PolicyResult>();
const modelIds = new WeakMap<object, number>();
let nextModelId = 0;
function resultKey(model: Model, text: string, answer: string | undefined, spec: string, turn: number, layer: number, fullMatrix: boolean): string {
  if (!modelIds.has(model)) modelIds.set(model, ++nextModelId);
  return JSON.stringify([modelIds.get(model), text, answer ?? null, spec, turn, layer, fullMatrix]);
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

/**
 * The conversation a policy is scored on: the file's, or with the model's own answer for the scored
 * turn when one was generated under that policy (its summaries then are its own too).
 */
function scoredConversation(model: Model, conversation: Conversation, generated: Record<string, string>, spec: string, turn: number): { conv: Conversation; cache: SummaryCache } {
  const answer = generated[spec];
  if (answer === undefined) return { conv: conversation, cache: summaryCache(model, conversation) };
  const conv = withAnswer(conversation, turn, answer);
  return { conv, cache: new SummaryCache(model, conv) };
}

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
    policies: ['full'],
    compare: false,
    turn: null,
    layer: null,
    head: 'mean',
    radius: 5,
    fullMatrix: false,
    results: [cachedStart.result],
    resultsFrom: 'cache',
    analyzing: false,
    stale: false,
    analysisError: null,
    analysisMs: null,
    sweep: { policy: cachedStart.policy, key: sweepKey(null, START_EXAMPLE.text, cachedStart.result), radius: cachedStart.result.radius, points: cachedStart.sweep },
    sweeping: null,
    generated: {},
    generating: null,
    hover: NO_HOVER,

    setText(text, fresh = false) {
      set((s) => ({ text, exampleName: exampleNamed(text), parsed: parse(text), generated: {}, hover: NO_HOVER, turn: fresh ? null : s.turn }));
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
      set({ turn, generated: {}, hover: NO_HOVER });
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
      set({ fullMatrix: on, hover: NO_HOVER });
      schedule();
    },
    applyView(v, text) {
      if (text !== null) set({ text, exampleName: exampleNamed(text), parsed: parse(text) });
      set({ policies: v.policies, compare: v.compare, turn: v.turn, layer: v.layer, head: v.head, radius: v.radius, generated: {} });
      schedule();
    },

    async analyze() {
      const model = currentModel();
      const s = get();
      const conversation = s.parsed.conversation;
      const id = ++latest;
      if (!model || !conversation) {
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
        const layer = s.layer ?? model.session.spec.numLayers - 1;
        // One pass fetches every layer the graph has (a few, for small models), so the layer selector re-reads them; the full matrix only the one shown.
        const inspectable = model.graph.inspectLayers;
        const layers = s.fullMatrix || inspectable.length > 8 ? [layer] : inspectable;
        const out: PolicyResult[] = [];
        for (const spec of activePolicies(s)) {
          const key = (l: number) => resultKey(model, s.text, s.generated[spec], spec, turn, l, s.fullMatrix);
          let r = results.get(key(layer));
          if (!r) {
            const { conv, cache } = scoredConversation(model, conversation, s.generated, spec, turn);
            const keep = { keepAttention: s.fullMatrix ? ('all' as const) : ('answer' as const), fullMatrixMaxTokens: FULL_MATRIX_MAX_TOKENS };
            const all = await analyzePolicyLayers(model, conv, spec, layers.includes(layer) ? layers : [layer], { turn, radius: s.radius, ...keep }, cache);
            if (id !== latest) return;
            for (const x of all) keepResult(key(x.layer), x);
            r = all.find((x) => x.layer === layer)!;
          }
          out.push(atRadius(r, s.radius) ?? r);
        }
        set({ results: out, resultsFrom: 'model', analyzing: false, stale: false, analysisError: null, analysisMs: performance.now() - t0 });
        void sweepFor(id, out[0]!);
      } catch (e) {
        if (id === latest) set({ analyzing: false, analysisError: (e as Error).message });
      }
    },

    async generate() {
      const model = currentModel();
      const s = get();
      const conversation = s.parsed.conversation;
      const turn = scoredTurn(s);
      if (!model || !conversation || turn === null) return;
      const run = ++generationRun;
      const generated = { ...s.generated };
      try {
        for (const spec of activePolicies(s)) {
          set({ generating: { policy: spec, text: '' } });
          generated[spec] = await generateAnswer(model, conversation, spec, turn, {
            summaries: summaryCache(model, conversation),
            onText: (text) => run === generationRun && set({ generating: { policy: spec, text } }),
          });
          if (run !== generationRun) return;
        }
        set({ generated, generating: null });
        schedule();
      } catch (e) {
        if (run === generationRun) set({ generating: null, analysisError: (e as Error).message });
      }
    },
    clearGenerated() {
      generationRun++;
      set({ generated: {}, generating: null });
      schedule();
    },
    dispatchHover(a) {
      set((s) => ({ hover: hoverReducer(s.hover, a) }));
    },
  };

  /** Paper 2's Fig. 2 for the first active policy, reusing the turn just scored. */
  async function sweepFor(id: number, known: PolicyResult) {
    const model = currentModel();
    const s = get();
    const conversation = s.parsed.conversation;
    if (!model || !conversation) return;
    const key = sweepKey(model, s.text, known);
    // Computed already for this layer (at any radius): re-read, no pass.
    const ready = sweepAt(key, known.layer, known.radius);
    if (ready) return void set({ sweep: { policy: known.policy, key, radius: known.radius, points: ready }, sweeping: null });
    set((st) => ({ sweeping: { done: 0, total: Math.max(0, known.turn - 1) }, sweep: st.sweep?.key === key ? st.sweep : null }));
    try {
      const { conv, cache } = scoredConversation(model, conversation, s.generated, known.policy, known.turn);
      // Every layer the analysis fetched, each turn in one pass; the scored turn's results are reused.
      const inspectable = model.graph.inspectLayers;
      const layers = s.fullMatrix || inspectable.length > 8 ? [known.layer] : inspectable;
      const knownLayers = layers.map((l) => results.get(resultKey(model, s.text, s.generated[known.policy], known.policy, known.turn, l, s.fullMatrix))).filter((r): r is PolicyResult => r !== undefined);
      const byLayer = await roundsSweepLayers(model, conv, known.policy, layers, {
        upToTurn: known.turn,
        radius: known.radius,
        known,
        knownLayers,
        summaries: cache,
        onTurn: (done, total) => id === latest && set({ sweeping: { done, total } }),
        cancelled: () => id !== latest,
        pause: nextPaint,
      });
      if (id === latest) {
        sweeps = { key, byLayer };
        set({ sweep: { policy: known.policy, key, radius: known.radius, points: byLayer.get(known.layer)!.points }, sweeping: null });
      }
    } catch (e) {
      if (id === latest) set({ sweeping: null, analysisError: `rounds sweep: ${(e as Error).message}` });
    }
  }

});

// A new load stops the old model's work (a rounds sweep can take minutes on a software adapter,
// and it would hold the device the new session needs); the loaded model scores what is on screen.
useModelStore.subscribe((s, prev) => {
  if (s.load.status === 'loading' && prev.load.status !== 'loading') {
    latest++;
    generationRun++;
    useInspector.setState({ analyzing: false, sweeping: null, generating: null });
  }
  if (s.info && s.info !== prev.info) void useInspector.getState().analyze();
});

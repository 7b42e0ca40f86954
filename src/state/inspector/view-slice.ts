import { inHeadOrder } from '../../analysis/ablation';
import { parseConversation } from '../../conversation/parse';
import { numbersValid, PAPER_NUMBERS, parsePolicy, policySpec, withNumbersOf } from '../../context/policy';
import { exampleNamed } from '../examples';
import { resetHover } from '../hover-store';
import { DEFAULT_VIEW, pickInspectorView } from '../url-state';
import type { Slice, ViewSlice } from './types';

export const viewSlice: Slice<ViewSlice> = (set, get) => ({
  // The view's defaults, from the one table the link's codec uses too.
  ...pickInspectorView(DEFAULT_VIEW),
  fullMatrix: false,
  compareModels: false,
  setCompareModels(on) {
    set({ compareModels: on });
    get().scheduleAnalysis();
  },
  setPolicy(spec) {
    const p = policySpec(parsePolicy(spec));
    set((s) => ({
      policies: s.compare ? (s.policies.includes(p) ? s.policies : [...s.policies.slice(0, 3), p]) : [p, ...s.policies.slice(1).filter((x) => x !== p)],
      // A Window, Clip or Summary with other numbers (a link, the table) sets the bar's numbers to its own.
      policyNumbers: withNumbersOf(s.policyNumbers, p),
    }));
    get().scheduleAnalysis();
  },
  setCompare(on) {
    set((s) => {
      // Comparing starts with a second policy: Clip at the bar's numbers (AO when Clip is the first).
      const clip = `clip:${s.policyNumbers.clipAt}:${s.policyNumbers.clipTo}`;
      return { compare: on, policies: on && s.policies.length < 2 ? [...s.policies, s.policies[0] === clip ? 'ao' : clip] : s.policies };
    });
    get().scheduleAnalysis();
  },
  toggleComparePolicy(spec) {
    const p = policySpec(parsePolicy(spec));
    const s = get();
    if (s.policies.includes(p)) {
      if (s.policies.length <= 2) return; // compare needs two
      set({ policies: s.policies.filter((x) => x !== p) });
    } else {
      if (s.policies.length >= 4) return;
      set({ policies: [...s.policies, p], policyNumbers: withNumbersOf(s.policyNumbers, p) });
    }
    get().scheduleAnalysis();
  },
  setTurn(turn) {
    resetHover();
    set({ turn, generated: [] });
    get().scheduleAnalysis();
  },
  setLayer(layer) {
    set({ layer });
    get().scheduleAnalysis();
  },
  setHead(head) {
    set({ head }); // every head is in the results already
  },
  setRadius(r) {
    // The worker re-reads the diagonal from the attention it kept: no model pass.
    set({ radius: r });
    get().scheduleAnalysis();
  },
  setFullMatrix(on) {
    resetHover();
    set({ fullMatrix: on });
    get().scheduleAnalysis();
  },
  contexts: false,
  setContextsShown(on) {
    set({ contexts: on });
    get().scheduleAnalysis();
  },
  policyNumbers: PAPER_NUMBERS,
  setPolicyNumbers(n) {
    // Only numbers every policy accepts (the bar keeps a draft that is not): else the table could not parse its rows.
    if (!numbersValid(n)) return;
    set({ policyNumbers: n });
    // The table's rows are these numbers' policies: their tokens are asked for again.
    if (get().contexts) get().scheduleAnalysis();
  },
  setHeadsShown(on) {
    set({ heads: on });
    get().scheduleAnalysis();
  },
  toggleOff([l, h]) {
    const off = get().off;
    const has = off.some((x) => x[0] === l && x[1] === h);
    get().setOff(has ? off.filter((x) => x[0] !== l || x[1] !== h) : [...off, [l, h] as const]);
  },
  setOff(heads) {
    set({ off: inHeadOrder(heads), offAnswers: null });
    get().scheduleAnalysis();
  },
  setOffKind(kind) {
    set({ offKind: kind, offAnswers: null });
    if (get().off.length) get().scheduleAnalysis();
  },
  applyView(v, text) {
    if (text !== null) set({ text, exampleName: exampleNamed(text), parsed: parseConversation(text) });
    set({ ...pickInspectorView(v), generated: [], policyNumbers: v.policies.reduce(withNumbersOf, PAPER_NUMBERS) });
    get().scheduleAnalysis();
  },
});

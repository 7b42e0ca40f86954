import { create } from 'zustand';
import { parameterCount, type ModelSpec } from '../model/config';
import { rowSums } from '../metrics/inertia';
import { topTokens } from '../model/logits';
import type { ModelSource } from '../model/source';
import { openModel, type LoadStage, type OpenModel } from '../runtime/open-model';
import type { BackendReport } from '../runtime/ort-runtime';

export interface LoadState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  stage: LoadStage | null;
  file: string | null;
  loaded: number;
  total: number | null;
  error: string | null;
}

export interface ModelInfo {
  source: string;
  spec: ModelSpec;
  parameters: number;
  dtypes: string[];
  weightStorage: string;
  report: BackendReport;
}

export interface ForwardView {
  text: string;
  tokens: number;
  next: { id: number; text: string; prob: number }[];
  layer: number;
  shape: [number, number, number];
  rowSumRange: [number, number];
}

interface ModelState {
  load: LoadState;
  info: ModelInfo | null;
  forward: ForwardView | null;
  forwardError: string | null;
  loadModel(source: ModelSource): Promise<void>;
  runForward(text: string, asChat: boolean): Promise<void>;
}

const IDLE: LoadState = { status: 'idle', stage: null, file: null, loaded: 0, total: null, error: null };

/** The open model lives outside React state: it holds an ORT session, not data to render. */
let current: OpenModel | null = null;
/** Only the newest load may land: a slower, older one (say the demo model at start-up) is dropped. */
let latestLoad = 0;

export const useModelStore = create<ModelState>()((set) => ({
  load: IDLE,
  info: null,
  forward: null,
  forwardError: null,

  async loadModel(source) {
    const id = ++latestLoad;
    const stale = () => id !== latestLoad;
    set({ load: { ...IDLE, status: 'loading', stage: 'download' } });
    try {
      const opened = await openModel(source, {
        onProgress: (p) => {
          if (stale()) return;
          set((s) => ({
            load: { ...s.load, stage: p.stage, ...(p.read && { file: p.read.file, loaded: p.read.loaded, total: p.read.total }) },
          }));
        },
      });
      if (stale()) {
        await opened.session.release();
        return;
      }
      await current?.session.release();
      current = opened;
      const { checkpoint, graph, session } = opened;
      set({
        load: { ...IDLE, status: 'ready' },
        forward: null,
        forwardError: null,
        info: {
          source: checkpoint.source,
          spec: checkpoint.spec,
          parameters: parameterCount(checkpoint.spec),
          dtypes: checkpoint.dtypes,
          weightStorage: graph.weightStorage,
          report: session.report,
        },
      });
    } catch (e) {
      // The previously loaded model, if any, stays usable.
      if (!stale()) set((s) => ({ load: { ...s.load, status: 'error', error: (e as Error).message } }));
    }
  },

  async runForward(text, asChat) {
    const m = current;
    if (!m) return;
    try {
      const rendered = asChat ? m.tokenizer.render([{ role: 'user', content: text }], true) : text;
      const ids = m.tokenizer.encode(rendered);
      if (ids.length === 0) throw new Error('the text tokenizes to no tokens');
      const S = ids.length;
      const out = await m.session.forward({ ids, attnRows: [0, S] });
      const att = out.attention[0]!;
      const sums = rowSums(att.mean, att.rows, S);
      set({
        forwardError: null,
        forward: {
          text,
          tokens: S,
          next: topTokens(out.logits!.data, 5).map((t) => ({ id: t.id, prob: t.prob, text: m.tokenizer.decode([t.id]) })),
          layer: att.layer,
          shape: [m.checkpoint.spec.numHeads, att.rows, S],
          rowSumRange: [Math.min(...sums), Math.max(...sums)],
        },
      });
    } catch (e) {
      set({ forwardError: (e as Error).message });
    }
  },
}));

import { create } from 'zustand';
import type { ModelSpec } from '../model/config';
import { parameterCount } from '../model/weights';
import { rowSums } from '../metrics/inertia';
import { topTokens } from '../model/logits';
import type { ModelSource } from '../model/source';
import { parseTemplateDate } from '../model/template-date';
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

/** How a link names the model: the demo, or a Hub id; null for local files (a link cannot carry them). */
export interface ModelRef {
  model: string;
  revision: string;
  hub: string | null;
}

export interface ModelInfo {
  source: string;
  ref: ModelRef | null;
  spec: ModelSpec;
  parameters: number;
  dtypes: string[];
  weightStorage: string;
  report: BackendReport;
  /** Layers whose attention the graph outputs. */
  inspectLayers: number[];
  /** How the other layers compute attention, and why not fused if asked. */
  attention: string;
  /** The date the chat template's strftime_now gives (null: the template writes no date). */
  templateDate: string | null;
}

export interface ForwardView {
  text: string;
  tokens: number;
  next: { id: number; text: string; prob: number }[];
  layer: number;
  shape: [number, number, number];
  rowSumRange: [number, number];
}

/** 'auto': WebGPU, then wasm. 'wasm': skip WebGPU (a software adapter can be slower than wasm). */
export type BackendChoice = 'auto' | 'wasm';

interface ModelState {
  backend: BackendChoice;
  /** Reloads the current model on the chosen backend. */
  setBackend(b: BackendChoice): Promise<void>;
  load: LoadState;
  info: ModelInfo | null;
  forward: ForwardView | null;
  forwardError: string | null;
  loadModel(source: ModelSource | Promise<ModelSource>, ref?: ModelRef | null): Promise<void>;
  /** The date the template writes (YYYY-MM-DD); the figures are computed again. False when it is not a date. */
  setTemplateDate(date: string): boolean;
  runForward(text: string, asChat: boolean): Promise<void>;
}

const IDLE: LoadState = { status: 'idle', stage: null, file: null, loaded: 0, total: null, error: null };

/** The open model lives outside React state: it holds an ORT session, not data to render. */
let current: OpenModel | null = null;
/** Only the newest load may land: a slower, older one (say the demo model at start-up) is dropped. */
let latestLoad = 0;
let lastLoad: { source: ModelSource | Promise<ModelSource>; ref: ModelRef | null } | null = null;

/** Up to this size every layer is inspectable; above it only the final one (see loadModel). */
export const ALL_LAYERS_MAX_PARAMETERS = 20_000_000;

/** The open model, for the inspector's actions (null until one is ready). */
export function currentModel(): OpenModel | null {
  return current;
}

export const useModelStore = create<ModelState>()((set, get) => ({
  backend: 'auto',
  async setBackend(b) {
    set({ backend: b });
    if (lastLoad) await get().loadModel(lastLoad.source, lastLoad.ref);
  },
  load: IDLE,
  info: null,
  forward: null,
  forwardError: null,

  async loadModel(source, ref = null) {
    const id = ++latestLoad;
    lastLoad = { source, ref };
    const stale = () => id !== latestLoad;
    set({ load: { ...IDLE, status: 'loading', stage: 'download' } });
    try {
      const opened = await openModel(await source, {
        // Small models: every layer's attention is an output, so the layer selector needs no rebuild. Larger
        // ones inspect the final layer only, so the other layers run fused attention (no [S × S] scores).
        inspectLayers: (spec) => (parameterCount(spec) <= ALL_LAYERS_MAX_PARAMETERS ? 'all' : [spec.numLayers - 1]),
        ...(get().backend === 'wasm' && { prefer: ['wasm' as const] }),
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
      // Swap first: the old session is released once its queued runs (say a rounds sweep) are done.
      const old = current;
      current = opened;
      void old?.session.release().catch(() => undefined);
      const { checkpoint, graph, session } = opened;
      set({
        load: { ...IDLE, status: 'ready' },
        forward: null,
        forwardError: null,
        info: {
          source: checkpoint.source,
          ref,
          spec: checkpoint.spec,
          parameters: parameterCount(checkpoint.spec),
          dtypes: checkpoint.dtypes,
          weightStorage: graph.weightStorage,
          report: session.report,
          inspectLayers: graph.inspectLayers,
          templateDate: opened.tokenizer.usesDate ? opened.tokenizer.templateDate : null,
          attention: graph.attentionNote ?? (graph.attention === 'fused' && graph.inspectLayers.length < checkpoint.spec.numLayers ? 'layers not inspected: fused GroupQueryAttention' : 'explicit in every layer'),
        },
      });
    } catch (e) {
      // The previously loaded model, if any, stays usable.
      if (!stale()) set((s) => ({ load: { ...s.load, status: 'error', error: (e as Error).message } }));
    }
  },

  setTemplateDate(date) {
    const info = get().info;
    if (!current || !info || info.templateDate === null || !parseTemplateDate(date)) return false;
    current.tokenizer.templateDate = date;
    set({ info: { ...info, templateDate: date } });
    return true;
  },

  async runForward(text, asChat) {
    const m = current;
    if (!m) return;
    try {
      const rendered = asChat ? m.tokenizer.render([{ role: 'user', content: text }], true) : text;
      const ids = m.tokenizer.encode(rendered);
      if (ids.length === 0) throw new Error('the text tokenizes to no tokens');
      const S = ids.length;
      const out = await m.session.forward({ ids, attnRows: [0, S], layers: [m.checkpoint.spec.numLayers - 1] });
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

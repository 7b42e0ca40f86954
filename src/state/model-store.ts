import { create } from 'zustand';
import type { ModelSpec } from '../model/config';
import { parameterCount } from '../model/weights';
import { rowSums } from '../metrics/inertia';
import { topTokens } from '../model/logits';
import type { ModelSource } from '../model/source';
import { HUB_URL, hubSource, resolveHubRepo, HubError } from '../model/hub-source';
import { describePlan, noFitMessage } from '../model/load-plan';
import { parseTemplateDate } from '../model/template-date';
import { prepareModel, startModel, type LoadStage, type OpenModel, type OpenOptions, type PreparedModel } from '../runtime/open-model';
import { linkOffer, rememberedToken, storeToken, type LinkOffer } from './hub-access';
import { rangeCache } from './model-cache';
import type { BackendReport } from '../runtime/ort-runtime';

export interface LoadState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  stage: LoadStage | null;
  file: string | null;
  loaded: number;
  total: number | null;
  /** The weights read so far, over all files, and their total (known once the headers are read). */
  allLoaded: number;
  allTotal: number | null;
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

/** 'auto': WebGPU on a GPU, wasm where the adapter is a software one. 'wasm': skip WebGPU. 'webgpu': WebGPU even on a software adapter. */
export type BackendChoice = 'auto' | 'wasm' | 'webgpu';

interface ModelState {
  backend: BackendChoice;
  /** Reloads the current model on the chosen backend. */
  setBackend(b: BackendChoice): Promise<void>;
  load: LoadState;
  info: ModelInfo | null;
  forward: ForwardView | null;
  forwardError: string | null;
  /** Loads from files or the demo model's folder: planned, then started (nothing to confirm: nothing to download). */
  loadModel(source: ModelSource, ref?: ModelRef | null): Promise<void>;
  /** A Hub model: resolved to a commit, its small files and headers read, memory planned; a large download waits for confirmDownload. */
  openHub(ref: ModelRef, origin?: 'form' | 'link'): Promise<void>;
  pending: PendingDownload | null;
  /** Hub downloads of at least this many bytes wait for confirmDownload. */
  confirmAboveBytes: number;
  confirmDownload(): Promise<void>;
  cancelDownload(): void;
  /** A model a link names: shown with its host and loaded only on a click (openHub). */
  linkOffer: LinkOffer | null;
  offerLink(ref: ModelRef | null): void;
  /** The Hub access token (gated models): in memory, or in this browser when remembered; never in a link. */
  accessToken: string;
  rememberToken: boolean;
  setAccessToken(token: string, remember: boolean): void;
  /** The date the template writes (YYYY-MM-DD); the figures are computed again. False when it is not a date. */
  setTemplateDate(date: string): boolean;
  runForward(text: string, asChat: boolean): Promise<void>;
}

/** A Hub model resolved and planned, waiting for the person to confirm its download. */
export interface PendingDownload {
  ref: ModelRef;
  /** repo@commit as the source names it. */
  label: string;
  files: number;
  bytes: number;
  /** Where it fits, one line per backend (model/load-plan.ts describePlan). */
  plans: string[];
}


const IDLE: LoadState = { status: 'idle', stage: null, file: null, loaded: 0, total: null, allLoaded: 0, allTotal: null, error: null };

/** The open model lives outside React state: it holds an ORT session, not data to render. */
let current: OpenModel | null = null;
/** Only the newest load may land: a slower, older one (say the demo model at start-up) is dropped. */
let latestLoad = 0;
/** What the model in use was loaded from, for reloading it on another backend (set only when a load lands). */
let lastLoad: { source: ModelSource; ref: ModelRef | null } | { hub: ModelRef } | null = null;
/** The prepared model behind `pending`. */
let pendingPrepared: { prepared: PreparedModel; releaseFirst: boolean } | null = null;
/** Lookups (resolving, reading headers, planning): the newest wins, without stopping a load under way. */
let latestLook = 0;

/** Up to this size every layer is inspectable; above it only the final one (see loadModel). */
export const ALL_LAYERS_MAX_PARAMETERS = 20_000_000;

/** The open model, for the inspector's actions (null until one is ready). */
export function currentModel(): OpenModel | null {
  return current;
}

export const useModelStore = create<ModelState>()((set, get) => {
  const options = (stale: () => boolean, weightBytes: number | null = null): OpenOptions => {
    const perFile = new Map<string, number>();
    return {
    // Small models: every layer's attention is an output, so the layer selector needs no rebuild. Larger
    // ones inspect the final layer only, so the other layers run fused attention (no [S × S] scores).
    inspectLayers: (spec) => (parameterCount(spec) <= ALL_LAYERS_MAX_PARAMETERS ? 'all' : [spec.numLayers - 1]),
    ...(get().backend === 'wasm' && { prefer: ['wasm' as const] }),
    softwareWebGpu: get().backend === 'auto' ? 'avoid' : 'use',
    onProgress: (p) => {
      if (stale()) return;
      if (p.read && weightBytes !== null) perFile.set(p.read.file, p.read.loaded);
      const allLoaded = [...perFile.values()].reduce((a, b) => a + b, 0);
      set((s) => ({ load: { ...s.load, stage: p.stage, allLoaded, allTotal: weightBytes, ...(p.read && { file: p.read.file, loaded: p.read.loaded, total: p.read.total }) } }));
    },
    };
  };
  /**
   * A new lookup: it shows as loading, and supersedes an earlier lookup, but not a load already under way
   * (the demo model at start-up): only starting a session (finish) claims the model slot.
   */
  const begin = () => {
    const id = ++latestLook;
    pendingPrepared = null;
    set({ load: { ...IDLE, status: 'loading', stage: 'download' }, pending: null });
    return () => id !== latestLook;
  };
  /** Plans a model beside the one in use (they share wasm's heap while the new one loads), else alone. */
  const prepare = async (source: ModelSource, stale: () => boolean): Promise<{ prepared: PreparedModel; releaseFirst: boolean }> => {
    const heldElsewhere = current?.session.report.backend === 'wasm' && current.session.report.plan ? { wasm: current.session.report.plan.held } : undefined;
    const prepared = await prepareModel(source, { ...options(stale), ...(heldElsewhere && { heldElsewhere }) });
    if (prepared.plans.some((p) => !p.problem) || !heldElsewhere) return { prepared, releaseFirst: false };
    const alone = await prepareModel(source, options(stale));
    return { prepared: alone, releaseFirst: alone.plans.some((p) => !p.problem) };
  };
  const fail = (stale: () => boolean, e: unknown) => {
    // The model in use, if any, stays as it was, and so do its controls.
    if (!stale()) set((s) => ({ load: { ...s.load, status: 'error', error: (e as Error).message } }));
  };
  /**
   * Starts a prepared model and swaps it in, if no newer load began meanwhile. `releaseFirst`: it fits only
   * alone, so the model in use is released before (and is gone if this load then fails).
   */
  const finish = async (prepared: PreparedModel, ref: ModelRef | null, from: NonNullable<typeof lastLoad>, releaseFirst = false) => {
    const id = ++latestLoad;
    const stale = () => id !== latestLoad;
    if (releaseFirst && current) {
      const old = current;
      current = null;
      set({ info: null });
      await old.session.release().catch(() => undefined);
    }
    const opened = await startModel(prepared, options(stale, prepared.weightBytes));
    if (stale()) {
      await opened.session.release();
      return;
    }
    // Swap first: the old session is released once its queued runs (say a rounds sweep) are done.
    const old = current;
    current = opened;
    lastLoad = from;
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
  };
  return {
    backend: 'auto',
    async setBackend(b) {
      set({ backend: b });
      if (!lastLoad) return;
      if ('hub' in lastLoad) await get().openHub(lastLoad.hub);
      else await get().loadModel(lastLoad.source, lastLoad.ref);
    },
    load: IDLE,
    info: null,
    forward: null,
    forwardError: null,
    pending: null,
    confirmAboveBytes: 200e6,
    linkOffer: null,
    accessToken: rememberedToken(),
    rememberToken: rememberedToken() !== '',
    setAccessToken(token, remember) {
      storeToken(token.trim(), remember);
      set({ accessToken: token.trim(), rememberToken: remember });
    },
    offerLink(ref) {
      set({ linkOffer: ref ? linkOffer(ref) : null });
    },

    async loadModel(source, ref = null) {
      const stale = begin();
      try {
        const { prepared, releaseFirst } = await prepare(source, stale);
        if (stale()) return;
        await finish(prepared, ref, { source, ref }, releaseFirst);
      } catch (e) {
        fail(stale, e);
      }
    },

    async openHub(ref, origin = 'form') {
      const stale = begin();
      set({ linkOffer: null });
      try {
        // The token goes to the Hub, or to a host the person typed in themselves, never to one a link named.
        const token = (ref.hub === null || ref.hub.replace(/\/+$/, '') === HUB_URL || origin === 'form' ? get().accessToken : '') || undefined;
        const cache = rangeCache();
        const hubRef = { repo: ref.model, revision: ref.revision, hubUrl: ref.hub };
        const repo = await resolveHubRepo(hubRef, { accessToken: token, cache });
        // A gated repo without a token: say what to do before any file is asked for.
        if (repo.gated && !token) throw new HubError('gated', `${ref.model} is gated: accept its licence on its Hub page, then give an access token below (huggingface.co → Settings → Access Tokens, "read")`, 401);
        const { prepared, releaseFirst } = await prepare(hubSource(repo, { accessToken: token, cache }), stale);
        if (stale()) return;
        if (!prepared.plans.some((p) => !p.problem)) throw new Error(noFitMessage(prepared.checkpoint.spec, prepared.plans, `${ref.model} (${parameterCount(prepared.checkpoint.spec).toLocaleString('en-US')} parameters)`));
        if (prepared.weightBytes >= get().confirmAboveBytes || releaseFirst) {
          pendingPrepared = { prepared, releaseFirst };
          const plans = prepared.plans.map(describePlan);
          if (releaseFirst) plans.push('it fits only alone: the model in use will be released first');
          set({ load: IDLE, pending: { ref, label: prepared.checkpoint.source, files: prepared.checkpoint.weightFiles.length, bytes: prepared.weightBytes, plans } });
          return;
        }
        await finish(prepared, ref, { hub: ref });
      } catch (e) {
        fail(stale, e);
      }
    },

    async confirmDownload() {
      const pending = get().pending;
      const held = pendingPrepared;
      if (!pending || !held) return;
      const stale = begin();
      try {
        await finish(held.prepared, pending.ref, { hub: pending.ref }, held.releaseFirst);
      } catch (e) {
        fail(stale, e);
      }
    },

    cancelDownload() {
      pendingPrepared = null;
      set({ pending: null });
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
  };
});

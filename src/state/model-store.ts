import { create } from 'zustand';
import { HUB_URL } from '../model/source/hub-source';
import { parseTemplateDate } from '../model/tokenizer/template-date';
import type { LoadStage } from '../runtime/open-model';
import type { FallbackTemplate } from '../model/tokenizer/chatml';
import type { Quant } from '../model/precision/quantize';
import type { BackendChoice, ForwardView, LoadedSummary, LoadEvent, ModelApi, PreparedSummary, SourceSpec } from '../worker/api';
import { STALE_MODEL } from '../worker/api';
import { linkOffer, rememberedToken, storeToken, type LinkOffer, type ModelRef } from './hub-access';
import { MAX_MODELS, modelClient, onWorkerLost, type ModelSlot } from './model-client';

export type { BackendChoice, ForwardView } from '../worker/api';

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
export type { ModelRef } from './hub-access';

/** The model in use, as the worker described it when it started, and how a link names it. */
export interface ModelInfo extends LoadedSummary {
  ref: ModelRef | null;
}

interface ModelState {
  backend: BackendChoice;
  /** Reloads the current model on the chosen backend. */
  setBackend(b: BackendChoice): Promise<void>;
  /** The weight precision chosen (model/precision/quantize.ts): 'none' is the checkpoint's own. */
  quant: Quant;
  /** Plans the model waiting for confirmation again at this precision, or reloads the model in use at it. */
  setQuant(q: Quant): Promise<void>;
  /** The named template for a model with none of its own; null until the person chooses one after the refusal. */
  template: FallbackTemplate | null;
  /** Chooses the fallback template and tries the model asked for last again. */
  renderWithTemplate(t: FallbackTemplate): Promise<void>;
  /** Where the model in use came from (null: none loaded), to load the same model into another slot. */
  origin(): LoadOrigin | null;
  /** Loads a model from where another slot's came from (compare a model with itself at another precision). */
  loadFrom(origin: LoadOrigin): Promise<void>;
  load: LoadState;
  info: ModelInfo | null;
  forward: ForwardView | null;
  forwardError: string | null;
  /** Loads from files or the demo model's folder: planned, then started; picked files of confirmAboveBytes or more wait for confirmDownload, as a download does. */
  loadModel(source: Exclude<SourceSpec, { kind: 'hub' }>, ref?: ModelRef | null): Promise<void>;
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
  setTemplateDate(date: string): Promise<boolean>;
  runForward(text: string, asChat: boolean): Promise<void>;
}

/** A model resolved and planned, waiting for the person to confirm its download (Hub) or its load (picked files). */
export interface PendingDownload extends Pick<PreparedSummary, 'label' | 'files' | 'bytes' | 'plans' | 'fits' | 'quant'> {
  /** The Hub model; null for picked or dropped files (nothing to download: they are read from disk). */
  ref: ModelRef | null;
}

/** Where a model came from: files or a folder URL (with how a link names it), or a Hub repo. */
export type LoadOrigin = { source: SourceSpec; ref: ModelRef | null } | { hub: ModelRef };

const IDLE: LoadState = { status: 'idle', stage: null, file: null, loaded: 0, total: null, allLoaded: 0, allTotal: null, error: null };

/** A mark on the page's performance timeline, for the bench's account of where start-up time goes. */
export const mark = (name: string) => void globalThis.performance?.mark?.(`inertia-lens ${name}`);

const isStale = (e: unknown) => (e as Error)?.name === STALE_MODEL;

/** The store of one model slot: slot 0 is the model inspected, the others the ones compared with it (each its own worker). */
function createModelStore(slot: ModelSlot) {
  /** Only the newest load may land: a slower, older one (say the demo model at start-up) is dropped. */
  let latestLoad = 0;
  /** What the model in use was loaded from, for reloading it on another backend (set only when a load lands). */
  let lastLoad: LoadOrigin | null = null;
  /** What was asked for last, landed or not: planned again when the precision or the fallback template changes. */
  let lastAsked: LoadOrigin | null = null;
  /** Where the model waiting for confirmation came from. */
  let pendingFrom: LoadOrigin | null = null;
  /** The worker's prepared model behind `pending`. */
  let pendingPrepared: PreparedSummary | null = null;
  /** Lookups (resolving, reading headers, planning): the newest wins, without stopping a load under way. */
  let latestLook = 0;
  const marks = slot === 0 ? mark : () => undefined;

  return create<ModelState>()((set, get) => {
    // Looked up on each call: a test may put its own client in place.
    const client = {
      call: <M extends keyof ModelApi & string>(m: M, args: ModelApi[M]['args'], onEvent?: (e: ModelApi[M]['event']) => void) =>
        modelClient(slot).call(m, args, onEvent),
    };
    // The worker was replaced (a template or tokenizer ran past its budget): its model is gone.
    onWorkerLost((message) => {
      latestLoad++;
      latestLook++;
      pendingPrepared = null;
      set({ info: null, pending: null, load: { ...IDLE, status: 'error', error: message } });
    }, slot);

    /** Load progress as the store shows it; weight bytes are summed over files when their total is known. */
    const progress = (stale: () => boolean, weightBytes: number | null = null) => {
      const perFile = new Map<string, number>();
      return (p: LoadEvent) => {
        if (stale()) return;
        if (p.read && weightBytes !== null) perFile.set(p.read.file, p.read.loaded);
        const allLoaded = [...perFile.values()].reduce((a, b) => a + b, 0);
        set((s) => ({
          load: {
            ...s.load,
            stage: p.stage as LoadStage,
            allLoaded,
            allTotal: weightBytes,
            ...(p.read && { file: p.read.file, loaded: p.read.loaded, total: p.read.total }),
          },
        }));
      };
    };
    /**
     * A new lookup: it shows as loading, and supersedes an earlier lookup, but not a load already under way
     * (the demo model at start-up): only starting a session (finish) claims the model slot.
     */
    const begin = () => {
      const id = ++latestLook;
      if (pendingPrepared) void client.call('discard', { preparedId: pendingPrepared.preparedId }).promise.catch(() => undefined);
      pendingPrepared = null;
      set({ load: { ...IDLE, status: 'loading', stage: 'download' }, pending: null });
      return () => id !== latestLook;
    };
    const prepare = (source: SourceSpec, stale: () => boolean) =>
      client.call('prepare', { source, backend: get().backend, quant: get().quant, template: get().template }, progress(stale)).promise;
    /** The last model asked for, asked for again (a new precision, backend or template). */
    const again = async (what: LoadOrigin) => {
      if ('hub' in what) await get().openHub(what.hub);
      else await get().loadModel(what.source as Exclude<SourceSpec, { kind: 'hub' }>, what.ref);
    };
    /** Holds a prepared model for the person to confirm, with its plan at every precision. */
    const hold = (prepared: PreparedSummary, ref: ModelRef | null, from: LoadOrigin) => {
      pendingPrepared = prepared;
      pendingFrom = from;
      set({
        load: IDLE,
        pending: {
          ref,
          label: prepared.label,
          files: prepared.files,
          bytes: prepared.bytes,
          plans: prepared.plans,
          fits: prepared.fits,
          quant: prepared.quant,
        },
      });
    };
    const fail = (stale: () => boolean, e: unknown) => {
      // The model in use, if any, stays as it was, and so do its controls.
      if (!stale()) set((s) => ({ load: { ...s.load, status: 'error', error: (e as Error).message } }));
    };
    /** Starts a prepared model in the worker and shows it, if no newer load began meanwhile. */
    const finish = async (prepared: PreparedSummary, ref: ModelRef | null, from: LoadOrigin) => {
      const id = ++latestLoad;
      const stale = () => id !== latestLoad;
      if (prepared.releaseFirst) set({ info: null });
      const loaded = await client.call('start', { preparedId: prepared.preparedId }, progress(stale, prepared.bytes)).promise;
      if (!loaded || stale()) return;
      lastLoad = from;
      set({ load: { ...IDLE, status: 'ready' }, forward: null, forwardError: null, info: { ...loaded, ref } });
    };
    return {
      backend: 'auto',
      async setBackend(b) {
        const before = get().backend;
        set({ backend: b });
        // The model in use (lastLoad is set only when a load succeeded), not a request that failed since.
        if (!lastLoad) return;
        await again(lastLoad);
        // Refused there: the model keeps running where it was, and the choice shown says so.
        if (get().load.status === 'error' && get().backend === b) set({ backend: before });
      },
      quant: 'none',
      async setQuant(q) {
        const before = get().quant;
        set({ quant: q });
        // A model waiting for confirmation is planned again; else the model in use is loaded again at q.
        const what = get().pending ? pendingFrom : lastLoad;
        if (!what) return;
        await again(what);
        if (get().load.status === 'error' && get().quant === q && !get().pending) set({ quant: before });
      },
      origin: () => lastLoad,
      loadFrom: (origin) => again(origin),
      template: null,
      async renderWithTemplate(t) {
        set({ template: t });
        if (lastAsked) await again(lastAsked);
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
        lastAsked = { source, ref };
        try {
          marks('load: asked');
          const prepared = await prepare(source, stale);
          marks('load: prepared (files read, memory planned)');
          if (stale()) return;
          if (prepared.noFit) throw new Error(prepared.noFit);
          // Picked or dropped files are shown with their plan before they are read, as a download is.
          if (source.kind === 'files' && (prepared.bytes >= get().confirmAboveBytes || prepared.releaseFirst)) return hold(prepared, ref, { source, ref });
          await finish(prepared, ref, { source, ref });
          marks('load: session made');
        } catch (e) {
          fail(stale, e);
        }
      },

      async openHub(ref, origin = 'form') {
        const stale = begin();
        set({ linkOffer: null });
        lastAsked = { hub: ref };
        try {
          // The token goes to the Hub, or to a host the person typed in themselves, never to one a link named.
          const token = (ref.hub === null || ref.hub.replace(/\/+$/, '') === HUB_URL || origin === 'form' ? get().accessToken : '') || undefined;
          const prepared = await prepare(
            { kind: 'hub', repo: ref.model, revision: ref.revision, hubUrl: ref.hub, ...(token && { accessToken: token }) },
            stale,
          );
          if (stale()) return;
          if (prepared.noFit) throw new Error(prepared.noFit);
          if (prepared.bytes >= get().confirmAboveBytes || prepared.releaseFirst) return hold(prepared, ref, { hub: ref });
          await finish(prepared, ref, { hub: ref });
        } catch (e) {
          fail(stale, e);
        }
      },

      async confirmDownload() {
        const pending = get().pending;
        const held = pendingPrepared;
        const from = pendingFrom;
        if (!pending || !held || !from) return;
        pendingPrepared = null;
        const stale = begin();
        try {
          await finish(held, pending.ref, from);
        } catch (e) {
          fail(stale, e);
        }
      },

      cancelDownload() {
        if (pendingPrepared) void client.call('discard', { preparedId: pendingPrepared.preparedId }).promise.catch(() => undefined);
        pendingPrepared = null;
        // A precision chosen for the model not loaded goes with it: the select shows the model in use again.
        set((s) => ({ pending: null, quant: s.info?.quant ?? s.quant }));
      },

      async setTemplateDate(date) {
        const info = get().info;
        if (!info || info.templateDate === null || !parseTemplateDate(date)) return false;
        const ok = await client.call('setTemplateDate', { modelId: info.modelId, date }).promise.catch(() => false);
        if (ok && get().info?.modelId === info.modelId) set({ info: { ...info, templateDate: date } });
        return ok;
      },

      async runForward(text, asChat) {
        const info = get().info;
        if (!info) return;
        try {
          const forward = await client.call('forward', { modelId: info.modelId, text, asChat }).promise;
          set({ forwardError: null, forward });
        } catch (e) {
          if (!isStale(e)) set({ forwardError: (e as Error).message });
        }
      },
    };
  });
}

export type ModelStore = ReturnType<typeof createModelStore>;
/** Every slot's store (a store is cheap; a slot's worker starts only when its first model loads). */
const stores: readonly ModelStore[] = Array.from({ length: MAX_MODELS }, (_, slot) => createModelStore(slot));
/** A slot's store. */
export function modelStore(slot: ModelSlot): ModelStore {
  const s = stores[slot];
  if (!s) throw new RangeError(`model slot ${slot}: there are ${MAX_MODELS} (0–${MAX_MODELS - 1})`);
  return s;
}
/** The model inspected (slot 0). */
export const useModelStore = modelStore(0);
/** Every slot's store, slot 0 first. */
export const modelStores = (): readonly ModelStore[] => stores;

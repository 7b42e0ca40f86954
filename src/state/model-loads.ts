/**
 * One model slot's state and its loads: what the store holds (ModelState), and the bookkeeping that lets only
 * the newest load land (SlotLoads). model-store.ts makes one store per slot from these.
 */
import type { create } from 'zustand';
import { HUB_URL } from '../model/source/hub-source';
import type { FallbackTemplate } from '../model/tokenizer/chatml';
import type { Quant } from '../model/precision/quantize';
import type { LoadStage } from '../runtime/open-model';
import type { BackendChoice, ForwardView, LoadedSummary, LoadEvent, ModelApi, PreparedSummary, SourceSpec } from '../worker/api';
import type { LinkOffer, ModelRef } from './hub-access';
import { modelClient, onWorkerLost, type ModelSlot } from './model-client';

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

/** The model in use, as the worker described it when it started, and how a link names it. */
export interface ModelInfo extends LoadedSummary {
  ref: ModelRef | null;
}

export interface ModelState {
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

export const IDLE: LoadState = { status: 'idle', stage: null, file: null, loaded: 0, total: null, allLoaded: 0, allTotal: null, error: null };

/** A mark on the page's performance timeline, for the bench's account of where start-up time goes. */
export const mark = (name: string) => void globalThis.performance?.mark?.(`inertia-lens ${name}`);

export type Set = Parameters<Parameters<ReturnType<typeof create<ModelState>>>[0]>[0];
export type Get = () => ModelState;

/**
 * One slot's loads: only the newest may land (a slower, older one, say the demo model at start-up, is
 * dropped); a lookup supersedes an earlier lookup but not a load under way; a model waiting for the person's
 * confirmation is held in the worker until started or discarded.
 */
export class SlotLoads {
  private latestLoad = 0;
  /** What the model in use was loaded from, for reloading it on another backend (set only when a load lands). */
  lastLoad: LoadOrigin | null = null;
  /** What was asked for last, landed or not: planned again when the precision or the fallback template changes. */
  lastAsked: LoadOrigin | null = null;
  /** Where the model waiting for confirmation came from, and the worker's prepared model behind it. */
  pendingFrom: LoadOrigin | null = null;
  pendingPrepared: PreparedSummary | null = null;
  private latestLook = 0;
  readonly marks: (name: string) => void;

  constructor(
    readonly slot: ModelSlot,
    private readonly set: Set,
    private readonly get: Get,
  ) {
    this.marks = slot === 0 ? mark : () => undefined;
    // The worker was replaced (a template or tokenizer ran past its budget): its model is gone.
    onWorkerLost((message) => {
      this.latestLoad++;
      this.latestLook++;
      this.pendingPrepared = null;
      set({ info: null, pending: null, load: { ...IDLE, status: 'error', error: message } });
    }, slot);
  }

  /** Looked up on each call: a test may put its own client in place. */
  call<M extends keyof ModelApi & string>(m: M, args: ModelApi[M]['args'], onEvent?: (e: ModelApi[M]['event']) => void) {
    return modelClient(this.slot).call(m, args, onEvent);
  }

  /** Load progress as the store shows it; weight bytes are summed over files when their total is known. */
  private progress(stale: () => boolean, weightBytes: number | null = null) {
    const perFile = new Map<string, number>();
    return (p: LoadEvent) => {
      if (stale()) return;
      if (p.read && weightBytes !== null) perFile.set(p.read.file, p.read.loaded);
      const allLoaded = [...perFile.values()].reduce((a, b) => a + b, 0);
      const read = p.read && { file: p.read.file, loaded: p.read.loaded, total: p.read.total };
      this.set((s) => ({ load: { ...s.load, stage: p.stage as LoadStage, allLoaded, allTotal: weightBytes, ...read } }));
    };
  }

  /** Drops the model waiting for confirmation (and what the worker spooled for it). */
  discardPending(): void {
    if (this.pendingPrepared) void this.call('discard', { preparedId: this.pendingPrepared.preparedId }).promise.catch(() => undefined);
    this.pendingPrepared = null;
  }

  /** A new lookup: it shows as loading; only starting a session (finish) claims the model slot. Returns "is it stale?". */
  begin(): () => boolean {
    const id = ++this.latestLook;
    this.discardPending();
    this.set({ load: { ...IDLE, status: 'loading', stage: 'download' }, pending: null });
    return () => id !== this.latestLook;
  }

  prepare(source: SourceSpec, stale: () => boolean): Promise<PreparedSummary> {
    const { backend, quant, template } = this.get();
    return this.call('prepare', { source, backend, quant, template }, this.progress(stale)).promise;
  }

  /** The last model asked for, asked for again (a new precision, backend or template). */
  async again(what: LoadOrigin): Promise<void> {
    if ('hub' in what) await this.get().openHub(what.hub);
    else await this.get().loadModel(what.source as Exclude<SourceSpec, { kind: 'hub' }>, what.ref);
  }

  /** Holds a prepared model for the person to confirm, with its plan at every precision. */
  hold(prepared: PreparedSummary, ref: ModelRef | null, from: LoadOrigin): void {
    this.pendingPrepared = prepared;
    this.pendingFrom = from;
    const { label, files, bytes, plans, fits, quant } = prepared;
    this.set({ load: IDLE, pending: { ref, label, files, bytes, plans, fits, quant } });
  }

  /** The model in use, if any, stays as it was, and so do its controls. */
  fail(stale: () => boolean, e: unknown): void {
    if (!stale()) this.set((s) => ({ load: { ...s.load, status: 'error', error: (e as Error).message } }));
  }

  /** Starts a prepared model in the worker and shows it, if no newer load began meanwhile. */
  async finish(prepared: PreparedSummary, ref: ModelRef | null, from: LoadOrigin): Promise<void> {
    const id = ++this.latestLoad;
    const stale = () => id !== this.latestLoad;
    if (prepared.releaseFirst) this.set({ info: null });
    const loaded = await this.call('start', { preparedId: prepared.preparedId }, this.progress(stale, prepared.bytes)).promise;
    if (!loaded || stale()) return;
    this.lastLoad = from;
    // A model from files is named by its folder, architecture and size ("4 files" says nothing).
    const source = 'source' in from && from.source.kind === 'files' ? filesModelName(from.source.label, loaded) : loaded.source;
    this.set({ load: { ...IDLE, status: 'ready' }, forward: null, forwardError: null, info: { ...loaded, source, ref } });
  }

  /** Prepared, then started, or held for confirmation when it is large (or fits only alone). */
  async load(source: SourceSpec, ref: ModelRef | null, from: LoadOrigin, stale: () => boolean, confirm: (p: PreparedSummary) => boolean): Promise<void> {
    try {
      this.marks('load: asked');
      const prepared = await this.prepare(source, stale);
      this.marks('load: prepared (files read, memory planned)');
      if (stale()) return;
      if (prepared.noFit) throw new Error(prepared.noFit);
      if (confirm(prepared)) return this.hold(prepared, ref, from);
      await this.finish(prepared, ref, from);
      this.marks('load: session made');
    } catch (e) {
      this.fail(stale, e);
    }
  }
}

/** The choices that reload the model: backend, precision, fallback template. */
export function choices(
  l: SlotLoads,
  set: Set,
  get: Get,
): Pick<ModelState, 'backend' | 'setBackend' | 'quant' | 'setQuant' | 'origin' | 'loadFrom' | 'template' | 'renderWithTemplate'> {
  return {
    backend: 'auto',
    async setBackend(b) {
      const before = get().backend;
      set({ backend: b });
      // The model in use (lastLoad is set only when a load succeeded), not a request that failed since.
      if (!l.lastLoad) return;
      await l.again(l.lastLoad);
      // Refused there: the model keeps running where it was, and the choice shown says so.
      if (get().load.status === 'error' && get().backend === b) set({ backend: before });
    },
    quant: 'none',
    async setQuant(q) {
      const before = get().quant;
      set({ quant: q });
      // A model waiting for confirmation is planned again; else the model in use is loaded again at q.
      const what = get().pending ? l.pendingFrom : l.lastLoad;
      if (!what) return;
      await l.again(what);
      if (get().load.status === 'error' && get().quant === q && !get().pending) set({ quant: before });
    },
    origin: () => l.lastLoad,
    loadFrom: (origin) => l.again(origin),
    template: null,
    async renderWithTemplate(t) {
      set({ template: t });
      if (l.lastAsked) await l.again(l.lastAsked);
    },
  };
}

/** Loading from files, a folder URL or the Hub, and the download's confirmation. */
export function loads(l: SlotLoads, set: Set, get: Get): Pick<ModelState, 'loadModel' | 'openHub' | 'confirmDownload' | 'cancelDownload'> {
  const large = (p: PreparedSummary) => p.bytes >= get().confirmAboveBytes || p.releaseFirst;
  return {
    async loadModel(source, ref = null) {
      const stale = l.begin();
      l.lastAsked = { source, ref };
      // Picked or dropped files are shown with their plan before they are read, as a download is.
      await l.load(source, ref, { source, ref }, stale, (p) => source.kind === 'files' && large(p));
    },
    async openHub(ref, origin = 'form') {
      const stale = l.begin();
      set({ linkOffer: null });
      l.lastAsked = { hub: ref };
      // The token goes to the Hub, or to a host the person typed in themselves, never to one a link named.
      const token = (ref.hub === null || ref.hub.replace(/\/+$/, '') === HUB_URL || origin === 'form' ? get().accessToken : '') || undefined;
      const source: SourceSpec = { kind: 'hub', repo: ref.model, revision: ref.revision, hubUrl: ref.hub, ...(token && { accessToken: token }) };
      await l.load(source, ref, { hub: ref }, stale, large);
    },
    async confirmDownload() {
      const { pending } = get();
      const held = l.pendingPrepared;
      const from = l.pendingFrom;
      if (!pending || !held || !from) return;
      l.pendingPrepared = null;
      const stale = l.begin();
      try {
        await l.finish(held, pending.ref, from);
      } catch (e) {
        l.fail(stale, e);
      }
    },
    cancelDownload() {
      l.discardPending();
      // A precision chosen for the model not loaded goes with it: the select shows the model in use again.
      set((s) => ({ pending: null, quant: s.info?.quant ?? s.quant }));
    },
  };
}

/** "Qwen2.5-0.5B-Instruct · qwen2, 494M parameters": a model read from files, by folder, family and size. */
export function filesModelName(folder: string, loaded: Pick<LoadedSummary, 'spec' | 'parameters'>): string {
  const p = loaded.parameters;
  const size = p >= 1e9 ? `${(p / 1e9).toFixed(1)}B` : p >= 1e6 ? `${p >= 1e8 ? Math.round(p / 1e6) : (p / 1e6).toFixed(1)}M` : p.toLocaleString('en-US');
  return `${folder} · ${loaded.spec.family}, ${size} parameters`;
}

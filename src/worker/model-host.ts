/**
 * The model worker's state and handlers: the open model, models prepared and waiting, summaries. Plain
 * code over the runtime and the analysis, so Node tests drive it over a MessageChannel as the page
 * drives the worker.
 */
import { generateAnswer } from '../analysis/answer';
import type { GenerationStop } from '../analysis/generate';
import { forwardProbe } from '../analysis/forward-probe';
import { watchGuards } from '../model/tokenizer/guard';
import { HubError, hubSource, resolveHubRepo } from '../model/source/hub-source';
import { describeFits, describePlan, noFitMessage } from '../model/memory/load-plan';
import { precisionName } from '../model/precision/quantize';
import { rangeCache } from '../model/source/range-cache';
import { fileListSource, folderUrlSource, type ModelSource } from '../model/source/source';
import { parseTemplateDate } from '../model/tokenizer/template-date';
import { parameterCount } from '../model/checkpoint/weights';
import { prepareModel, startModel, type OpenModel, type OpenOptions, type PreparedModel } from '../runtime/open-model';
import type { Handlers } from './rpc';
import { Inspection } from './inspection';
import { spooledSource } from './spool';
import { STALE_MODEL, type LoadChoice, type LoadedSummary, type ModelApi, type PreparedSummary, type SourceSpec } from './api';
import { sharedWatcher } from './watchdog';

/** Up to this size every layer is inspectable; above it only the final one. */
export const ALL_LAYERS_MAX_PARAMETERS = 20_000_000;
/** Prepared models waiting for a start (a lookup, a download to confirm): the oldest goes first. */
const PREPARED_KEPT = 3;

/** Yields to the worker's event loop, so a cancel or a newer request can arrive between steps. */
const yieldToMessages = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/**
 * The same, at most every few milliseconds: a timer is clamped to 4 ms once nested, and a sweep whose
 * turns come from one shared pass takes well under that per turn (35 yields cost 140 ms).
 */
function yieldEvery(ms: number): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < ms) return;
    await yieldToMessages();
    last = performance.now();
  };
}

class StaleModelError extends Error {
  override name = STALE_MODEL;
}

function sourceOf(spec: Exclude<SourceSpec, { kind: 'hub' }>): ModelSource {
  if (spec.kind === 'url') return folderUrlSource(spec.base, spec.files, spec.label);
  return fileListSource(
    spec.files.map((f, i) => ({ name: spec.names[i]!, size: f.size, slice: (a: number, b: number) => f.slice(a, b) })),
    spec.label,
  );
}

function summaryOf(m: OpenModel, modelId: number, spooled: boolean): LoadedSummary {
  const { checkpoint, graph, session } = m;
  return {
    modelId,
    source: checkpoint.source,
    spec: checkpoint.spec,
    parameters: parameterCount(checkpoint.spec),
    dtypes: checkpoint.dtypes,
    weightStorage: graph.weightStorage,
    report: session.report,
    inspectLayers: graph.inspectLayers,
    templateDate: m.tokenizer.usesDate ? m.tokenizer.templateDate : null,
    weightReads: !checkpoint.syncReads
      ? 'held in memory until the session was made'
      : spooled
        ? "downloaded to this browser's disk, then read a tensor at a time as onnxruntime copied it"
        : 'read a tensor at a time as onnxruntime copied it',
    attention:
      graph.attentionNote ??
      (graph.attention === 'fused' && graph.inspectLayers.length < checkpoint.spec.numLayers
        ? 'layers not inspected: fused GroupQueryAttention'
        : 'explicit in every layer'),
    quant: graph.quant,
    precision: precisionName(graph.quant, checkpoint.spec.awq),
    fallbackTemplate: m.tokenizer.fallbackTemplate,
  };
}

/** How the worker opens a model for the person's choice. */
function options({ backend, quant, template }: LoadChoice, onProgress?: OpenOptions['onProgress']): OpenOptions {
  return {
    quant,
    ...(template && { template }),
    // Small models: every layer's attention is an output, so the layer selector needs no rebuild. Larger
    // ones inspect the final layer only (no [S × S] scores kept for the others).
    inspectLayers: (spec) => (parameterCount(spec) <= ALL_LAYERS_MAX_PARAMETERS ? 'all' : [spec.numLayers - 1]),
    // Every layer's per-head figures are outputs too (the layers × heads grid): reduced in the graph, and
    // run on every pass (onnxruntime runs the whole graph), a cost measured in docs/bench/heads.md.
    headFigures: true,
    ...(backend === 'wasm' && { prefer: ['wasm' as const] }),
    softwareWebGpu: backend === 'auto' ? 'avoid' : 'use',
    ...(onProgress && { onProgress }),
  };
}

/** A source to read: a Hub repo resolved (its downloads spooled to disk as they arrive), or files and folders as given. */
async function openSource(source: SourceSpec): Promise<{ src: ModelSource; spool: () => Promise<void> }> {
  if (source.kind !== 'hub') return { src: sourceOf(source), spool: async () => undefined };
  const cache = rangeCache();
  const token = source.accessToken;
  const repo = await resolveHubRepo({ repo: source.repo, revision: source.revision, hubUrl: source.hubUrl }, { accessToken: token, cache });
  // A gated repo without a token: say what to do before any file is asked for.
  if (repo.gated && !token) {
    throw new HubError(
      'gated',
      `${source.repo} is gated: accept its licence on its Hub page, then give an access token below (huggingface.co → Settings → Access Tokens, "read")`,
      401,
    );
  }
  // Downloads go to disk as they arrive and are read from there as onnxruntime copies each tensor.
  const spooled = await spooledSource(hubSource(repo, { accessToken: token, cache }));
  return { src: spooled.source, spool: spooled.release };
}

/** What the page shows of a prepared model before it is started. */
function preparedSummary(p: PreparedModel, source: SourceSpec, preparedId: number, releaseFirst: boolean): PreparedSummary {
  const fits = p.plans.some((x) => !x.problem);
  const count = `${parameterCount(p.checkpoint.spec).toLocaleString('en-US')} parameters`;
  const label = source.kind === 'hub' ? `${source.repo} (${count})` : `This model (${count})`;
  return {
    preparedId,
    label: p.checkpoint.source,
    files: p.checkpoint.weightFiles.length,
    bytes: p.weightBytes,
    plans: [...p.plans.map(describePlan), ...(releaseFirst ? ['it fits only alone: the model in use will be released first'] : [])],
    fits: describeFits(p.fits),
    quant: p.quant,
    noFit: fits ? null : noFitMessage(p.checkpoint.spec, p.plans, label, p.fits),
    releaseFirst,
  };
}

/** The model in use, as the requests about a conversation read it. */
interface Held {
  /** The model a request was made for; a StaleModelError when it has changed since. */
  model(id: number): OpenModel;
  /** Its results, series and sweeps. */
  inspection(): Inspection;
  isCurrent(id: number): boolean;
}

/** The requests about a conversation: inspect, generate, forward, and the template's date. */
function conversationHandlers(held: Held): Pick<Handlers<ModelApi>, 'inspect' | 'generate' | 'forward' | 'setTemplateDate'> {
  return {
    async inspect(a, ctx) {
      held.model(a.modelId);
      const pause = yieldEvery(20);
      await held.inspection().inspect(a, {
        emit: (e) => ctx.emit(e),
        cancelled: () => ctx.cancelled() || !held.isCurrent(a.modelId),
        pause,
      });
    },

    async generate(a, ctx) {
      held.model(a.modelId);
      const scored = await held.inspection().scored(a.conversation, a.turn, undefined);
      const { summaries } = scored;
      const { model: m } = await held.inspection().modelWith(a.off ?? [], a.offKind, scored, a.turn);
      let tokens = 0;
      let stop: GenerationStop = 'limit';
      const text = await generateAnswer(m, a.conversation, a.policy, a.turn, {
        summaries,
        onText: (text, n) => {
          tokens = n;
          ctx.emit({ text, tokens: n });
        },
        onStop: (why) => (stop = why),
        between: async () => {
          await yieldToMessages();
          return ctx.cancelled() || !held.isCurrent(a.modelId);
        },
      });
      return { text, tokens, stop };
    },

    async forward({ modelId: id, text, asChat }) {
      return { text, ...(await forwardProbe(held.model(id), text, { chat: asChat })) };
    },

    async setTemplateDate({ modelId: id, date }) {
      const m = held.model(id);
      if (!m.tokenizer.usesDate || !parseTemplateDate(date)) return false;
      m.tokenizer.templateDate = date;
      held.inspection().clear(); // summaries and renderings were made under the old date
      return true;
    },
  };
}

export function modelHost(): Handlers<ModelApi> {
  let current: OpenModel | null = null;
  let modelId = 0;
  let nextPrepared = 0;
  let latestStart = 0;
  const prepared = new Map<number, { prepared: PreparedModel; choice: LoadChoice; releaseFirst: boolean; spool: () => Promise<void>; spooled: boolean }>();
  /** Drops a prepared model, and the weights it spooled to disk. */
  const forget = (id: number) => {
    void prepared
      .get(id)
      ?.spool()
      .catch(() => undefined);
    prepared.delete(id);
  };
  /** The model in use's results, series and sweeps, kept beside it. */
  let inspection: Inspection | null = null;

  const model = (id: number): OpenModel => {
    if (!current || id !== modelId) throw new StaleModelError('the model changed since this request');
    return current;
  };

  return {
    async init({ guard }) {
      if (guard) watchGuards(sharedWatcher(guard));
    },

    async prepare({ source, ...choice }, ctx) {
      const { src, spool } = await openSource(source);
      const onProgress: OpenOptions['onProgress'] = (p) => ctx.emit(p);
      // Planned beside the model in use (they share wasm's heap while the new one loads), else alone.
      const held = current?.session.report.backend === 'wasm' ? current.session.report.plan?.held : undefined;
      let p = await prepareModel(src, { ...options(choice, onProgress), ...(held && { heldElsewhere: { wasm: held } }) });
      let releaseFirst = false;
      if (held && !p.plans.some((x) => !x.problem)) {
        const alone = await prepareModel(src, options(choice, onProgress));
        releaseFirst = alone.plans.some((x) => !x.problem);
        if (releaseFirst) p = alone;
      }
      const preparedId = ++nextPrepared;
      prepared.set(preparedId, { prepared: p, choice, releaseFirst, spool, spooled: source.kind === 'hub' });
      while (prepared.size > PREPARED_KEPT) forget(prepared.keys().next().value!);
      return preparedSummary(p, source, preparedId, releaseFirst);
    },

    async discard({ preparedId }) {
      forget(preparedId);
    },

    async start({ preparedId }, ctx) {
      const held = prepared.get(preparedId);
      if (!held) throw new Error('that model is no longer prepared here: look it up again');
      prepared.delete(preparedId);
      const id = ++latestStart;
      if (held.releaseFirst && current) {
        const old = current;
        current = null;
        inspection = null;
        modelId++;
        await old.session.release().catch(() => undefined);
      }
      // The session holds the weights once made: the spooled copies go either way.
      const opened = await startModel(
        held.prepared,
        options(held.choice, (p) => ctx.emit(p)),
      ).finally(() => held.spool().catch(() => undefined));
      if (id !== latestStart) {
        await opened.session.release();
        return null;
      }
      // Swap first: the old session is released once its queued runs are done.
      const old = current;
      current = opened;
      modelId++;
      inspection = new Inspection(opened);
      void old?.session.release().catch(() => undefined);
      return summaryOf(opened, modelId, held.spooled);
    },

    ...conversationHandlers({ model, inspection: () => inspection!, isCurrent: (id) => id === modelId }),
  };
}

/**
 * What the page asks the model worker, and what comes back: plain data only (structured clone), types
 * only (no code crosses). Every model-touching step runs in the worker; the page keeps state and views.
 */
import type { AblationKind, HeadRef } from '../analysis/ablation';
import type { PolicyResult } from '../analysis/analyze';
import type { LayerFigures } from '../analysis/heads';
import type { TurnCost } from '../context/cost';
import type { ForwardProbe } from '../analysis/forward-probe';
import type { SweepPoint } from '../analysis/sweep';
import type { GenerationStop } from '../analysis/generate';
import type { Conversation } from '../conversation/types';
import type { ModelSpec } from '../model/config/config';
import type { ReadProgress } from '../model/source/source';
import type { LoadStage } from '../runtime/open-model';
import type { BackendReport } from '../runtime/ort-runtime';
import type { FallbackTemplate } from '../model/tokenizer/chatml';
import type { Quant } from '../model/precision/quantize';

/** 'auto': WebGPU on a GPU, wasm where the adapter is a software one. 'wasm': skip WebGPU. 'webgpu': WebGPU even on a software adapter. */
export type BackendChoice = 'auto' | 'wasm' | 'webgpu';

/** Where the model's files are: rebuilt as a ModelSource inside the worker. */
export type SourceSpec =
  /** Files at a base URL (the demo model): absolute, since the worker resolves URLs against its own. */
  | { kind: 'url'; base: string; files: string[]; label: string }
  /** Files a person dropped or picked (File objects clone without copying their bytes); `names` beside them, since Node's clone of a File drops its name. */
  | { kind: 'files'; files: Blob[]; names: string[]; label: string }
  /** A Hub repo; the token only where the page decided it may go (state/model-store.ts). */
  | { kind: 'hub'; repo: string; revision: string; hubUrl: string | null; accessToken?: string };

export interface LoadEvent {
  stage: LoadStage;
  read?: ReadProgress;
}

/** How a model is to be loaded besides its source: where it runs, at which precision, with which template if it has none. */
export interface LoadChoice {
  backend: BackendChoice;
  quant: Quant;
  /** A named template for a model with none of its own (a base model); null: the model's own only. */
  template: FallbackTemplate | null;
}

/** A model planned from its small files, held in the worker under `preparedId` until started or discarded. */
export interface PreparedSummary {
  preparedId: number;
  /** repo@commit, the folder, "3 files". */
  label: string;
  files: number;
  bytes: number;
  /** One line per backend (model/memory/load-plan.ts describePlan), at the precision asked for. */
  plans: string[];
  /** Where it fits at each precision, one line per backend (describeFits): what the person chooses from. */
  fits: string[];
  /** The precision these plans are for. */
  quant: Quant;
  /** Why it fits nowhere, or null. */
  noFit: string | null;
  /** It fits only without the model in use: starting it releases that one first. */
  releaseFirst: boolean;
}

/** A started model, as the page shows it. `modelId` names it in every later request. */
export interface LoadedSummary {
  modelId: number;
  source: string;
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
  /** How the weights reached onnxruntime: read as it copied each tensor, or held until the session was made. */
  weightReads: string;
  /** The precision chosen, and as every figure names it ('none', 'q4', 'awq4-g128'…; model/precision/quantize.ts precisionName). */
  quant: Quant;
  precision: string;
  /** The named template it renders with, when it has none of its own; null: its own. */
  fallbackTemplate: FallbackTemplate | null;
}

/** The raw forward pass's result (analysis/forward-probe.ts) and the text it ran on. */
export interface ForwardView extends ForwardProbe {
  text: string;
}

/** What a request about the conversation names: the model it was made for, and the conversation scored. */
interface OnConversation {
  modelId: number;
  conversation: Conversation;
  policy: string;
  turn: number;
  /** Heads switched off while it writes (analysis/ablation.ts), and how; none: every head on. */
  off?: HeadRef[];
  offKind?: AblationKind;
}

/** One model slot's view of the conversation: everything its figures, series and sweep depend on. */
export interface InspectRequest {
  modelId: number;
  conversation: Conversation;
  /** The model's own answers for `turn`, per policy spec: each replaces the file's answer under its policy. */
  generated: Record<string, string>;
  /** The policies scored, in the order shown. */
  policies: string[];
  turn: number;
  /** The layer shown, and the layers one pass fetches (the layer selector re-reads them without a pass). */
  layer: number;
  layers: number[];
  radius: number;
  /** Keep every row of the attention (the full causal matrix) up to fullMatrixMaxTokens tokens. */
  fullMatrix: boolean;
  fullMatrixMaxTokens: number;
  /** The policy whose sweep over turns follows the figures; null for none. */
  sweep: string | null;
  /** Every layer's and head's figures for each policy too (the layers × heads grid). */
  heads: boolean;
  /** Policies whose tokens-per-turn series is sent too (a `cost` event each), without scoring them. */
  contexts: string[];
  /** Heads switched off in every pass of this request, and how (zero or mean ablation); empty: every head on. */
  off: HeadRef[];
  offKind: AblationKind;
}

/** What an inspection brings, in this order, each as soon as it is ready. */
export type InspectEvent =
  /** Each policy's result at the layer and radius asked for (its `cost` holds the scored turn only, until its series comes). */
  | { kind: 'figures'; results: PolicyResult[] }
  /** A policy's tokens-per-turn series up to the turn (paper 1's Fig. 4). */
  | { kind: 'cost'; policy: string; cost: TurnCost[] }
  /** Every layer's and head's shares and diagonal for a policy's answer, when the request asked for heads. */
  | { kind: 'heads'; policy: string; layers: LayerFigures[] }
  /** The sweep's progress, with the first policy's points so far at the layer and radius asked for. */
  | { kind: 'sweeping'; done: number; total: number; points: SweepPoint[] }
  /** Paper 2's Fig. 2: the sweep over turns of the first policy. */
  | { kind: 'sweep'; policy: string; radius: number; points: SweepPoint[] };

/** An answer the model wrote: its text, how many tokens, and why it stopped. */
export interface Generation {
  text: string;
  tokens: number;
  stop: GenerationStop;
}

export type ModelApi = {
  /** The page's shared word array for the watchdog (worker/watchdog.ts); sent once after the worker starts. */
  init: { args: { guard: SharedArrayBuffer | null }; result: void; event: never };
  prepare: { args: { source: SourceSpec } & LoadChoice; result: PreparedSummary; event: LoadEvent };
  /** null: a newer start replaced this one (its session was released). */
  start: { args: { preparedId: number }; result: LoadedSummary | null; event: LoadEvent };
  discard: { args: { preparedId: number }; result: void; event: never };
  /** Everything the figures, the series and the sweep of one model slot need: one request per edit, its answers as events. */
  inspect: { args: InspectRequest; result: void; event: InspectEvent };
  /** Streams the text so far and its tokens; ends with the answer, its tokens and why it stopped. */
  generate: { args: OnConversation; result: Generation; event: { text: string; tokens: number } };
  forward: { args: { modelId: number; text: string; asChat: boolean }; result: ForwardView; event: never };
  setTemplateDate: { args: { modelId: number; date: string }; result: boolean; event: never };
};

/** Thrown (by name) when a request names a model the worker no longer holds: the page drops its answer. */
export const STALE_MODEL = 'StaleModelError';

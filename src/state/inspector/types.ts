import type { StateCreator } from 'zustand';
import type { AblationKind, HeadRef } from '../../analysis/ablation';
import type { PolicyResult } from '../../analysis/analyze';
import type { LayerFigures } from '../../analysis/heads';
import type { SweepPoint } from '../../analysis/sweep';
import type { GenerationStop } from '../../analysis/generate';
import type { TurnCost } from '../../context/cost';
import type { PolicyNumbers } from '../../context/policy';
import { splitTurns } from '../../conversation/turns';
import type { Message, ParseResult } from '../../conversation/types';
import type { ViewState } from '../url-state';

/** What the person pasted or edited, kept as typed whatever its errors, and what it parses to. */
export interface ConversationSlice {
  text: string;
  exampleName: string | null;
  parsed: ParseResult;
  /** `fresh`: a new conversation (an example, a file), so the scored turn goes back to the last. */
  setText(text: string, fresh?: boolean): void;
  setMessages(messages: Message[]): void;
  /** The conversation's text editor is open (errors open it too). */
  textEditorOpen: boolean;
  showTextEditor(open: boolean): void;
  /** The list of turns (the message editor) is open. */
  turnsOpen: boolean;
  showTurns(open: boolean): void;
}

/** How the conversation is looked at: the fields a link carries (url-state.ts), and the full matrix. */
export interface ViewSlice {
  /** The policies shown: policies[0] alone, or all of them (2–4) in compare mode. */
  policies: string[];
  compare: boolean;
  /** The first policy scored by every model loaded (slots 0–3, model-store.ts modelStore), side by side. */
  compareModels: boolean;
  turn: number | null;
  layer: number | null;
  head: 'mean' | number;
  radius: number;
  fullMatrix: boolean;
  /** The layers × heads grid is shown (its figures are asked for with the others). */
  heads: boolean;
  /** The table of what each policy keeps is shown (its tokens are asked for with the figures). */
  contexts: boolean;
  /** Window's W and Clip's and Summary's H and L: the policy bar's buttons and the table's rows (the papers' by default). */
  policyNumbers: PolicyNumbers;
  /** Heads switched off in every pass: the figures, the grid, the sweep and generation; and how. */
  off: HeadRef[];
  offKind: AblationKind;
  setPolicy(spec: string): void;
  setCompare(on: boolean): void;
  setCompareModels(on: boolean): void;
  toggleComparePolicy(spec: string): void;
  setTurn(turn: number | null): void;
  setLayer(layer: number | null): void;
  setHead(head: 'mean' | number): void;
  setRadius(r: number): void;
  setFullMatrix(on: boolean): void;
  setHeadsShown(on: boolean): void;
  setContextsShown(on: boolean): void;
  setPolicyNumbers(n: PolicyNumbers): void;
  /** Switches a head off, or back on. */
  toggleOff(head: HeadRef): void;
  setOff(heads: HeadRef[]): void;
  setOffKind(kind: AblationKind): void;
  applyView(v: ViewState, text: string | null): void;
}

/** The analysis job: the figures on screen, the sweep over turns behind them, and what is under way. */
export interface AnalysisSlice {
  results: PolicyResult[];
  /** 'cache': the start screen's stored figures, shown while the model loads. */
  resultsFrom: 'model' | 'cache' | null;
  /** The conversation text the results score (the editor may hold a newer one while they are made). */
  resultsText: string | null;
  /** The model (slot A) that made the results: a newly loaded model's first pass shows the old ones marked. */
  resultsModel: { id: number; name: string } | null;
  analyzing: boolean;
  /** The figures shown are of an earlier conversation: the text now on screen cannot be scored. */
  stale: boolean;
  analysisError: string | null;
  /** Milliseconds of the last analysis, from the request to the figures. */
  analysisMs: number | null;
  /**
   * Each model slot's sweep over turns (index: the slot): the first model's is the chart's curve, the others are
   * drawn over it. `of` names what it was computed for, so a stale curve is dropped, not shown under new settings.
   */
  sweeps: (SweepState | null)[];
  /** The first model's sweep under way: turns done of total. */
  sweeping: { done: number; total: number } | null;
  /**
   * Model A's tokens-per-turn series of every policy in the table of what each policy keeps (when shown), and
   * the conversation and turn they are of (`${turn}|${text}`): a series of another conversation is not shown.
   */
  contextCosts: { of: string; costs: Record<string, TurnCost[]> };
  /** Every layer's and head's figures of the results shown, by `${slot}|${policy}` (when the grid is shown). */
  headFigures: Record<string, LayerFigures[]>;
  /** One `inspect` request per model slot; their events set the figures, the series and the sweeps. */
  analyze(): Promise<void>;
  /** Analyses again after `delayMs` (text edits wait for a pause in typing); a newer call replaces it. */
  scheduleAnalysis(delayMs?: number): void;
  /** Stops what the old model was doing (a new model is loading). */
  stopAnalysis(): void;
}

/** Answers the models write for the scored turn; they replace the file's answer. */
export interface GenerationSlice {
  /** Per model slot (index), per policy spec: the answer that slot's model wrote, which its figures score. */
  generated: Record<string, string>[];
  /** The answer being written: its text and tokens so far, and when it started (performance.now()). */
  generating: { policy: string; text: string; slot: number; tokens: number; since: number } | null;
  /** The last answer written: tokens, milliseconds, and why it stopped (shown under the controls). */
  lastGeneration: { policy: string; slot: number; tokens: number; ms: number; stop: GenerationStop } | null;
  /** The first policy's answer written twice: with every head on, and with `off` switched off. */
  /** The answer with every head on and with `off` off; with `control`, also with other heads off (a control). */
  offAnswers: { policy: string; turn: number; off: HeadRef[]; withAll: string; withOff: string; control?: { off: HeadRef[]; withOff: string } } | null;
  /** Writes it (the file's answer stays what the figures score). */
  answerWithHeadsOff(control?: HeadRef[]): Promise<void>;
  generate(): Promise<void>;
  /** The conversation ends with a user message: the model writes its answer, added to the conversation (marked generated). */
  answerLast(): Promise<void>;
  clearGenerated(): void;
  stopGeneration(): void;
}

/** A sweep over turns as shown: its points, the radius they are read at, and what they were computed for. */
export interface SweepState {
  policy: string;
  radius: number;
  points: SweepPoint[];
  of: SweepOf;
}
/**
 * What a sweep depends on besides the radius: the slot's model, the text, the answer scored, the policy, turn and
 * layer, and the heads switched off (and how; '' for none): a curve made with heads off is not one with every head on.
 */
export type SweepOf = readonly [modelId: number, text: string, answer: string | null, policy: string, turn: number, layer: number, off: string];
export const sameSweepOf = (a: SweepOf, b: SweepOf): boolean => a.every((x, i) => x === b[i]);

/** The answers a slot's model wrote (none yet: an empty record). */
export const generatedIn = (s: Pick<GenerationSlice, 'generated'>, slot: number): Record<string, string> => s.generated[slot] ?? {};

export type InspectorState = ConversationSlice & ViewSlice & AnalysisSlice & GenerationSlice;
export type Slice<T> = StateCreator<InspectorState, [], [], T>;

/** The active policies: the first alone, or every one in compare mode (comparing models, the first). */
export function activePolicies(s: Pick<InspectorState, 'policies' | 'compare' | 'compareModels'>): string[] {
  return s.compare && !s.compareModels ? s.policies : s.policies.slice(0, 1);
}

/** Messages after the last answer (user messages the conversation ends with): none are scored. */
export function unanswered(s: Pick<InspectorState, 'parsed'>): number {
  const m = s.parsed.conversation?.messages ?? [];
  const last = m.map((x) => x.role).lastIndexOf('assistant');
  return last < 0 ? 0 : m.length - 1 - last;
}

/** The turn scored: the chosen one, else the last assistant turn. */
export function scoredTurn(s: Pick<InspectorState, 'turn' | 'parsed'>): number | null {
  const c = s.parsed.conversation;
  if (!c) return null;
  const n = splitTurns(c.messages).all.length;
  if (n === 0) return null;
  return s.turn !== null && s.turn <= n ? s.turn : n;
}

import type { StateCreator } from 'zustand';
import type { PolicyResult } from '../../analysis/analyze';
import type { SweepPoint } from '../../analysis/sweep';
import { splitRounds } from '../../conversation/rounds';
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
}

/** How the conversation is looked at: the fields a link carries (url-state.ts), and the full matrix. */
export interface ViewSlice {
  /** The policies shown: policies[0] alone, or all of them (2–4) in compare mode. */
  policies: string[];
  compare: boolean;
  /** The first policy scored by model A and by model B (useModelBStore), side by side. */
  compareModels: boolean;
  turn: number | null;
  layer: number | null;
  head: 'mean' | number;
  radius: number;
  fullMatrix: boolean;
  setPolicy(spec: string): void;
  setCompare(on: boolean): void;
  setCompareModels(on: boolean): void;
  toggleComparePolicy(spec: string): void;
  setTurn(turn: number | null): void;
  setLayer(layer: number | null): void;
  setHead(head: 'mean' | number): void;
  setRadius(r: number): void;
  setFullMatrix(on: boolean): void;
  applyView(v: ViewState, text: string | null): void;
}

/** The analysis job: the figures on screen, the rounds sweep behind them, and what is under way. */
export interface AnalysisSlice {
  results: PolicyResult[];
  /** 'cache': the start screen's stored figures, shown while the model loads. */
  resultsFrom: 'model' | 'cache' | null;
  /** The conversation text the results score (the editor may hold a newer one while they are made). */
  resultsText: string | null;
  analyzing: boolean;
  /** The figures shown are of an earlier conversation: the text now on screen cannot be scored. */
  stale: boolean;
  analysisError: string | null;
  /** Milliseconds of the last analysis, from the request to the figures. */
  analysisMs: number | null;
  /** `key` names what the sweep was computed for, so a stale curve is dropped, not shown under new settings. */
  sweep: { policy: string; key: string; radius: number; points: SweepPoint[] } | null;
  sweeping: { done: number; total: number } | null;
  /** Compare models: model B's rounds sweep under the same policy, drawn over model A's. */
  sweepB: { key: string; points: SweepPoint[] } | null;
  analyze(): Promise<void>;
  /** Analyses again after `delayMs` (text edits wait for a pause in typing); a newer call replaces it. */
  scheduleAnalysis(delayMs?: number): void;
  /** Re-reads the figures and the sweep at another radius from the attention kept; false when a pass is needed. */
  rereadRadius(r: number): boolean;
  /** Stops what the old model was doing (a new model is loading). */
  stopAnalysis(): void;
}

/** Answers the model writes for the scored turn, per policy spec; they replace the file's answer. */
export interface GenerationSlice {
  generated: Record<string, string>;
  /** Compare models: the answers model B writes (per policy spec), which B's figures score. */
  generatedB: Record<string, string>;
  generating: { policy: string; text: string; model?: 'b' } | null;
  generate(): Promise<void>;
  /** The conversation ends with a user message: the model writes its answer, added to the conversation (marked generated). */
  answerLast(): Promise<void>;
  clearGenerated(): void;
  stopGeneration(): void;
}

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
  const n = splitRounds(c.messages).rounds.length;
  if (n === 0) return null;
  return s.turn !== null && s.turn <= n ? s.turn : n;
}

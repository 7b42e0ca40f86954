import type { Conversation } from '../conversation/types';
import { selectTurn } from '../conversation/turns';
import { CATEGORY_OF, priorAnswers, type ContextMessage, type SourceKind } from '../context/apply';
import type { TurnCost } from '../context/cost';
import { parsePolicy, policyLabel, policySpec, type Policy } from '../context/policy';
import { keepsEverythingNote } from '../context/history';
import { asRenderer, renderContext } from '../context/render';
import type { Category, CategoryRatios, Span } from '../metrics/categories';
import { copyShift, longestCommonRun, ngramOverlap } from '../metrics/copy';
import { categoryRatios, diagonals, massPerMessage } from '../metrics/inertia';
import { checkFinite } from '../metrics/finite';
import { headsOf, layerRows, rowsOf, slab, type AttentionSlab, type LayerAttention } from '../metrics/slab';
import { joinRows, keepSweepRows, reusableSweepRows, sweepRowsStart } from './sweep-rows';
import { passWithPrefix } from './prefix-pass';

const copyOf = (s: AttentionSlab): AttentionSlab => slab(s.data.slice(), s.rows, s.seqLen, s.rowStart, s.heads);

export interface AnalysisOptions {
  /** 1-based assistant turn to score (default: the last). */
  turn?: number;
  /** Layer to read (default: the final one; must be in the graph). */
  layer?: number;
  /** Diagonal radius r (default 5, paper 2). */
  radius?: number;
  /** n of the n-gram overlap copy measure (default 3). */
  ngram?: number;
  /**
   * Keep the attention for views: the answer's rows (default when set) or every row (the full
   * causal matrix, for moderate lengths). Metrics always use the answer's rows only.
   */
  keepAttention?: 'answer' | 'all';
  /**
   * 'series' (default): `cost` holds every turn up to the turn. 'last': the scored turn only (two
   * encodings, not two per turn), for a view that shows the figures first and asks for the series after.
   */
  cost?: 'series' | 'last';
  /** With keepAttention 'all': above this many tokens only the answer's rows are kept. */
  fullMatrixMaxTokens?: number;
}

export const DEFAULTS = { radius: 5, ngram: 3 } as const;

export interface ContextMessageInfo {
  role: ContextMessage['role'];
  kind: SourceKind;
  category: Exclude<Category, 'sink'>;
  /** 1-based original message number, null for text the policy added. */
  source: number | null;
  turn: number | null;
  generated: boolean;
  span: { start: number; length: number };
  content: { start: number; length: number };
}

/** Every number the analysis measured for one policy: what the figures and the CLI's table show. */
export interface PolicyFigures {
  ratios: CategoryRatios;
  diagonal: number;
  /** The diagonal with each earlier answer's band moved to where the answer copies it (copyShift). */
  diagonalCopyAligned: number;
  /** Diagonal ratio per earlier answer (prior-category message) in context order. */
  diagonalPerAnswer: { message: number; turn: number | null; value: number }[];
  perHead: { ratios: CategoryRatios; diagonal: number; diagonalCopyAligned: number }[];
  /** Mean attention per context message. */
  perMessage: { message: number; kind: SourceKind; turn: number | null; mass: number }[];
  /** Copy measures between the current answer and each earlier answer in context. */
  copy: { message: number; turn: number | null; longestRun: number; ngramOverlap: number; shift: number }[];
  cost: TurnCost[];
}

/**
 * One policy's analysis: what the model read (tokens, messages, the answer's rows), the figures, and,
 * for the views alone, the attention they were computed from (the only large part; kept once).
 */
export interface PolicyResult extends PolicyFigures {
  policy: string;
  label: string;
  turn: number;
  layer: number;
  radius: number;
  tokens: { id: number; text: string; category: Category; message: number }[];
  messages: ContextMessageInfo[];
  /** The query rows: the current answer's content tokens [start, end). */
  query: { start: number; end: number };
  /** What the model's template did to the conversation (merged, moved, dropped, trimmed, added a system prompt). */
  notes: string[];
  /** Heads switched off in the pass ("L.H"), and how (zero or mean ablation); absent: every head on. */
  headsOff?: string[];
  headsOffBy?: 'zero' | 'mean';
  /** With keepAttention: the answer's rows, or every row of the causal matrix. */
  attention?: LayerAttention;
  /** The model slot that scored it when the inspector compares models (1–3; absent: the first model). */
  slot?: number;
}

import { costSeriesFor, policyMessages, SummaryCache, type AnalysisModel } from './policy-inputs';

export { costSeriesFor, policyMessages, SummaryCache, type AnalysisModel };

/** The mark every figure of a model rendered with a fallback template carries. */
export const fallbackNote = (t: string): string =>
  `rendered with the fallback ${t === 'chatml' ? 'ChatML' : 'plain "User: …"'} template, chosen for a model that has no chat template of its own: a base model was never trained on this format`;

/** Scores one answer of a conversation under one policy: one forward pass, the final layer's attention. */
export async function analyzePolicy(
  model: AnalysisModel,
  conversation: Conversation,
  policy: Policy | string,
  opts: AnalysisOptions = {},
  summaries = new SummaryCache(model, conversation),
): Promise<PolicyResult> {
  const layer = opts.layer ?? model.session.spec.numLayers - 1;
  return (await analyzePolicyLayers(model, conversation, policy, [layer], opts, summaries))[0]!;
}

/**
 * The same for each of `layers` (all in the graph), from one forward pass that fetches them all: the
 * rendering, the cost and the copy measures are the same for every layer; only the attention differs.
 */
export async function analyzePolicyLayers(
  model: AnalysisModel,
  conversation: Conversation,
  policy: Policy | string,
  layers: number[],
  opts: AnalysisOptions = {},
  summaries = new SummaryCache(model, conversation),
): Promise<PolicyResult[]> {
  const p = typeof policy === 'string' ? parsePolicy(policy) : policy;
  const radius = opts.radius ?? DEFAULTS.radius;
  const turns = selectTurn(conversation, opts.turn);
  const spec = model.session.spec;
  const { messages: policyMsgs } = await policyMessages(model, conversation, p, turns.current.index, summaries);
  const renderer = asRenderer(model.tokenizer);
  const r = renderContext(renderer, policyMsgs);
  const msgs = r.messages; // the policy's, plus a system prompt the template adds of its own
  const cur = r.contentSpans[msgs.length - 1]!;
  const query = { start: cur.start, end: cur.start + cur.length };
  const S = r.ids.length;
  const all = opts.keepAttention === 'all' && S <= (opts.fullMatrixMaxTokens ?? Infinity);
  const rowStart = all ? 0 : query.start;
  const rowEnd = all ? S : query.end;
  // Under Full the mean rows of every answer from turn 2's on are read too, for the sweep over turns;
  // those of a prefix an earlier pass shares come from it.
  const sweepFrom = p.kind === 'full' ? sweepRowsStart(msgs, r.contentSpans, query.start, S, layers.length) : null;
  const reused = sweepFrom !== null ? reusableSweepRows(model.session, r.ids, sweepFrom, rowEnd, layers) : null;
  const meanStart = sweepFrom === null ? rowStart : Math.min(rowStart, reused?.upTo ?? sweepFrom);
  const out = await passWithPrefix(model.session, p.kind, r.ids, rowStart, rowEnd, layers, meanStart);
  if (sweepFrom !== null) {
    // Kept apart from what the result carries (the worker transfers that to the page).
    const rows = (a: LayerAttention) =>
      reused ? joinRows(sweepFrom, rowEnd, a.mean.seqLen, reused.byLayer.get(a.layer)!, a.mean) : meanStart === rowStart ? copyOf(a.mean) : a.mean;
    keepSweepRows(model.session, r.ids, new Map(out.attention.map((a) => [a.layer, rows(a)])));
  }
  const { index: priorIdx, spans: priorSpans } = priorAnswers(r);
  const currentIds = r.ids.slice(query.start, query.end);
  // What every layer shares.
  const shared = {
    policy: policySpec(p),
    label: policyLabel(p),
    turn: turns.current.index,
    radius,
    tokens: r.tokenTexts.map((text, i) => ({ id: r.ids[i]!, text, category: r.categories[i]!, message: r.messageOf[i]! })),
    messages: msgs.map((m, k) => ({
      role: m.role,
      kind: m.kind,
      category: CATEGORY_OF[m.kind],
      source: m.source === null ? null : m.source + 1,
      turn: m.turn,
      generated: m.generated === true,
      span: r.messageSpans[k]!,
      content: r.contentSpans[k]!,
    })),
    query,
    copy: priorIdx.map((k) => {
      const s = r.contentSpans[k]!;
      const earlier = r.ids.slice(s.start, s.start + s.length);
      return {
        message: k,
        turn: msgs[k]!.turn,
        longestRun: longestCommonRun(currentIds, earlier),
        ngramOverlap: ngramOverlap(currentIds, earlier, opts.ngram ?? DEFAULTS.ngram),
        shift: copyShift(currentIds, earlier),
      };
    }),
    cost:
      opts.cost === 'last'
        ? [costSeriesFor(model, conversation, summaries, p).at(turns.current.index)]
        : costSeriesFor(model, conversation, summaries, p).upTo(turns.current.index),
    notes: [
      ...(model.tokenizer.fallbackTemplate ? [fallbackNote(model.tokenizer.fallbackTemplate)] : []),
      ...r.notes,
      ...[keepsEverythingNote(p, turns.current.index, policyLabel(p))].filter((n) => n !== null),
      ...(S > spec.maxPositionEmbeddings
        ? [
            `${S.toLocaleString('en-US')} tokens, more than this model's max_position_embeddings (${spec.maxPositionEmbeddings.toLocaleString('en-US')}): it was never trained on positions this far`,
          ]
        : []),
    ],
  };
  const c = { r, msgs, priorIdx, priorSpans, query, rowStart, rowEnd, radius, keep: opts.keepAttention !== undefined };
  return out.attention.map((wide) => layerResult(wide, shared, c));
}

/** What one layer's figures are read from: the rendering, the prior answers, the rows fetched. */
interface LayerContext {
  r: ReturnType<typeof renderContext>;
  msgs: ContextMessage[];
  priorIdx: number[];
  priorSpans: Span[];
  query: { start: number; end: number };
  rowStart: number;
  rowEnd: number;
  radius: number;
  keep: boolean;
}

/** One layer's result: the shared part, and the figures read from its attention. */
function layerResult(
  wide: LayerAttention,
  shared: Omit<PolicyResult, keyof PolicyFigures | 'layer'> & Pick<PolicyFigures, 'copy' | 'cost'>,
  c: LayerContext,
): PolicyResult {
  const { r, msgs, priorIdx, priorSpans, query, rowStart, rowEnd, radius } = c;
  checkFinite(
    wide,
    shared.tokens.map((t) => t.text),
  );
  // The rows asked for, the mean's own copy where it was read wider (the wide rows stay with the sweep).
  const fetched = wide.mean.rowStart === rowStart ? wide : { ...wide, mean: copyOf(rowsOf(wide.mean, rowStart, rowEnd)!) };
  // With every row fetched, the metrics still read only the answer's rows.
  const answer = layerRows(fetched, query.start, query.end)!;
  const shifts = shared.copy.map((x) => x.shift);
  const diag = diagonals(answer.mean, priorSpans, radius, shifts);
  const mass = massPerMessage(answer.mean, r.messageOf);
  const result: PolicyResult = {
    ...shared,
    layer: fetched.layer,
    ratios: categoryRatios(answer.mean, r.categories),
    diagonal: diag.total,
    diagonalCopyAligned: diag.copyAligned,
    diagonalPerAnswer: priorIdx.map((k, i) => ({ message: k, turn: msgs[k]!.turn, value: diag.perAnswer[i]! })),
    perHead: headsOf(answer.perHead!).map((h) => {
      const d = diagonals(h, priorSpans, radius, shifts);
      return { ratios: categoryRatios(h, r.categories), diagonal: d.total, diagonalCopyAligned: d.copyAligned };
    }),
    perMessage: msgs.map((m, k) => ({ message: k, kind: m.kind, turn: m.turn, mass: mass.get(k) ?? 0 })),
  };
  if (c.keep) result.attention = fetched;
  return result;
}

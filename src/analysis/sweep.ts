import type { Conversation } from '../conversation/types';
import { selectTurn } from '../conversation/turns';
import { applyPolicy, priorAnswers } from '../context/apply';
import { parsePolicy, type Policy } from '../context/policy';
import { asRenderer, renderContext } from '../context/render';
import type { CategoryRatios } from '../metrics/categories';
import { categoryRatios, chanceRatios, diagonalRatio } from '../metrics/inertia';
import { checkFinite } from '../metrics/finite';
import { rowsOf, slab } from '../metrics/slab';
import { analyzePolicyLayers, costSeriesFor, DEFAULTS, SummaryCache, type AnalysisModel, type AnalysisOptions, type PolicyResult } from './analyze';
import { keptSweepRows, type SweepRows } from './sweep-rows';
import { commonPrefix } from '../util/common-prefix';

export interface SweepPoint {
  turn: number;
  tokens: number;
  ratios: CategoryRatios;
  /** What each category would get from attention spread evenly over the tokens each answer row sees (chance). */
  chance: CategoryRatios;
  diagonal: number;
  /** This turn's prompt length and prefill under the policy (the last entry of its cost). */
  contextTokens: number;
  prefilled: number;
}

/**
 * A result's chance ratios (`chanceRatios` over its tokens' categories and answer rows), computed once per result: the
 * sweep point carries them, and the lesson reads each category's yardstick from them many times a render.
 */
export function chanceOf(r: PolicyResult): CategoryRatios {
  let c = CHANCE.get(r);
  if (!c) {
    const end = Math.min(r.query.end, r.tokens.length);
    c = chanceRatios(
      r.tokens.slice(0, end).map((t) => t.category),
      r.query.start,
      end,
    );
    CHANCE.set(r, c);
  }
  return c;
}
const CHANCE = new WeakMap<PolicyResult, CategoryRatios>();

export function sweepPoint(r: PolicyResult): SweepPoint {
  const cost = r.cost[r.cost.length - 1]!;
  const chance = chanceOf(r);
  return {
    turn: r.turn,
    tokens: r.tokens.length,
    ratios: r.ratios,
    chance,
    diagonal: r.diagonal,
    contextTokens: cost.contextTokens,
    prefilled: cost.prefilled,
  };
}

export interface SweepOptions extends Omit<AnalysisOptions, 'turn' | 'keepAttention' | 'fullMatrixMaxTokens'> {
  /** Last turn of the sweep (default: the conversation's last answer). */
  upToTurn?: number;
  /** An analysis already made for some turn, reused instead of scoring that turn again. */
  known?: PolicyResult;
  summaries?: SummaryCache;
  /** After each turn: how many are done, of how many, and (over several layers) each layer's points so far. */
  onTurn?: (done: number, total: number, sofar?: ReadonlyMap<number, LayerSweep>) => void;
  /** Checked before each turn: true stops the sweep early (a newer request replaced it). */
  cancelled?: () => boolean;
  /** Awaited before each turn: the page uses it to paint between turns (ORT's wasm runs on its thread). */
  pause?: () => Promise<void>;
  /** Filled with each turn's answer rows (head mean) and earlier answers, so another radius needs no pass (rescore.ts). */
  keepRows?: Map<number, SweepRows>;
}

/** The answer's head-mean rows of a result that kept its attention, with its earlier answers' spans. */
export function answerRows(r: PolicyResult): SweepRows | null {
  const mean = r.attention && rowsOf(r.attention.mean, r.query.start, r.query.end);
  return mean ? { mean, priorSpans: r.diagonalPerAnswer.map((d) => r.messages[d.message]!.content) } : null;
}

/** Paper 2's Fig. 2 for one conversation: every assistant turn t ≥ 2 in turn as the scored answer. */
export async function turnsSweep(model: AnalysisModel, conversation: Conversation, policy: Policy | string, opts: SweepOptions = {}): Promise<SweepPoint[]> {
  const layer = opts.layer ?? model.session.spec.numLayers - 1;
  const { keepRows, ...rest } = opts;
  const by = await turnsSweepLayers(model, conversation, policy, [layer], rest);
  const one = by.get(layer)!;
  if (keepRows) for (const [t, r] of one.rows) keepRows.set(t, r);
  return one.points;
}

/** A layer's sweep over turns, with each turn's answer rows kept (rescore.ts). */
export interface LayerSweep {
  points: SweepPoint[];
  rows: Map<number, SweepRows>;
}

/**
 * The sweep over turns for each of `layers` at once: one pass per turn fetches them all, so a person who
 * switches layers sees that layer's curve without another pass. `known` (a result of one of the layers)
 * stands in for its turn where it matches. Under Full one pass can serve every turn (sharedFullPass).
 */
export async function turnsSweepLayers(
  model: AnalysisModel,
  conversation: Conversation,
  policy: Policy | string,
  layers: number[],
  opts: Omit<SweepOptions, 'keepRows' | 'layer'> & { knownLayers?: PolicyResult[] } = {},
): Promise<Map<number, LayerSweep>> {
  const p = typeof policy === 'string' ? parsePolicy(policy) : policy;
  const last = selectTurn(conversation, opts.upToTurn).current.index;
  const summaries = opts.summaries ?? new SummaryCache(model, conversation);
  const out = new Map(layers.map((l) => [l, { points: [] as SweepPoint[], rows: new Map<number, SweepRows>() }]));
  const known = [...(opts.knownLayers ?? []), ...(opts.known ? [opts.known] : [])];
  const knownAt = (t: number) => layers.map((l) => known.find((k) => k.turn === t && k.layer === l));
  const turns = Array.from({ length: Math.max(0, last - 1) }, (_, i) => i + 2);
  const shared =
    p.kind === 'full'
      ? await sharedFullPass(
          model,
          conversation,
          p,
          layers,
          turns.filter((t) => !knownAt(t).every(Boolean)),
          opts.radius ?? DEFAULTS.radius,
          summaries,
        )
      : new Map();
  const { known: _k, knownLayers: _kl, ...rest } = opts;
  for (const t of turns) {
    await opts.pause?.();
    if (opts.cancelled?.()) break;
    const have = knownAt(t);
    // A turn's point per layer, and its answer rows where the result kept them.
    const take = (r: PolicyResult) => {
      const l = out.get(r.layer)!;
      l.points.push(sweepPoint(r));
      const kept = answerRows(r);
      if (kept) l.rows.set(t, kept);
    };
    if (have.every(Boolean)) (have as PolicyResult[]).forEach(take);
    else if (shared.has(t)) {
      for (const [layer, { point, rows }] of shared.get(t)!) {
        out.get(layer)!.points.push(point);
        out.get(layer)!.rows.set(t, rows);
      }
    } else (await analyzePolicyLayers(model, conversation, p, layers, { ...rest, turn: t, keepAttention: 'answer' }, summaries)).forEach(take);
    opts.onTurn?.(t - 1, last - 1, out);
  }
  return out;
}

/**
 * Under Full, turn t's context is the conversation up to its answer: where its tokens are a prefix of
 * the last turn's (a template that renders earlier turns the same whatever follows; not Qwen3's, which
 * rewrites them), turn t's answer rows are rows of the last turn's pass, over its first keys, since
 * causal attention sees nothing later. So one pass (the head mean of the rows from the first answer to
 * the last) serves every such turn; a turn whose tokens are not a prefix is left to its own pass.
 */
async function sharedFullPass(
  model: AnalysisModel,
  conversation: Conversation,
  p: Policy,
  layers: number[],
  turns: number[],
  radius: number,
  summaries: SummaryCache,
): Promise<Map<number, Map<number, { point: SweepPoint; rows: SweepRows }>>> {
  const out = new Map<number, Map<number, { point: SweepPoint; rows: SweepRows }>>();
  if (turns.length < 2) return out;
  const renderer = asRenderer(model.tokenizer);
  const render = (t: number) => renderContext(renderer, applyPolicy(conversation, selectTurn(conversation, t), p));
  const whole = render(turns[turns.length - 1]!);
  const prefix = (ids: number[]) => commonPrefix(ids, whole.ids) === ids.length;
  const each = turns.map((t) => ({ t, r: render(t) })).filter((x) => prefix(x.r.ids));
  if (each.length < 2) return out;
  const query = (r: ReturnType<typeof render>) => r.contentSpans[r.messages.length - 1]!;
  const from = Math.min(...each.map((x) => query(x.r).start));
  const to = Math.max(...each.map((x) => query(x.r).start + query(x.r).length));
  // The analysis's own pass kept these rows where it scored the whole conversation under Full (sweep-rows.ts).
  const kept = keptSweepRows(model.session, whole.ids, from, to, layers);
  const attention = kept
    ? layers.map((layer) => ({ layer, mean: kept.get(layer)!, perHead: null }))
    : (await model.session.forward({ ids: whole.ids, attnRows: [from, to], layers, skipLogits: true })).attention;
  if (!kept) for (const a of attention) checkFinite(a);
  for (const { t, r } of each) {
    const q = query(r);
    const St = r.ids.length;
    const priorSpans = priorAnswers(r).spans;
    const cost = costSeriesFor(model, conversation, summaries, p).upTo(t);
    const byLayer = new Map<number, { point: SweepPoint; rows: SweepRows }>();
    for (const a of attention) {
      // This turn's answer rows, over its own keys (the first St of the pass's S).
      const { seqLen: S, rowStart } = a.mean;
      const rows = new Float32Array(q.length * St);
      for (let i = 0; i < q.length; i++) rows.set(a.mean.data.subarray((q.start + i - rowStart) * S, (q.start + i - rowStart) * S + St), i * St);
      const att = slab(rows, q.length, St, q.start);
      const c = cost[cost.length - 1]!;
      byLayer.set(a.layer, {
        point: {
          turn: t,
          tokens: St,
          ratios: categoryRatios(att, r.categories),
          chance: chanceRatios(r.categories, q.start, q.start + q.length),
          diagonal: diagonalRatio(att, priorSpans, radius).total,
          contextTokens: c.contextTokens,
          prefilled: c.prefilled,
        },
        rows: { mean: att, priorSpans },
      });
    }
    out.set(t, byLayer);
  }
  return out;
}

/**
 * One model's inspection, in its worker: the conversations it scored (keyed by a hash of their text), the
 * result of every pass (each layer it fetched), the tokens-per-turn series and the sweeps over turns. A request
 * (`inspect`) reads what these hold and computes only the rest; the page keeps only what it shows.
 */
import { type AblationKind, headName, withHeadsOff, type HeadRef } from '../analysis/ablation';
import { analyzePolicyLayers, costSeriesFor, policyMessages, SummaryCache, type AnalysisModel, type PolicyResult } from '../analysis/analyze';
import { analyzeHeads, headMeans, type LayerFigures } from '../analysis/heads';
import { withAnswer } from '../analysis/answer';
import { atRadius, sweepAtRadius } from '../analysis/rescore';
import { turnsSweepLayers, type LayerSweep } from '../analysis/sweep';
import type { TurnCost } from '../context/cost';
import { parsePolicy } from '../context/policy';
import type { Conversation } from '../conversation/types';
import type { InspectEvent, InspectRequest } from './api';

/** Kept results (a pass of a small model fetches every layer: a few per pass). */
const RESULTS_KEPT = 24;
/** Conversations kept (each with its generated summaries). */
const CONVERSATIONS_KEPT = 4;
/** Turns sweeps kept, each with every fetched layer's answer rows per turn. */
const SWEEPS_KEPT = 2;

/** A Map used as a least-recently-used cache of at most `size` entries. */
class Kept<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) this.set(key, v);
    return v;
  }
  set(key: string, v: V): V {
    this.map.delete(key);
    this.map.set(key, v);
    while (this.map.size > this.size) this.map.delete(this.map.keys().next().value!);
    return v;
  }
  clear(): void {
    this.map.clear();
  }
}

/** SHA-256 of a conversation's text (every field a message carries), hex: the key its results are kept under. */
export async function conversationKey(c: Conversation, turn: number, answer: string | undefined): Promise<string> {
  const parts = c.messages.map((m) => [m.role, m.content, m.summary ?? '', m.generated ? 'g' : ''].join('\u001f'));
  const text = [...parts, answer === undefined ? '' : `${turn}\u001f${answer}`].join('\u001e');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A sweep over turns as computed (at `radius`), every fetched layer's points and answer rows. */
interface KeptSweep {
  radius: number;
  byLayer: Map<number, LayerSweep>;
}

/** The layers one pass of a request fetches: the ones it names, the layer shown among them. */
const fetchedLayers = (req: InspectRequest): number[] => (req.layers.includes(req.layer) ? req.layers : [req.layer]);

/** What a request's passes run on: the model with its heads off, and those heads (and how) as a key ('' for none). */
export interface Run {
  model: AnalysisModel;
  off: string;
}

export interface Scored {
  key: string;
  conv: Conversation;
  summaries: SummaryCache;
}

export interface InspectContext {
  emit(e: InspectEvent): void;
  /** A newer request (or a new model) replaced this one. */
  cancelled(): boolean;
  /** Lets other messages in between steps of a sweep. */
  pause(): Promise<void>;
}

export class Inspection {
  private readonly conversations = new Kept<Scored>(CONVERSATIONS_KEPT);
  private readonly results = new Kept<PolicyResult>(RESULTS_KEPT);
  private readonly costs = new Kept<TurnCost[]>(RESULTS_KEPT);
  private readonly sweeps = new Kept<KeptSweep>(SWEEPS_KEPT);
  private readonly heads = new Kept<LayerFigures[]>(RESULTS_KEPT);
  /** The model with each set of heads switched off, one object per set (caches keyed by session stay apart). */
  private readonly ablated = new Kept<AnalysisModel>(SWEEPS_KEPT);

  constructor(private readonly whole: AnalysisModel) {}

  /** Everything kept goes (the template's date changed: summaries and renderings were made under the old one). */
  clear(): void {
    for (const k of [this.conversations, this.results, this.costs, this.sweeps, this.heads, this.ablated]) k.clear();
  }

  /**
   * The model with `off` switched off (the same object for the same heads). Mean ablation's means are of the
   * conversation scored (Full, every head on, at `turn`), so its model is also one per conversation.
   */
  async modelWith(off: readonly HeadRef[], kind: AblationKind = 'zero', s?: Scored, turn?: number): Promise<Run> {
    const heads = off.map(headName).join(',');
    if (!heads) return { model: this.whole, off: '' };
    const key = kind === 'mean' ? `mean:${heads}|${s!.key}|${turn}` : heads;
    const kept = this.ablated.get(key);
    if (kept) return { model: kept, off: key };
    const means = kind === 'mean' ? await headMeans(this.whole, s!.conv, { turn: turn! }, s!.summaries) : undefined;
    return { model: this.ablated.set(key, withHeadsOff(this.whole, off, means)), off: key };
  }

  /** The conversation scored (the model's answer in place of the file's, when given), the same object each time. */
  async scored(conversation: Conversation, turn: number, answer: string | undefined): Promise<Scored> {
    const key = await conversationKey(conversation, turn, answer);
    const kept = this.conversations.get(key);
    if (kept) return kept;
    const conv = answer === undefined ? conversation : withAnswer(conversation, turn, answer);
    // Summaries are the whole model's: switching heads off changes the pass scored, not the context it reads.
    return this.conversations.set(key, { key, conv, summaries: new SummaryCache(this.whole, conv) });
  }

  /** The figures of each policy, then their tokens-per-turn series, then the sweep over turns: each as it is ready. */
  async inspect(req: InspectRequest, ctx: InspectContext): Promise<void> {
    // Every pass of the request runs on its model: every head on, or its heads off (a key of every result).
    const reference = req.offKind === 'mean' && req.off.length ? await this.scored(req.conversation, req.turn, req.generated[req.policies[0]!]) : undefined;
    const m = await this.modelWith(req.off, req.offKind, reference, req.turn);
    const shown: { scored: Scored; result: PolicyResult }[] = [];
    for (const policy of req.policies) {
      const scored = await this.scored(req.conversation, req.turn, req.generated[policy]);
      const result = await this.figures(m, scored, policy, req);
      if (ctx.cancelled()) return;
      shown.push({ scored, result });
    }
    ctx.emit({ kind: 'figures', results: shown.map((s) => s.result) });
    if (req.heads) {
      for (const { scored, result } of shown) {
        const layers = await this.headFigures(m, scored, result.policy, req);
        if (ctx.cancelled()) return;
        ctx.emit({ kind: 'heads', policy: result.policy, layers });
      }
    }
    for (const { scored, result } of shown) {
      if (result.cost.length >= result.turn) continue;
      const cost = await this.costSeries(scored, result.policy, req.turn);
      if (ctx.cancelled()) return;
      ctx.emit({ kind: 'cost', policy: result.policy, cost });
    }
    // The table of what each policy keeps: the tokens each reads, no pass (Summary's summaries are written first).
    for (const policy of req.contexts ?? []) {
      const scored = await this.scored(req.conversation, req.turn, req.generated[policy]);
      const cost = await this.costSeries(scored, policy, req.turn);
      if (ctx.cancelled()) return;
      ctx.emit({ kind: 'cost', policy, cost });
    }
    const first = shown.find((s) => s.result.policy === req.sweep);
    if (first) await this.sweep(m, first.scored, first.result.policy, req, ctx);
  }

  private resultKey(m: Run, s: Scored, policy: string, turn: number, layer: number, fullMatrix: boolean): string {
    return [s.key, policy, turn, layer, fullMatrix, m.off].join('|');
  }

  /** Every layer's and head's figures for one policy's answer: kept, or one pass of the head-figure graph. */
  private async headFigures(m: Run, s: Scored, policy: string, req: InspectRequest): Promise<LayerFigures[]> {
    const key = [s.key, policy, req.turn, req.radius, m.off].join('|');
    return this.heads.get(key) ?? this.heads.set(key, await analyzeHeads(m.model, s.conv, policy, { turn: req.turn, radius: req.radius }, s.summaries));
  }

  /** One policy's result at the layer and radius asked for: kept, re-read at another radius, or one pass. */
  private async figures(m: Run, s: Scored, policy: string, req: InspectRequest): Promise<PolicyResult> {
    const key = (layer: number) => this.resultKey(m, s, policy, req.turn, layer, req.fullMatrix);
    const kept = this.results.get(key(req.layer));
    const reread = kept && atRadius(kept, req.radius);
    const cost = this.costs.get([s.key, policy, req.turn].join('|'));
    if (reread) return cost ? { ...reread, cost } : reread;
    const layers = fetchedLayers(req);
    const all = await analyzePolicyLayers(
      m.model,
      s.conv,
      policy,
      layers,
      {
        turn: req.turn,
        radius: req.radius,
        keepAttention: req.fullMatrix ? 'all' : 'answer',
        fullMatrixMaxTokens: req.fullMatrixMaxTokens,
        cost: 'last',
      },
      s.summaries,
    );
    // Each result says which heads were off when it was computed, and how (its exports and figures name them).
    if (m.off) for (const r of all) [r.headsOff, r.headsOffBy] = [req.off.map(headName), req.offKind];
    for (const r of all) this.results.set(key(r.layer), r);
    const r = all.find((x) => x.layer === req.layer)!;
    return cost ? { ...r, cost } : r;
  }

  /** Paper 1's Fig. 4 series up to the turn: the figures came with the scored turn only. */
  private async costSeries(s: Scored, policy: string, turn: number): Promise<TurnCost[]> {
    const key = [s.key, policy, turn].join('|');
    const kept = this.costs.get(key);
    if (kept) return kept;
    const p = parsePolicy(policy);
    // The summaries every turn up to the turn needs (kept from the analysis, which made them).
    await policyMessages(this.whole, s.conv, p, turn, s.summaries);
    return this.costs.set(key, costSeriesFor(this.whole, s.conv, s.summaries, p).upTo(turn));
  }

  /** Paper 2's Fig. 2 for one policy: every fetched layer at once, the scored turn's results reused. */
  private async sweep(m: Run, s: Scored, policy: string, req: InspectRequest, ctx: InspectContext): Promise<void> {
    const key = [s.key, policy, req.turn, req.fullMatrix, m.off].join('|');
    /** The curve at the layer and radius asked for: as computed, or re-read from the rows kept; null when neither. */
    const pointsOf = ({ radius, byLayer }: KeptSweep) => {
      const l = byLayer.get(req.layer);
      if (!l) return null;
      return radius === req.radius ? l.points : sweepAtRadius(l.points, l.rows, req.radius);
    };
    const kept = this.sweeps.get(key);
    const ready = kept && pointsOf(kept);
    if (ready) return ctx.emit({ kind: 'sweep', policy, radius: req.radius, points: ready });
    const layers = fetchedLayers(req);
    const known = layers
      .map((l) => this.results.get(this.resultKey(m, s, policy, req.turn, l, req.fullMatrix)))
      .map((r) => r && atRadius(r, req.radius))
      .filter((r) => !!r);
    const byLayer = await turnsSweepLayers(m.model, s.conv, policy, [req.layer, ...layers.filter((l) => l !== req.layer)], {
      upToTurn: req.turn,
      radius: req.radius,
      knownLayers: known,
      summaries: s.summaries,
      // The chart fills as the turns come: each event brings the points so far of the layer shown.
      onTurn: (done, total, sofar) => ctx.emit({ kind: 'sweeping', done, total, points: [...(sofar?.get(req.layer)?.points ?? [])] }),
      cancelled: ctx.cancelled,
      pause: ctx.pause,
    });
    // A sweep cut short is not kept: the next request computes it whole.
    if (ctx.cancelled()) return;
    const sweep = this.sweeps.set(key, { radius: req.radius, byLayer });
    ctx.emit({ kind: 'sweep', policy, radius: req.radius, points: pointsOf(sweep)! });
  }
}

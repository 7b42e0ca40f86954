/**
 * Where inertia lives: every layer's and every head's category shares and diagonal ratio for one answer, from
 * one pass of a head-figure graph (the reduction runs in the graph, so no [heads × rows × keys] tensor is
 * held). The same figures paper 2 reads at the final layer, head-mean, now at each layer and head.
 */
import { selectTurn } from '../conversation/turns';
import type { Conversation } from '../conversation/types';
import { priorAnswers } from '../context/apply';
import { parsePolicy, type Policy } from '../context/policy';
import { asRenderer, renderContext } from '../context/render';
import { diagonalBand } from '../metrics/band';
import { CATEGORIES, type CategoryRatios, type Span } from '../metrics/categories';
import type { LayerHeadFigures } from '../runtime/session-types';
import { type AnalysisModel, policyMessages, SummaryCache } from './policy-inputs';

/** One head's (or the head mean's) figures at one layer. */
export interface HeadFigures {
  ratios: CategoryRatios;
  diagonal: number;
  /** Per prior assistant answer, in context order; they add up to `diagonal`. */
  diagonalPerAnswer: number[];
}

/** One layer: the head mean (the paper's reading) and every head. */
export interface LayerFigures extends HeadFigures {
  layer: number;
  perHead: HeadFigures[];
}

/** The inputs a head-figure graph reduces with: each key's category one-hot, and each prior answer's band over the answer's rows. */
export function headFigureInputs(categories: readonly string[], priorSpans: readonly Span[], answerRows: number, radius: number) {
  const T = categories.length;
  const cats = new Float32Array(T * 5);
  categories.forEach((c, j) => (cats[j * 5 + CATEGORIES.indexOf(c as (typeof CATEGORIES)[number])] = 1));
  const P = priorSpans.length;
  const bands = new Float32Array(answerRows * T * P);
  priorSpans.forEach((span, p) => {
    for (const b of diagonalBand(span, answerRows, radius)) for (let j = b.from; j <= b.to; j++) bands[(b.row * T + j) * P + p] = 1;
  });
  return { categories: cats, bands, answers: P };
}

/** A layer's figures from the graph's outputs: each head's, and their mean (the shares and the diagonal are linear in the attention). */
export function layerFigures(f: LayerHeadFigures, heads: number): LayerFigures {
  const P = f.answers;
  const perHead: HeadFigures[] = Array.from({ length: heads }, (_, h) => {
    const diagonalPerAnswer = Array.from({ length: P }, (_, p) => f.diagonal[h * P + p]!);
    return {
      ratios: Object.fromEntries(CATEGORIES.map((c, k) => [c, f.shares[h * 5 + k]!])) as CategoryRatios,
      diagonal: diagonalPerAnswer.reduce((s, v) => s + v, 0),
      diagonalPerAnswer,
    };
  });
  const mean = (v: (x: HeadFigures) => number) => perHead.reduce((s, x) => s + v(x), 0) / heads;
  return {
    layer: f.layer,
    ratios: Object.fromEntries(CATEGORIES.map((c) => [c, mean((x) => x.ratios[c])])) as CategoryRatios,
    diagonal: mean((x) => x.diagonal),
    diagonalPerAnswer: Array.from({ length: P }, (_, p) => mean((x) => x.diagonalPerAnswer[p]!)),
    perHead,
  };
}

/** The context the model reads for `turn`'s answer (default the last) under `policy`, rendered. */
async function rendered(model: AnalysisModel, conversation: Conversation, policy: Policy | string, turn: number | undefined, summaries: SummaryCache) {
  const p = typeof policy === 'string' ? parsePolicy(policy) : policy;
  const { messages } = await policyMessages(model, conversation, p, selectTurn(conversation, turn).current.index, summaries);
  return renderContext(asRenderer(model.tokenizer), messages);
}

/**
 * Every layer's and head's figures for the answer of `turn` (default the last) under `policy`: one pass of
 * a model opened with a head-figure graph (openModel's `headFigures`).
 */
export async function analyzeHeads(
  model: AnalysisModel,
  conversation: Conversation,
  policy: Policy | string,
  opts: { turn?: number; radius?: number } = {},
  summaries = new SummaryCache(model, conversation),
): Promise<LayerFigures[]> {
  if (!model.session.graph.headFigures) throw new Error('this model was opened without head figures (open it with headFigures: true)');
  const r = await rendered(model, conversation, policy, opts.turn, summaries);
  const cur = r.contentSpans[r.messages.length - 1]!;
  const priorSpans = priorAnswers(r).spans;
  const inputs = headFigureInputs(r.categories, priorSpans, cur.length, opts.radius ?? 5);
  const out = await model.session.forward({ ids: r.ids, attnRows: [cur.start, cur.start + cur.length], layers: [], skipLogits: true, headFigures: inputs });
  return out.headFigures!.map((f) => layerFigures(f, model.session.spec.numHeads));
}

/**
 * Each head's mean output over the tokens of `turn`'s conversation under Full, every head on: the reference
 * mean ablation replaces a head's output with ([layers × heads × head_dim], the layout of head_bias).
 */
export async function headMeans(
  model: AnalysisModel,
  conversation: Conversation,
  opts: { turn?: number } = {},
  summaries = new SummaryCache(model, conversation),
): Promise<Float32Array> {
  if (!model.session.graph.headFigures) throw new Error('mean ablation needs a model opened with head figures (headFigures: true)');
  const r = await rendered(model, conversation, 'full', opts.turn, summaries);
  const { numLayers, numHeads } = model.session.spec;
  const out = await model.session.forward({
    ids: r.ids,
    attnRows: [0, 1],
    layers: [],
    skipLogits: true,
    headOutputMeans: true,
    headMask: new Float32Array(numLayers * numHeads).fill(1),
  });
  return out.headOutputMeans!;
}

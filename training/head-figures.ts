/**
 * Where the demo models' inertia lives, measured with the analysis pipeline itself: which heads carry the
 * diagonal on the maze example and on held-out episodes, the layer profile, what switching the top heads off
 * does (to the diagonal, the prior share, the copied run and the greedy answer), and whether the CPL twin
 * lowers the diagonal in the same heads. Shared by `npx tsx scripts/head-findings.ts` (writes
 * docs/bench/heads-demo.json) and tests/model/head-findings.test.ts (checks it against a fresh run).
 */
import { compareAnswers, headName, topHeads, withHeadsOff, type HeadRef } from '../src/analysis/ablation';
import { analyzePolicy, type AnalysisModel } from '../src/analysis/analyze';
import { generateAnswer, withAnswer } from '../src/analysis/answer';
import { analyzeHeads, type LayerFigures } from '../src/analysis/heads';
import type { Conversation } from '../src/conversation/types';
import { heldOutEpisodes, mazeExample } from './figures';

/** How many heads are switched off: the top 3 by diagonal ratio, any layer (the app's default). */
export const TOP_K = 3;

export interface ModelHeads {
  /** The maze example's last answer under Full: each layer's head mean, and the final layer's heads. */
  profile: { layer: number; diagonal: number; prior: number }[];
  finalHeads: number[];
  /** The top heads (any layer) by diagonal ratio on the example, and how often each head is among the top 3 on the episodes. */
  top: string[];
  topOnEpisodes: Record<string, number>;
  /** Each final-layer head's diagonal ratio, mean over the held-out episodes. */
  finalHeadsOnEpisodes: number[];
}

export interface AblationFigures {
  heads: string[];
  /** The example's last answer (the file's) under Full, every head on and the top heads off (final layer, head mean). */
  before: { diagonal: number; prior: number };
  after: { diagonal: number; prior: number };
  /**
   * The greedy answer at the example's last turn, both ways, how they compare, and the longest run each copies
   * from the earlier answers (tokens; the file's answer is the same text either way, so its run cannot move).
   */
  answer: { withAll: string; withOff: string; verdict: string; copiedRun: { withAll: number; withOff: number } };
  /** The same on the held-out episodes (their own top heads): how often each verdict, and the mean diagonal change. */
  episodes: { verdicts: Record<string, number>; meanDiagonalChange: number };
}

const figuresOf = async (model: AnalysisModel, conv: Conversation) => {
  const r = await analyzePolicy(model, conv, 'full');
  return { diagonal: r.diagonal, prior: r.ratios.prior };
};
/** The longest run of tokens `answer`, in place of the last answer, copies from an earlier answer. */
const copiedRun = async (model: AnalysisModel, conv: Conversation, answer: string) =>
  Math.max(0, ...(await analyzePolicy(model, withAnswer(conv, lastTurn(conv), answer), 'full')).copy.map((c) => c.longestRun));
const lastTurn = (conv: Conversation) => conv.messages.filter((m) => m.role === 'assistant').length;
const finalLayer = (layers: LayerFigures[]) => layers[layers.length - 1]!;

/** Which heads carry the diagonal: the example and `n` held-out episodes, Full, the last answer. */
export async function modelHeads(model: AnalysisModel, n: number): Promise<ModelHeads> {
  const layers = await analyzeHeads(model, mazeExample(), 'full');
  const topOnEpisodes: Record<string, number> = {};
  const sums = finalLayer(layers).perHead.map(() => 0);
  const episodes = heldOutEpisodes(n);
  for (const { conv } of episodes) {
    const l = await analyzeHeads(model, conv, 'full');
    for (const h of topHeads(l, 3).map(headName)) topOnEpisodes[h] = (topOnEpisodes[h] ?? 0) + 1;
    finalLayer(l).perHead.forEach((h, k) => (sums[k]! += h.diagonal));
  }
  return {
    profile: layers.map((l) => ({ layer: l.layer, diagonal: l.diagonal, prior: l.ratios.prior })),
    finalHeads: finalLayer(layers).perHead.map((h) => h.diagonal),
    top: topHeads(layers, TOP_K).map(headName),
    topOnEpisodes,
    finalHeadsOnEpisodes: sums.map((s) => s / episodes.length),
  };
}

/** Switching the top heads off on the example and on `n` held-out episodes (each episode its own top heads). */
export async function ablationFigures(model: AnalysisModel, n: number, maxTokens = 48): Promise<AblationFigures> {
  const one = async (conv: Conversation) => {
    const off: HeadRef[] = topHeads(await analyzeHeads(model, conv, 'full'), TOP_K);
    const ablated = withHeadsOff(model, off);
    const [before, after] = [await figuresOf(model, conv), await figuresOf(ablated, conv)];
    const withAll = await generateAnswer(model, conv, 'full', lastTurn(conv), { maxTokens });
    const withOff = await generateAnswer(ablated, conv, 'full', lastTurn(conv), { maxTokens });
    const copied = { withAll: await copiedRun(model, conv, withAll), withOff: await copiedRun(model, conv, withOff) };
    return { off, before, after, answer: { withAll, withOff, verdict: compareAnswers(withAll, withOff), copiedRun: copied } };
  };
  const example = await one(mazeExample());
  const verdicts: Record<string, number> = {};
  let change = 0;
  const episodes = heldOutEpisodes(n);
  for (const { conv } of episodes) {
    const e = await one(conv);
    verdicts[e.answer.verdict] = (verdicts[e.answer.verdict] ?? 0) + 1;
    change += e.after.diagonal - e.before.diagonal;
  }
  return {
    heads: example.off.map(headName),
    before: example.before,
    after: example.after,
    answer: example.answer,
    episodes: { verdicts, meanDiagonalChange: change / episodes.length },
  };
}

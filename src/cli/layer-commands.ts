/** analyze's every-layer output (--all-layers), its switching heads off (--ablate, --ablate-top) and its answers (--generate). */
import { type AblationKind, compareAnswers, type HeadRef, headMask, headName, meanBias, topHeads, withMask } from '../analysis/ablation';
import { generateAnswer } from '../analysis/answer';
import { analyzeHeads, headMeans, type LayerFigures } from '../analysis/heads';
import type { SummaryCache } from '../analysis/policy-inputs';
import type { Policy } from '../context/policy';
import type { Conversation } from '../conversation/types';
import { CATEGORIES, type CategoryRatios } from '../metrics/categories';
import type { OpenModel } from '../runtime/open-model';
import { InputError } from './input-error';

const f = (v: number) => v.toFixed(4);

/** What these options read of analyze's arguments (AnalyzeArgs extends it). */
export interface HeadArgs {
  turn?: number;
  radius?: number;
  /** --ablate L.H (0-based): these heads switched off (zero ablation) in every pass. */
  ablate?: [number, number][];
  /** --ablate-top K: the K heads with the highest diagonal ratio under Full switched off. */
  ablateTop?: number;
  /** --ablate-mean: switch them off by replacing their output with its mean over the conversation (else zero). */
  ablateMean?: boolean;
}

/** The heads switched off, as figures and exports name them. */
export interface AblationJson {
  kind: AblationKind;
  heads: string[];
  chosen: string;
}

/**
 * Switches heads off in the model's session before anything runs: the heads named, or the K with the highest
 * diagonal ratio (any layer) under Full on this conversation. Null when none is asked for.
 */
export async function ablate(model: OpenModel, conv: Conversation, a: HeadArgs): Promise<AblationJson | null> {
  let heads: HeadRef[] = a.ablate ?? [];
  let chosen = 'named (--ablate)';
  if (a.ablateTop) {
    const layers = await analyzeHeads(model, conv, 'full', {
      ...(a.turn !== undefined && { turn: a.turn }),
      ...(a.radius !== undefined && { radius: a.radius }),
    });
    heads = [...heads, ...topHeads(layers, a.ablateTop)];
    chosen = `the ${a.ablateTop} with the highest diagonal ratio under Full${a.ablate?.length ? ', and those named' : ''}`;
  }
  if (!heads.length) return null;
  model.session.headMask = maskOrRefuse(model, heads);
  if (a.ablateMean) {
    // The reference: this conversation under Full, every head on (set before the mask applies: headMeans gives its own).
    const means = await headMeans(model, conv, { ...(a.turn !== undefined && { turn: a.turn }) });
    model.session.headBias = meanBias(heads, means, model.session.spec.numHeads, model.session.spec.headDim);
  }
  return { kind: a.ablateMean ? 'mean' : 'zero', heads: [...new Set(heads.map(headName))], chosen };
}

/** The head mask of `heads` for this model, or an InputError naming the head it does not have. */
function maskOrRefuse(model: OpenModel, heads: readonly HeadRef[]): Float32Array {
  const { numLayers, numHeads } = model.session.spec;
  try {
    return headMask(heads, numLayers, numHeads);
  } catch (e) {
    throw new InputError(`--ablate ${(e as Error).message}`);
  }
}

/** What --all-layers adds to each result: every layer, its head mean and each head. */
export type LayersJson = { layer: number; ratios: CategoryRatios; diagonal: number; perHead: { ratios: CategoryRatios; diagonal: number }[] }[];
export const layersJson = (layers: LayerFigures[]): LayersJson =>
  layers.map(({ layer, ratios, diagonal, perHead }) => ({
    layer,
    ratios,
    diagonal,
    perHead: perHead.map((h) => ({ ratios: h.ratios, diagonal: h.diagonal })),
  }));

/** --all-layers as text: the diagonal by layer (head mean), and the heads that carry it most. */
export function printLayers(layers: LayersJson): void {
  console.log(`    diagonal by layer (head mean): ${layers.map((l) => `L${l.layer} ${f(l.diagonal)}`).join('  ')}`);
  const top = topHeads(layers, 3);
  console.log(`    highest heads (layer.head): ${top.map(([l, h]) => `${l}.${h} ${f(layers[l]!.perHead[h]!.diagonal)}`).join('  ')}`);
}

/** analyze --generate: the policy's greedy answer at the turn; with heads off, also the answer with every head on, and how they compare. */
export interface AnswerJson {
  text: string;
  withEveryHeadOn?: string;
  comparison?: ReturnType<typeof compareAnswers>;
}

export async function answerJson(model: OpenModel, conv: Conversation, policy: Policy, turn: number, summaries: SummaryCache): Promise<AnswerJson> {
  const text = await generateAnswer(model, conv, policy, turn, { summaries });
  if (!model.session.headMask) return { text };
  const { numLayers, numHeads } = model.session.spec;
  const zeros = model.session.headBias ? new Float32Array(model.session.headBias.length) : undefined;
  const withEveryHeadOn = await generateAnswer(withMask(model, headMask([], numLayers, numHeads), zeros), conv, policy, turn, { summaries });
  return { text, withEveryHeadOn, comparison: compareAnswers(withEveryHeadOn, text) };
}

/** --generate as text: the answer (and, with heads off, the answer with every head on). */
export function printAnswer(label: string, a: AnswerJson): void {
  console.log(`  ${label} answer${a.withEveryHeadOn !== undefined ? ' with the heads off' : ''}: ${JSON.stringify(a.text)}`);
  if (a.withEveryHeadOn !== undefined) console.log(`  ${label} answer with every head on: ${JSON.stringify(a.withEveryHeadOn)} (${a.comparison})`);
}

/** batch --ablate L.H: the named heads off for the whole run, set once after the model opens. */
export function ablateNamed(model: OpenModel, a: HeadArgs): void {
  if (!a.ablate?.length) return;
  model.session.headMask = maskOrRefuse(model, a.ablate);
  process.stderr.write(`heads switched off (zero ablation): ${a.ablate.map(headName).join(', ')}\n`);
}

/** batch --all-layers: the long format, one row per conversation × policy × layer × head (the head mean first, as head "mean"). */
export const LAYER_CSV_HEADER = ['line', 'policy', 'turn', 'layer', 'head', ...CATEGORIES, 'diagonal'];

export function layerRows(line: number, r: { policy: string; turn: number; layers?: LayersJson }): (string | number)[][] {
  return (r.layers ?? []).flatMap((l) =>
    [{ head: 'mean' as string | number, ...l }, ...l.perHead.map((h, k) => ({ head: k, ...h }))].map((x) => [
      line,
      r.policy,
      r.turn,
      l.layer,
      x.head,
      ...CATEGORIES.map((c) => x.ratios[c].toFixed(6)),
      x.diagonal.toFixed(6),
    ]),
  );
}

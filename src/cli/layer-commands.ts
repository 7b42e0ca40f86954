/** analyze's every-layer output (--all-layers) and its switching heads off (--ablate, --ablate-top). */
import { analyzeHeads, type LayerFigures } from '../analysis/heads';
import type { Conversation } from '../conversation/types';
import type { CategoryRatios } from '../metrics/categories';
import type { OpenModel } from '../runtime/open-model';
import { type AnalyzeArgs, InputError } from './analysis-commands';

const f = (v: number) => v.toFixed(4);

/** The heads switched off, as figures and exports name them. */
export interface AblationJson {
  kind: 'zero';
  heads: string[];
  chosen: string;
}

/**
 * Switches heads off in the model's session before anything runs: the heads named, or the K with the highest
 * diagonal ratio (any layer) under Full on this conversation. Null when none is asked for.
 */
export async function ablate(model: OpenModel, conv: Conversation, a: AnalyzeArgs): Promise<AblationJson | null> {
  const { numLayers, numHeads } = model.session.spec;
  let heads = a.ablate ?? [];
  let chosen = 'named (--ablate)';
  if (a.ablateTop) {
    const layers = await analyzeHeads(model, conv, 'full', {
      ...(a.turn !== undefined && { turn: a.turn }),
      ...(a.radius !== undefined && { radius: a.radius }),
    });
    const ranked = layers.flatMap((l) => l.perHead.map((h, k) => ({ at: [l.layer, k] as [number, number], d: h.diagonal }))).sort((x, y) => y.d - x.d);
    heads = [...heads, ...ranked.slice(0, a.ablateTop).map((h) => h.at)];
    chosen = `the ${a.ablateTop} with the highest diagonal ratio under Full${a.ablate?.length ? ', and those named' : ''}`;
  }
  if (!heads.length) return null;
  const mask = new Float32Array(numLayers * numHeads).fill(1);
  for (const [l, h] of heads) {
    if (l >= numLayers || h >= numHeads) throw new InputError(`--ablate ${l}.${h}: this model has layers 0..${numLayers - 1} and heads 0..${numHeads - 1}`);
    mask[l * numHeads + h] = 0;
  }
  model.session.headMask = mask;
  return { kind: 'zero', heads: [...new Set(heads.map(([l, h]) => `${l}.${h}`))], chosen };
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
  const heads = layers.flatMap((l) => l.perHead.map((h, k) => ({ at: `${l.layer}.${k}`, d: h.diagonal })));
  const top = heads.sort((x, y) => y.d - x.d).slice(0, 3);
  console.log(`    highest heads (layer.head): ${top.map((h) => `${h.at} ${f(h.d)}`).join('  ')}`);
}

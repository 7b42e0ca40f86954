/**
 * Switching heads off (zero ablation): each switched-off head's output is multiplied by 0 before o_proj, in
 * every layer's graph (the head_mask input), so no rebuild is needed. Heads are named "L.H", 0-based layer
 * and head, in figures, exports, links and the CLI alike.
 */
import type { AnalysisModel } from './policy-inputs';

/**
 * How a head is switched off: its output set to zero, or replaced by its mean output over a reference (here
 * the conversation itself under Full with every head on: heads.ts headMeans), which keeps the typical size of
 * what the head writes and removes what depends on the token (as in Wang et al. 2022's mean ablation).
 */
export type AblationKind = 'zero' | 'mean';

/** A head: its 0-based layer and its 0-based index in that layer. */
export type HeadRef = readonly [layer: number, head: number];

export const headName = ([l, h]: HeadRef): string => `${l}.${h}`;

/** A head as the page names it ("L1·H0"): "1.0" read as a number beside the figures. headName stays the links' and the CLI's. */
export const headLabel = ([l, h]: HeadRef): string => `L${l}·H${h}`;
/** The same from a head's name ("1.0" → "L1·H0"), as a result carries it. */
export const labelOfName = (name: string): string => name.replace(/^(\d+)\.(\d+)$/, 'L$1·H$2');

/** "3.1,3.4" → [[3, 1], [3, 4]], in layer then head order, each once; a message naming the first bad entry. */
export function parseHeads(text: string, layers: number, heads: number): HeadRef[] | string {
  const out = new Map<string, HeadRef>();
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(\d+)\.(\d+)$/.exec(part);
    if (!m) return `"${part.slice(0, 20)}" is not a head: write layer.head, e.g. ${Number.isFinite(layers) ? layers - 1 : 3}.0`;
    const ref = [Number(m[1]), Number(m[2])] as const;
    if (ref[0] >= layers || ref[1] >= heads) return `head ${part}: this model has layers 0..${layers - 1} and heads 0..${heads - 1}`;
    out.set(headName(ref), ref);
  }
  return inHeadOrder([...out.values()]);
}

/** Whether `head` is one of `heads`. */
export const hasHead = (heads: readonly HeadRef[], [l, h]: HeadRef): boolean => heads.some(([xl, xh]) => xl === l && xh === h);

/** Heads in layer, then head order: how every list of heads switched off is kept and shown. */
export const inHeadOrder = (heads: readonly HeadRef[]): HeadRef[] => [...heads].sort((a, b) => a[0] - b[0] || a[1] - b[1]);

/** The head_mask input: [layers × heads], 1 for a head on, 0 for one off. */
export function headMask(off: readonly HeadRef[], layers: number, heads: number): Float32Array {
  const mask = new Float32Array(layers * heads).fill(1);
  for (const [l, h] of off) {
    if (!(l >= 0 && l < layers && h >= 0 && h < heads))
      throw new RangeError(`head ${l}.${h}: this model has layers 0..${layers - 1} and heads 0..${heads - 1}`);
    mask[l * heads + h] = 0;
  }
  return mask;
}

export type HeadDiagonals = readonly { layer: number; perHead: readonly { diagonal: number }[] }[];

/** The k heads with the highest diagonal ratio, any layer (ties: the earlier head), leaving out `except` (heads switched off). */
export function topHeads(layers: HeadDiagonals, k: number, except: readonly HeadRef[] = []): HeadRef[] {
  return ranked(layers, -1)
    .filter((head) => !hasHead(except, head))
    .slice(0, k);
}

/** The k heads with the lowest diagonal ratio, any layer (ties: the earlier head): the control to topHeads. */
export function bottomHeads(layers: HeadDiagonals, k: number): HeadRef[] {
  return ranked(layers, 1).slice(0, k);
}

/**
 * The final layer's k heads with the highest diagonal ratio and, as their control, its k lowest: the lesson's heads
 * step switches off the first, then the second (the final layer is the one every figure reads).
 */
export function lastLayerSets(layers: HeadDiagonals, k = 3): { first: HeadRef[]; control: HeadRef[] } {
  const last = layers.slice(-1);
  return { first: topHeads(last, k), control: bottomHeads(last, k) };
}

/** Every head by its diagonal ratio, ascending (order 1) or descending (-1), ties to the earlier head. */
function ranked(layers: HeadDiagonals, order: 1 | -1): HeadRef[] {
  const all = layers.flatMap((l) => l.perHead.map((h, i) => ({ at: [l.layer, i] as const, d: h.diagonal })));
  return all.sort((x, y) => order * (x.d - y.d) || x.at[0] - y.at[0] || x.at[1] - y.at[1]).map((x) => x.at);
}

/**
 * The same model with `off` switched off in every pass it runs. Each such model is a session of its own to
 * the caches keyed by session (prefix-pass.ts): a cache made with every head on never serves a pass with some off.
 */
export function withHeadsOff<M extends AnalysisModel>(model: M, off: readonly HeadRef[], means?: Float32Array): M {
  if (!off.length) return model;
  const { numLayers, numHeads, headDim } = model.session.spec;
  return withMask(model, headMask(off, numLayers, numHeads), means && meanBias(off, means, numHeads, headDim));
}

/** head_bias for mean ablation: each switched-off head's mean output, zero elsewhere. */
export function meanBias(off: readonly HeadRef[], means: Float32Array, heads: number, headDim: number): Float32Array {
  const bias = new Float32Array(means.length);
  for (const [l, h] of off) {
    const at = (l * heads + h) * headDim;
    bias.set(means.subarray(at, at + headDim), at);
  }
  return bias;
}

/** The same model with every pass under `mask` ([layers × heads]) and `bias`, whatever its session is set to. */
export function withMask<M extends AnalysisModel>(model: M, mask: Float32Array, bias?: Float32Array): M {
  const base = model.session;
  const session: typeof base = Object.create(base, {
    forward: {
      value: (req: Parameters<typeof base.forward>[0]) =>
        base.forward({ ...req, headMask: req.headMask ?? mask, ...(bias && { headBias: req.headBias ?? bias }) }),
    },
  });
  return { ...model, session };
}

/**
 * Two answers to the same turn, in plain words: the same text, the same last line (for an agent's answer,
 * its action) in other words, or a different last line.
 */
export function compareAnswers(withAll: string, withOff: string): 'same answer' | 'different wording, same last line' | 'different last line' {
  if (withAll.trim() === withOff.trim()) return 'same answer';
  const last = (t: string) =>
    t
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .at(-1)
      ?.trim() ?? '';
  return last(withAll) === last(withOff) ? 'different wording, same last line' : 'different last line';
}

import { CONFIG_FILE, num, numList, positive, type Cfg } from './config-fields';
import { ModelError } from '../errors';

/**
 * The rotary embedding's scaling, as transformers' modeling_rope_utils.py defines each type. Constants
 * that depend only on the config (YaRN's and LongRoPE's attention factor) are computed here; what
 * depends on the sequence (dynamic NTK's base, LongRoPE's short/long switch) in rope.ts, per pass.
 */
export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositionEmbeddings: number }
  /** Dynamic NTK: the base grows with the pass's length past maxPositionEmbeddings (stateless: per pass). */
  | { type: 'dynamic'; factor: number; maxPositionEmbeddings: number }
  | { type: 'yarn'; factor: number; originalMaxPositionEmbeddings: number; betaFast: number; betaSlow: number; truncate: boolean; attentionFactor: number }
  /** LongRoPE (Phi-3): short factors up to originalMaxPositionEmbeddings positions, long factors past them. */
  | { type: 'longrope'; shortFactor: number[]; longFactor: number[]; originalMaxPositionEmbeddings: number; attentionFactor: number };

/** One rotary embedding: its base, the leading dims of each head it rotates, and its scaling. */
export interface Rope {
  theta: number;
  /** int(head_dim × partial_rotary_factor): the first rotaryDim dims of each head rotate, the rest pass through. */
  rotaryDim: number;
  scaling: RopeScaling;
}

/** YaRN's and LongRoPE's mscale: 0.1·m·ln(s) + 1 for s > 1. */
function mscaleOf(scale: number, m = 1): number {
  return scale <= 1 ? 1 : 0.1 * m * Math.log(scale) + 1;
}

/**
 * Parses one rope-scaling object (config.json's `rope_scaling`, or a `rope_parameters` entry). `field`
 * names it in messages; `maxPos` and `originalMax` are the config's own fields (Phi-3 keeps
 * `original_max_position_embeddings` at the top level, which transformers gives priority).
 */
export function parseRopeScaling(
  raw: Cfg | null,
  field: string,
  ctx: { maxPos: number; originalMax: number | null; rotaryDim: number; aliasYarnToLongrope?: boolean },
): RopeScaling {
  if (raw === null) return { type: 'default' };
  let type = raw.rope_type ?? raw.type ?? 'default';
  // Phi-3's configuration renames the old "su" and "yarn" types to longrope (configuration_phi3.py).
  if (ctx.aliasYarnToLongrope && (type === 'su' || type === 'yarn')) type = 'longrope';
  const p = `${field}.`;
  const orig = () =>
    ctx.originalMax ?? (raw.original_max_position_embeddings != null ? positive(raw, 'original_max_position_embeddings', undefined, p) : ctx.maxPos);
  switch (type) {
    case 'default':
      return { type: 'default' };
    case 'linear':
      return { type: 'linear', factor: positive(raw, 'factor', undefined, p) };
    case 'llama3': {
      const low = positive(raw, 'low_freq_factor', undefined, p);
      const high = positive(raw, 'high_freq_factor', undefined, p);
      if (high <= low) throw new ModelError(CONFIG_FILE, `high_freq_factor (${high}) must exceed low_freq_factor (${low})`, `${p}high_freq_factor`);
      return {
        type: 'llama3',
        factor: positive(raw, 'factor', undefined, p),
        lowFreqFactor: low,
        highFreqFactor: high,
        originalMaxPositionEmbeddings: positive(raw, 'original_max_position_embeddings', undefined, p),
      };
    }
    case 'dynamic':
      return { type: 'dynamic', factor: positive(raw, 'factor', undefined, p), maxPositionEmbeddings: ctx.maxPos };
    case 'yarn': {
      const o = orig();
      // Newest transformers: an explicit factor as given, else max / original (up to v4.5x an original length
      // replaced the factor with max / original; docs/models.md says which is followed).
      const factor = raw.factor != null ? positive(raw, 'factor', undefined, p) : ctx.maxPos / o;
      const m = raw.mscale != null ? num(raw, 'mscale', undefined, p) : 0;
      const mAll = raw.mscale_all_dim != null ? num(raw, 'mscale_all_dim', undefined, p) : 0;
      const explicit = raw.attention_factor != null ? positive(raw, 'attention_factor', undefined, p) : null;
      const attentionFactor = explicit ?? (m && mAll ? mscaleOf(factor, m) / mscaleOf(factor, mAll) : mscaleOf(factor));
      return {
        type: 'yarn',
        factor,
        originalMaxPositionEmbeddings: o,
        betaFast: (raw.beta_fast as number) || 32,
        betaSlow: (raw.beta_slow as number) || 1,
        truncate: raw.truncate !== false,
        attentionFactor,
      };
    }
    case 'longrope': {
      const o = orig();
      const half = ctx.rotaryDim / 2;
      const factor = raw.factor != null ? positive(raw, 'factor', undefined, p) : ctx.maxPos / o;
      const explicit = raw.attention_factor != null ? positive(raw, 'attention_factor', undefined, p) : null;
      const attentionFactor = explicit ?? (factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(o)));
      return {
        type: 'longrope',
        shortFactor: numList(raw, 'short_factor', half, p),
        longFactor: numList(raw, 'long_factor', half, p),
        originalMaxPositionEmbeddings: o,
        attentionFactor,
      };
    }
    default:
      throw new ModelError(
        CONFIG_FILE,
        `rope type "${String(type).slice(0, 40)}" is not supported (default, linear, llama3, dynamic, yarn, longrope are)`,
        `${p}rope_type`,
      );
  }
}

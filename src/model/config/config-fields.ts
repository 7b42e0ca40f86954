import { ModelError } from '../errors';

/** Typed reads of config.json fields, each failing with a ModelError that names the field. */
export const CONFIG_FILE = 'config.json';

export type Cfg = Record<string, unknown>;

export function has(cfg: Cfg, field: string): boolean {
  return Object.hasOwn(cfg, field) && cfg[field] !== null && cfg[field] !== undefined;
}

export function num(cfg: Cfg, field: string, fallback?: number, prefix = ''): number {
  const v = has(cfg, field) ? cfg[field] : undefined;
  if (v === undefined) {
    if (fallback !== undefined) return fallback;
    throw new ModelError(CONFIG_FILE, 'is missing', prefix + field);
  }
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ModelError(CONFIG_FILE, `must be a number, got ${JSON.stringify(v)?.slice(0, 80)}`, prefix + field);
  return v;
}

/** A number > 0 (epsilons, rope bases, scaling factors, multipliers): zero or negative would make every figure NaN. */
export function positive(cfg: Cfg, field: string, fallback?: number, prefix = ''): number {
  const v = num(cfg, field, fallback, prefix);
  if (!(v > 0)) throw new ModelError(CONFIG_FILE, `must be greater than 0, got ${v}`, prefix + field);
  return v;
}

/** Sizes beyond any released model by orders of magnitude: a config past them is broken (and would exhaust memory before saying so). */
const MAXIMA: Record<string, number> = {
  num_hidden_layers: 1024,
  num_attention_heads: 1024,
  num_key_value_heads: 1024,
  head_dim: 4096,
  hidden_size: 1 << 17,
  intermediate_size: 1 << 20,
  vocab_size: 1 << 24,
  max_position_embeddings: 1 << 24,
  sliding_window: 1 << 24,
};

export function posInt(cfg: Cfg, field: string, fallback?: number, prefix = ''): number {
  const v = num(cfg, field, fallback, prefix);
  if (!Number.isInteger(v) || v <= 0) throw new ModelError(CONFIG_FILE, `must be a positive integer, got ${v}`, prefix + field);
  const max = MAXIMA[field];
  if (max !== undefined && v > max)
    throw new ModelError(CONFIG_FILE, `must be at most ${max.toLocaleString('en-US')} (no model comes close), got ${v}`, prefix + field);
  return v;
}

export function bool(cfg: Cfg, field: string, fallback: boolean): boolean {
  const v = has(cfg, field) ? cfg[field] : undefined;
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new ModelError(CONFIG_FILE, `must be true or false, got ${JSON.stringify(v)?.slice(0, 80)}`, field);
  return v;
}

export function numList(cfg: Cfg, field: string, length: number, prefix = ''): number[] {
  const v = cfg[field];
  if (!Array.isArray(v) || v.length !== length || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new ModelError(CONFIG_FILE, `must be a list of ${length} numbers`, prefix + field);
  }
  return v as number[];
}

export function object(cfg: Cfg, field: string): Cfg | null {
  const v = has(cfg, field) ? cfg[field] : undefined;
  if (v === undefined) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw new ModelError(CONFIG_FILE, 'must be an object', field);
  return v as Cfg;
}

/**
 * Per layer: which rotary embedding it uses (none for a NoPE layer) and its sliding window, from each family's
 * configuration_*.py and modeling_*.py.
 */
import type { Family, LayerSpec } from './family';
import { bool, CONFIG_FILE, has, num, object, posInt, positive, type Cfg } from './config-fields';
import { ModelError } from '../errors';
import { parseRopeScaling, type Rope } from './rope-config';

/** The rotary embeddings: one for every layer, but Gemma 3 has a local one for its sliding layers (index localRope). */
export function ropesOf(cfg: Cfg, family: Family, headDim: number, maxPos: number): { ropes: Rope[]; localRope: number | null } {
  // Rotary embeddings: one for every layer, but Gemma 3 has a local one for its sliding layers.
  const ropeParams = object(cfg, 'rope_parameters');
  const nested = ropeParams !== null && ('full_attention' in ropeParams || 'sliding_attention' in ropeParams);
  // transformers (convert_rope_params_to_dict): rope_parameters' own entries win over the top-level fields.
  const partial =
    typeof ropeParams?.partial_rotary_factor === 'number'
      ? num(ropeParams, 'partial_rotary_factor', undefined, 'rope_parameters.')
      : num(cfg, 'partial_rotary_factor', 1);
  if (!(partial > 0 && partial <= 1)) throw new ModelError(CONFIG_FILE, `must be in (0, 1], got ${partial}`, 'partial_rotary_factor');
  const rotaryDim = Math.floor(headDim * partial);
  if (rotaryDim % 2 !== 0 || rotaryDim === 0)
    throw new ModelError(CONFIG_FILE, `head_dim ${headDim} × ${partial} = ${rotaryDim} rotary dims, which must be even and positive`, 'partial_rotary_factor');
  const originalMax = family === 'phi3' && has(cfg, 'original_max_position_embeddings') ? posInt(cfg, 'original_max_position_embeddings') : null;
  const scalingOf = (raw: Cfg | null, field: string) =>
    parseRopeScaling(raw, field, { maxPos, originalMax, rotaryDim, aliasYarnToLongrope: family === 'phi3' });
  const topScaling = () => {
    const rs = object(cfg, 'rope_scaling');
    if (rs) return scalingOf(rs, 'rope_scaling');
    return scalingOf(ropeParams && !nested ? ropeParams : null, 'rope_parameters');
  };
  /** A rope base: the rope_parameters entry's rope_theta (new spelling), else the top-level field (old), else the family's default. */
  const theta = (field: string, params: Cfg | null, paramsField: string, fallback: number) =>
    params && has(params, 'rope_theta') ? positive(params, 'rope_theta', undefined, `${paramsField}.`) : has(cfg, field) ? positive(cfg, field) : fallback;
  const ropes: Rope[] = [];
  let localRope: number | null = null;
  if (family === 'gemma3_text') {
    const full = nested ? ((ropeParams!.full_attention as Cfg) ?? null) : null;
    const local = nested ? ((ropeParams!.sliding_attention as Cfg) ?? null) : null;
    ropes.push({
      theta: theta('rope_theta', full, 'rope_parameters.full_attention', 1_000_000),
      rotaryDim,
      scaling: object(cfg, 'rope_scaling') ? topScaling() : scalingOf(full, 'rope_parameters.full_attention'),
    });
    // Sliding layers: rope_local_base_freq, never scaled (modeling_gemma3.py).
    ropes.push({ theta: theta('rope_local_base_freq', local, 'rope_parameters.sliding_attention', 10_000), rotaryDim, scaling: { type: 'default' } });
    localRope = 1;
  } else {
    const fallback = family === 'smollm3' ? 2_000_000 : 10_000;
    ropes.push({ theta: theta('rope_theta', ropeParams && !nested ? ropeParams : null, 'rope_parameters', fallback), rotaryDim, scaling: topScaling() });
  }
  return { ropes, localRope };
}

/** Each layer's rotary embedding and window: sliding windows and NoPE layers, per family. */
export function layersOf(cfg: Cfg, family: Family, numLayers: number, maxPos: number, localRope: number | null, notes: string[]): LayerSpec[] {
  // Sliding windows and NoPE layers, per family (each from its configuration_*.py / modeling_*.py).
  const window = has(cfg, 'sliding_window') ? posInt(cfg, 'sliding_window') : null;
  let layers: LayerSpec[];
  if (family === 'gemma3_text') {
    const pattern = posInt(cfg, has(cfg, 'sliding_window_pattern') ? 'sliding_window_pattern' : '_sliding_window_pattern', 6);
    const types = layerTypes(cfg, numLayers, (i) => ((i + 1) % pattern ? 'sliding_attention' : 'full_attention'));
    const w = window ?? 4096;
    layers = types.map((k) => (k === 'sliding_attention' ? { rope: localRope, window: w } : { rope: 0, window: null }));
  } else if (family === 'smollm3') {
    const interval = posInt(cfg, 'no_rope_layer_interval', 4);
    const raw = cfg.no_rope_layers;
    if (raw != null && (!Array.isArray(raw) || raw.length < numLayers || !raw.slice(0, numLayers).every((x) => x === 0 || x === 1))) {
      throw new ModelError(CONFIG_FILE, `must list at least ${numLayers} entries, each 1 (RoPE) or 0 (NoPE)`, 'no_rope_layers');
    }
    const usesRope = (i: number) => (raw != null ? (raw as number[])[i] === 1 : (i + 1) % interval !== 0);
    const sliding = bool(cfg, 'use_sliding_window', false) && window !== null;
    const types = layerTypes(cfg, numLayers, (i) => (sliding && !usesRope(i) ? 'sliding_attention' : 'full_attention'));
    layers = types.map((k, i) => ({ rope: usesRope(i) ? 0 : null, window: sliding && k === 'sliding_attention' ? window : null }));
  } else if (family === 'qwen2' || family === 'qwen3') {
    // configuration_qwen2.py: sliding_window counts only with use_sliding_window, and from max_window_layers on.
    const sliding = bool(cfg, 'use_sliding_window', false) ? window : null;
    const from = num(cfg, 'max_window_layers', 28); // transformers' default
    const types = layerTypes(cfg, numLayers, (i) => (sliding !== null && i >= from ? 'sliding_attention' : 'full_attention'));
    layers = types.map((k) => ({ rope: 0, window: k === 'sliding_attention' ? (sliding ?? window) : null }));
  } else if (family === 'mistral' || family === 'phi3') {
    // Every layer slides when sliding_window is set (modeling_mistral.py; Phi-3 follows Mistral's model).
    layers = Array.from({ length: numLayers }, () => ({ rope: 0, window }));
  } else {
    if (window !== null && family === 'llama') notes.push('sliding_window is ignored: Llama attends to every earlier token');
    layers = Array.from({ length: numLayers }, () => ({ rope: 0, window: null }));
  }
  // A window as long as the positions the model knows cuts nothing it was trained on: attend to every key.
  const wide = layers.find((l) => l.window !== null && l.window >= maxPos)?.window;
  if (wide !== undefined && wide !== null) {
    layers = layers.map((l) => (l.window !== null && l.window >= maxPos ? { ...l, window: null } : l));
    notes.push(
      `sliding_window ${wide.toLocaleString('en-US')} is at least max_position_embeddings (${maxPos.toLocaleString('en-US')}): those layers attend to every earlier token`,
    );
  }
  return layers;
}

/** Layer i's kind from `layer_types` when the config lists it, else from the family's rule. */
function layerTypes(cfg: Cfg, n: number, rule: (i: number) => 'sliding_attention' | 'full_attention'): ('sliding_attention' | 'full_attention')[] {
  const given = cfg.layer_types;
  if (given == null) return Array.from({ length: n }, (_, i) => rule(i));
  if (!Array.isArray(given) || given.length !== n || !given.every((t) => t === 'sliding_attention' || t === 'full_attention')) {
    throw new ModelError(CONFIG_FILE, `must list ${n} entries, each "sliding_attention" or "full_attention"`, 'layer_types');
  }
  return given;
}

import { normalizeConfig, type ModelSpec } from './config';
import { ModelError } from './errors';
import { parseSafetensors, type TensorInfo } from './safetensors';
import { parseJsonFile, readRequired, type ModelSource, type ReadProgress } from './source';

export const INDEX_FILE = 'model.safetensors.index.json';
export const SINGLE_FILE = 'model.safetensors';

export interface StoredTensor extends TensorInfo {
  /** The safetensors file it came from (for messages). */
  file: string;
}

/** A checkpoint in memory: the normalized spec, the raw config, and every tensor by HF name. */
export interface Checkpoint {
  spec: ModelSpec;
  config: Record<string, unknown>;
  tensors: Map<string, StoredTensor>;
  /** The dtypes present among the weights, e.g. ['BF16']. */
  dtypes: string[];
  source: string;
}

/**
 * Reads config.json and the weights (`model.safetensors`, or the shards listed by
 * `model.safetensors.index.json`) from any ModelSource.
 */
export async function loadCheckpoint(source: ModelSource, onProgress?: (p: ReadProgress) => void): Promise<Checkpoint> {
  const config = parseJsonFile('config.json', await readRequired(source, 'config.json', onProgress));
  const spec = normalizeConfig(config);
  const tensors = new Map<string, StoredTensor>();
  const add = (file: string, bytes: Uint8Array, only?: Set<string>) => {
    for (const [name, t] of parseSafetensors(file, bytes)) {
      if (only && !only.has(name)) continue;
      tensors.set(name, { ...t, file });
    }
  };
  const indexBytes = await source.read(INDEX_FILE, onProgress);
  if (indexBytes) {
    const index = parseJsonFile(INDEX_FILE, indexBytes);
    const map = index.weight_map;
    if (typeof map !== 'object' || map === null) throw new ModelError(INDEX_FILE, 'has no weight_map object', 'weight_map');
    const byShard = new Map<string, Set<string>>();
    for (const [name, shard] of Object.entries(map as Record<string, unknown>)) {
      if (typeof shard !== 'string') throw new ModelError(INDEX_FILE, 'shard name must be a string', `weight_map.${name}`);
      if (!byShard.has(shard)) byShard.set(shard, new Set());
      byShard.get(shard)!.add(name);
    }
    for (const [shard, names] of byShard) {
      add(shard, await readRequired(source, shard, onProgress), names);
      for (const n of names) {
        if (!tensors.has(n)) throw new ModelError(shard, `does not contain ${n}, which ${INDEX_FILE} places there`, n);
      }
    }
  } else {
    const single = await source.read(SINGLE_FILE, onProgress);
    if (!single) throw new ModelError(SINGLE_FILE, `is missing from ${source.label} (and there is no ${INDEX_FILE} for a sharded checkpoint)`);
    add(SINGLE_FILE, single);
  }
  const dtypes = [...new Set([...tensors.values()].map((t) => t.dtype))].sort();
  return { spec, config, tensors, dtypes, source: source.label };
}

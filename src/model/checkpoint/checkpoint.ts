import { normalizeConfig, type ModelSpec } from '../config/config';
import { textTensorName } from '../config/multimodal';
import { ModelError } from '../errors';
import { awqConfigOf, packAwq, type PackedMatrix } from '../precision/awq';
import { readSafetensorsHeader, type SafetensorsDtype, type TensorInfo } from './safetensors';
import { parseJsonFile, readRequired, readWhole, type ModelSource, type ReadProgress } from '../source/source';
import { fileRange, type TensorBytes } from './tensor-bytes';

export const INDEX_FILE = 'model.safetensors.index.json';
export const SINGLE_FILE = 'model.safetensors';

/** A tensor as a safetensors file holds it (any dtype we read, I32 included). */
export interface RawTensor extends Omit<TensorInfo, 'start' | 'end'> {
  /** The safetensors file it came from (for messages). */
  file: string;
  /** Its bytes, read only when the runtime (or the reference) asks for them. */
  data: TensorBytes;
}

export type FloatDtype = Exclude<SafetensorsDtype, 'I32'>;

/** A weight of the model: floating point, or a matrix stored packed (AWQ) whose `data` is its dequantization. */
export interface StoredTensor extends RawTensor {
  dtype: FloatDtype;
  /** A published 4-bit matrix (model/precision/awq.ts): these parts go to MatMulNBits as they are. */
  packed?: PackedMatrix;
}

/**
 * A checkpoint as its headers describe it: the normalized spec, the raw config, and every tensor by
 * HF name, with its bytes still in the files. Reading it costs the JSON files and a few KB of
 * safetensors headers, so memory can be planned before any weight is fetched.
 */
export interface Checkpoint {
  spec: ModelSpec;
  config: Record<string, unknown>;
  tensors: Map<string, StoredTensor>;
  /** The dtypes present among the weights, e.g. ['BF16']. */
  dtypes: string[];
  /** The weights files and their sizes in bytes. */
  weightFiles: { name: string; size: number }[];
  /** Every weights file reads synchronously (a folder on disk): a tensor is read only when onnxruntime copies it in, so no file's bytes are held meanwhile. */
  syncReads: boolean;
  source: string;
}

/** A shard name from the index must name a file in the model folder itself, not a path out of it. */
function checkShardName(shard: string, tensor: string): void {
  if (!/^[\w.-]+$/.test(shard) || shard === '.' || shard === '..') {
    throw new ModelError(INDEX_FILE, `shard "${shard.slice(0, 80)}" is not a file name in the model folder`, `weight_map.${tensor}`);
  }
}

/**
 * Reads config.json and the safetensors headers (`model.safetensors`, or the shards listed by
 * `model.safetensors.index.json`) from any ModelSource. `onProgress` also reports the weights' reads
 * when the runtime makes them later, per file.
 */
export async function loadCheckpoint(source: ModelSource, onProgress?: (p: ReadProgress) => void): Promise<Checkpoint> {
  const config = parseJsonFile('config.json', await readRequired(source, 'config.json', onProgress));
  const spec = normalizeConfig(config);
  const tensors = new Map<string, RawTensor>();
  const weightFiles: { name: string; size: number }[] = [];
  let syncReads = true;
  const add = async (file: string, only?: Set<string>) => {
    const f = await source.open(file);
    if (!f)
      throw new ModelError(
        file,
        only
          ? `is missing from ${source.label} (${INDEX_FILE} names it)`
          : `is missing from ${source.label} (and there is no ${INDEX_FILE} for a sharded checkpoint)`,
      );
    weightFiles.push({ name: file, size: f.size });
    syncReads &&= f.readSync !== undefined;
    let loaded = 0;
    const onRead = (n: number) => {
      loaded += n;
      onProgress?.({ file, loaded, total: f.size });
    };
    for (const [name, t] of await readSafetensorsHeader(file, f)) {
      if (only && !only.has(name)) continue;
      if (tensors.has(name)) throw new ModelError(file, `holds ${name} a second time (also in ${tensors.get(name)!.file})`, name);
      tensors.set(name, { name, dtype: t.dtype, shape: t.shape, file, data: fileRange(f, t.start, t.end, onRead) });
    }
  };
  const indexBytes = await readWhole(source, INDEX_FILE, onProgress);
  if (indexBytes) {
    const index = parseJsonFile(INDEX_FILE, indexBytes);
    const map = index.weight_map;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) throw new ModelError(INDEX_FILE, 'has no weight_map object', 'weight_map');
    const byShard = new Map<string, Set<string>>();
    for (const [name, shard] of Object.entries(map as Record<string, unknown>)) {
      if (typeof shard !== 'string') throw new ModelError(INDEX_FILE, 'shard name must be a string', `weight_map.${name}`);
      checkShardName(shard, name);
      if (!byShard.has(shard)) byShard.set(shard, new Set());
      byShard.get(shard)!.add(name);
    }
    for (const [shard, names] of byShard) {
      await add(shard, names);
      for (const n of names) {
        if (tensors.get(n)?.file !== shard) throw new ModelError(shard, `does not contain ${n}, which ${INDEX_FILE} places there`, n);
      }
    }
  } else {
    await add(SINGLE_FILE);
  }
  let skipped = 0;
  if (spec.multimodal) {
    // The text model's tensors under its own names; the vision tower's stay unread (they are not planned, fetched or built).
    const text = new Map<string, RawTensor>();
    for (const [name, t] of tensors) {
      const own = textTensorName(name);
      if (own !== null) {
        if (text.has(own)) throw new ModelError(t.file, `holds the text model's ${own} twice (as ${text.get(own)!.name} and ${name})`, name);
        text.set(own, t);
      }
    }
    skipped = tensors.size - text.size;
    tensors.clear();
    for (const [n, t] of text) tensors.set(n, t);
  }
  const awq = awqConfigOf(config);
  const weights = awq ? packAwq(tensors, awq) : tensors;
  const floats = new Map<string, StoredTensor>();
  for (const [n, t] of weights) {
    if (t.dtype === 'I32')
      throw new ModelError(
        t.file,
        `dtype I32 is read only as AWQ's packed weights (qweight, qzeros)${awq ? '' : ': config.json has no quantization_config'}`,
        t.name,
      );
    floats.set(n, t as StoredTensor);
  }
  const dtypes = [...new Set([...tensors.values()].filter((t) => t.dtype !== 'I32').map((t) => t.dtype))].sort();
  // A config without torch_dtype: what depends on the dtype (Gemma's embedding scale) takes the weights' own.
  const stored = floats.get('model.embed_tokens.weight')?.dtype;
  const named = { F32: 'float32', F16: 'float16', BF16: 'bfloat16' } as const;
  const withDtype = config.torch_dtype == null && config.dtype == null && stored ? normalizeConfig(config, named[stored]) : spec;
  if (skipped) withDtype.notes.push(`${skipped.toLocaleString('en-US')} tensors of the vision tower and projector are never read`);
  if (awq) withDtype.notes.push(`AWQ ${awq.bits}-bit weights (groups of ${awq.groupSize}), run as published: not dequantized`);
  return { spec: awq ? { ...withDtype, awq } : withDtype, config, tensors: floats, dtypes, weightFiles, syncReads, source: source.label };
}

import { ModelError } from '../errors';

/** The dtypes we read. Others (I8, F64, …) are reported as unsupported by name. I32 holds packed 4-bit weights (AWQ) only. */
export type SafetensorsDtype = 'F32' | 'F16' | 'BF16' | 'I32';
const BYTES: Record<SafetensorsDtype, number> = { F32: 4, F16: 2, BF16: 2, I32: 4 };

export interface TensorInfo {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  /** Where its bytes are in the file: [start, end), absolute. */
  start: number;
  end: number;
}

/** Headers above this are not weights files; refuse before allocating. */
const MAX_HEADER = 100 * 1024 * 1024;

/**
 * Reads a .safetensors file's header (a few KB, by two ranged reads: the 8-byte little-endian header
 * length, then the JSON `{name: {dtype, shape, data_offsets: [begin, end]}}`). The data is not read.
 * Every size the header claims is checked against the file size, so a truncated or lying file fails
 * here with its name, before any weight is fetched.
 */
export async function readSafetensorsHeader(
  file: string,
  f: { size: number; read(start: number, end: number): Promise<Uint8Array> },
): Promise<Map<string, TensorInfo>> {
  if (f.size < 8) throw new ModelError(file, `file is ${f.size} bytes, too short for a safetensors header`);
  const lenBytes = await f.read(0, 8);
  const headerLen = Number(new DataView(lenBytes.buffer, lenBytes.byteOffset, 8).getBigUint64(0, true));
  if (headerLen > MAX_HEADER || 8 + headerLen > f.size) {
    throw new ModelError(file, `header length ${headerLen} exceeds the file size ${f.size} (truncated or not safetensors)`);
  }
  return parseHeader(file, await f.read(8, 8 + headerLen), f.size);
}

function parseHeader(file: string, headerBytes: Uint8Array, fileSize: number): Map<string, TensorInfo> {
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(headerBytes));
  } catch (e) {
    throw new ModelError(file, `header is not valid JSON (${(e as Error).message})`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new ModelError(file, 'header is not a JSON object of tensors');
  const dataStart = 8 + headerBytes.byteLength;
  const dataBytes = fileSize - dataStart;
  const tensors = new Map<string, TensorInfo>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    if (typeof raw !== 'object' || raw === null) throw new ModelError(file, 'tensor entry is not an object', name);
    const entry = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const dtype = entry.dtype;
    if (dtype !== 'F32' && dtype !== 'F16' && dtype !== 'BF16' && dtype !== 'I32') {
      throw new ModelError(
        file,
        dtype === undefined
          ? 'has no dtype'
          : `dtype ${JSON.stringify(dtype)?.slice(0, 40)} is not supported (F32, F16, BF16 are; I32 for AWQ's packed weights)`,
        name,
      );
    }
    const shape = entry.shape;
    const offsets = entry.data_offsets;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new ModelError(file, 'shape is not a list of non-negative integers', name);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o) && o >= 0)) {
      throw new ModelError(file, 'data_offsets is not [begin, end]', name);
    }
    const [begin, end] = offsets as [number, number];
    const expected = (shape as number[]).reduce((a, b) => a * b, 1) * BYTES[dtype];
    if (end - begin !== expected) {
      throw new ModelError(file, `data_offsets span ${end - begin} bytes but ${dtype}${JSON.stringify(shape)} needs ${expected}`, name);
    }
    if (end > dataBytes) {
      throw new ModelError(file, `data ends at byte ${end} but the file holds ${dataBytes} bytes of data (truncated)`, name);
    }
    tensors.set(name, { name, dtype, shape: shape as number[], start: dataStart + begin, end: dataStart + end });
  }
  return tensors;
}

/** A whole safetensors file already in memory: its tensors with their bytes (tests rewrite checkpoints with it). */
export function parseSafetensors(file: string, data: Uint8Array): Map<string, TensorInfo & { bytes: Uint8Array }> {
  if (data.byteLength < 8) throw new ModelError(file, `file is ${data.byteLength} bytes, too short for a safetensors header`);
  const headerLen = Number(new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(0, true));
  if (headerLen > MAX_HEADER || 8 + headerLen > data.byteLength) {
    throw new ModelError(file, `header length ${headerLen} exceeds the file size ${data.byteLength} (truncated or not safetensors)`);
  }
  const out = new Map<string, TensorInfo & { bytes: Uint8Array }>();
  for (const [name, t] of parseHeader(file, data.subarray(8, 8 + headerLen), data.byteLength)) out.set(name, { ...t, bytes: data.subarray(t.start, t.end) });
  return out;
}

/** Serializes tensors as safetensors (tests write their own checkpoints with it). */
export function writeSafetensors(tensors: { name: string; dtype: SafetensorsDtype; shape: number[]; bytes: Uint8Array }[]): Uint8Array {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const t of tensors) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes.byteLength] };
    offset += t.bytes.byteLength;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8); // keep the data 8-byte aligned, as the reference writer does
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.byteLength + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.byteLength), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.byteLength;
  for (const t of tensors) {
    out.set(t.bytes, at);
    at += t.bytes.byteLength;
  }
  return out;
}

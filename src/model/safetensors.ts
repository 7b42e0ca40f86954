import { ModelError } from './errors';

/** The dtypes we read. Others (I8, F64, …) are reported as unsupported by name. */
export type SafetensorsDtype = 'F32' | 'F16' | 'BF16';
const BYTES: Record<SafetensorsDtype, number> = { F32: 4, F16: 2, BF16: 2 };

export interface TensorInfo {
  name: string;
  dtype: SafetensorsDtype;
  shape: number[];
  /** The tensor's bytes, a view into the file (no copy). */
  bytes: Uint8Array;
}

/** Headers above this are not weights files; refuse before allocating. */
const MAX_HEADER = 100 * 1024 * 1024;

/**
 * Parses a .safetensors file: 8-byte little-endian header length, a JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}}`, then the data. Every size the header claims
 * is checked against the file, so a truncated or lying file fails here with its name, not later as NaN.
 */
export function parseSafetensors(file: string, data: Uint8Array): Map<string, TensorInfo> {
  if (data.byteLength < 8) throw new ModelError(file, `file is ${data.byteLength} bytes, too short for a safetensors header`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const headerLen = Number(view.getBigUint64(0, true));
  if (headerLen > MAX_HEADER || 8 + headerLen > data.byteLength) {
    throw new ModelError(file, `header length ${headerLen} exceeds the file size ${data.byteLength} (truncated or not safetensors)`);
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(data.subarray(8, 8 + headerLen)));
  } catch (e) {
    throw new ModelError(file, `header is not valid JSON (${(e as Error).message})`);
  }
  const body = data.subarray(8 + headerLen);
  const tensors = new Map<string, TensorInfo>();
  for (const [name, raw] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const entry = raw as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    const dtype = entry.dtype;
    if (dtype !== 'F32' && dtype !== 'F16' && dtype !== 'BF16') {
      throw new ModelError(file, `dtype ${String(dtype)} is not supported (F32, F16, BF16 are)`, name);
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
    if (end > body.byteLength) {
      throw new ModelError(file, `data ends at byte ${end} but the file holds ${body.byteLength} bytes of data (truncated)`, name);
    }
    tensors.set(name, { name, dtype, shape: shape as number[], bytes: body.subarray(begin, end) });
  }
  return tensors;
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

import { normalizeConfig } from '../../src/model/config/config';
import { tensorPlan } from '../../src/model/checkpoint/weights';
import type { ModelSource } from '../../src/model/source/source';
import type { VirtualFile } from './hub-server';

/**
 * model.safetensors for a config, made up as it is read: a real header (BF16, the tensor plan's shapes)
 * and zeros for data. A checkpoint of any size costs nothing until its tensors are read, so a test can
 * check that an 8B model is refused before any weight is fetched.
 */
export function virtualCheckpoint(config: Record<string, unknown>): VirtualFile {
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const t of tensorPlan(normalizeConfig(config))) {
    const bytes = t.shape.reduce((a, b) => a * b, 1) * 2;
    header[t.name] = { dtype: 'BF16', shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const head = new Uint8Array(8 + text.length);
  new DataView(head.buffer).setBigUint64(0, BigInt(text.length), true);
  head.set(new TextEncoder().encode(text), 8);
  return {
    size: head.byteLength + offset,
    read(start, end) {
      const out = new Uint8Array(end - start);
      if (start < head.byteLength) out.set(head.subarray(start, Math.min(end, head.byteLength)));
      return out;
    },
  };
}

/** A model folder whose files may be made up as they are read, counting the bytes read. */
export function virtualSource(files: Map<string, Uint8Array | VirtualFile>, label = 'made-up files'): { source: ModelSource; bytesRead: () => number } {
  let read = 0;
  const source: ModelSource = {
    label,
    async open(file) {
      const f = files.get(file);
      if (!f) return null;
      const size = f instanceof Uint8Array ? f.byteLength : f.size;
      return { name: file, size, read: async (a: number, b: number) => ((read += b - a), f instanceof Uint8Array ? f.subarray(a, b) : f.read(a, b)) };
    },
  };
  return { source, bytesRead: () => read };
}

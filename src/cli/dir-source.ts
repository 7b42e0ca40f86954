import { closeSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ModelError } from '../model/errors';
import type { ModelSource, SourceFile } from '../model/source/source';

/** Reads [start, end) of a file on disk: no size limit (Node's readFile refuses files over 2 GiB). */
function readRange(path: string, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  const fd = openSync(path, 'r');
  try {
    let at = 0;
    while (at < out.byteLength) {
      const n = readSync(fd, out, at, Math.min(out.byteLength - at, 1 << 30), start + at);
      if (n === 0) throw new Error(`file ended at byte ${start + at}`);
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/**
 * A model folder on disk (Node only), read by ranges: a tensor is read when it is needed. Links may lead
 * only inside the folder, or inside `linksWithin` (a Hugging Face cache snapshot's links into its blobs).
 */
export function dirSource(dir: string, opts: { linksWithin?: string } = {}): ModelSource {
  return {
    label: dir,
    async open(file) {
      const path = join(dir, file);
      let size: number;
      try {
        const info = statSync(path);
        if (!info.isFile()) throw new ModelError(file, `${path} is not a file`);
        // A link may point anywhere: only files inside the model folder are read.
        const root = realpathSync(dir);
        const real = realpathSync(path);
        const within = opts.linksWithin ? realpathSync(opts.linksWithin) + sep : null;
        if (real !== root && !real.startsWith(root + sep) && !(within && real.startsWith(within)))
          throw new ModelError(file, `is a link to ${real}, outside the model folder: copy the file in instead`);
        size = info.size;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return null;
        if (code === 'ELOOP') throw new ModelError(file, 'is a symbolic link loop');
        if (code === 'EACCES' || code === 'EPERM') throw new ModelError(file, 'cannot be read: permission denied');
        throw e;
      }
      const readSync = (start: number, end: number) => {
        try {
          return readRange(path, start, end);
        } catch (e) {
          throw new ModelError(file, `cannot be read: ${(e as Error).message}`);
        }
      };
      const f: SourceFile = {
        name: file,
        size,
        async read(start, end, onProgress) {
          const bytes = readSync(start, end);
          onProgress?.(bytes.byteLength);
          return bytes;
        },
        readSync,
      };
      return f;
    },
  };
}

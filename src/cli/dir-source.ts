import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelError } from '../model/errors';
import type { ModelSource } from '../model/source';

/** A model folder on disk (Node only). */
export function dirSource(dir: string): ModelSource {
  return {
    label: dir,
    async read(file, onProgress) {
      const path = join(dir, file);
      try {
        const info = await stat(path);
        if (!info.isFile()) throw new ModelError(file, `${path} is not a file`);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      const bytes = new Uint8Array(await readFile(path));
      onProgress?.({ file, loaded: bytes.byteLength, total: bytes.byteLength });
      return bytes;
    },
  };
}

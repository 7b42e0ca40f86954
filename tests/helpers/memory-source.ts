import { fileListSource, type ModelSource } from '../../src/model/source/source';

/** A ModelSource over in-memory files, through the same code path as files dropped in the browser. */
export function memorySource(files: Map<string, Uint8Array>, label = 'test files'): ModelSource {
  return fileListSource(
    [...files].map(([name, bytes]) => ({
      name,
      size: bytes.byteLength,
      slice: (a: number, b: number) => ({ arrayBuffer: async () => bytes.slice(a, b).buffer }),
    })),
    label,
  );
}

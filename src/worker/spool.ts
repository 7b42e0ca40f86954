import type { ModelSource, SourceFile } from '../model/source/source';

/** The parts of the origin private file system's sync access handle (dedicated workers only) used here. */
interface SyncHandle {
  read(buffer: Uint8Array, opts: { at: number }): number;
  write(buffer: Uint8Array, opts: { at: number }): number;
  close(): void;
}
interface Directory {
  getFileHandle(name: string, opts: { create: boolean }): Promise<{ createSyncAccessHandle(): Promise<SyncHandle> }>;
  removeEntry(name: string): Promise<void>;
}

const SPOOL_DIR = 'inertia-lens-spool';

/**
 * Weight files of a source that reads only asynchronously (the Hub), spooled to the origin's private
 * file system as their tensors are prepared, and read back synchronously when onnxruntime copies each
 * in: the page's memory never holds the downloaded weights (Chromium on wasm held every byte until the
 * session was made). `release` deletes the spooled files once the session holds the weights. Where
 * there is no OPFS sync access (outside a worker, an old browser) the source is returned as it is.
 */
export async function spooledSource(source: ModelSource): Promise<{ source: ModelSource; release(): Promise<void> }> {
  const storage = (
    globalThis.navigator as unknown as
      | { storage?: { getDirectory?(): Promise<{ getDirectoryHandle(n: string, o: { create: boolean }): Promise<Directory> }> } }
      | undefined
  )?.storage;
  let dir: Directory | null = null;
  try {
    dir = storage?.getDirectory ? await (await storage.getDirectory()).getDirectoryHandle(SPOOL_DIR, { create: true }) : null;
  } catch {
    dir = null;
  }
  if (!dir) return { source, release: async () => undefined };
  const open: { name: string; handle: SyncHandle }[] = [];
  const spooled: ModelSource = {
    label: source.label,
    ...(source.sizes && { sizes: () => source.sizes!() }),
    async open(file) {
      const f = await source.open(file);
      if (!f || f.readSync || !file.endsWith('.safetensors')) return f;
      let handle: SyncHandle;
      const name = `${Date.now().toString(36)}-${open.length}-${file.replace(/[^\w.-]/g, '_')}`;
      try {
        handle = await (await dir!.getFileHandle(name, { create: true })).createSyncAccessHandle();
      } catch {
        return f; // no sync access here (not a dedicated worker): bytes are held as before
      }
      open.push({ name, handle });
      const wrapped: SourceFile = {
        name: f.name,
        size: f.size,
        read: (start, end, onProgress) => f.read(start, end, onProgress),
        async spool(start, end, onProgress) {
          const bytes = await f.read(start, end, onProgress);
          handle.write(bytes, { at: start });
        },
        readSync(start, end) {
          const out = new Uint8Array(end - start);
          const n = handle.read(out, { at: start });
          if (n !== out.byteLength) throw new Error(`${file}: the spooled copy returned ${n} of ${out.byteLength} bytes at ${start}`);
          return out;
        },
      };
      return wrapped;
    },
  };
  return {
    source: spooled,
    async release() {
      for (const { name, handle } of open.splice(0)) {
        handle.close();
        await dir!.removeEntry(name).catch(() => undefined);
      }
    },
  };
}

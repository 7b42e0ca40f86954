import type { ExternalFile } from '../model/graph/onnx-builder';

/**
 * onnxruntime-web copies an external-data file into the wasm heap (or uploads it to the GPU) when the
 * session reads that initializer: its reader looks the mounted file up, checks `byteLength`, and copies
 * `subarray(offset, offset + length)`; `loadFile` passes a Uint8Array through untouched (onnxruntime-web
 * 1.30, lib/wasm/wasm-utils-load-file.ts and the EM_ASM reader in ort-wasm-*.mjs). Mounted as this view,
 * a tensor is produced (read, widened) at that moment, so one tensor's copy exists at a time instead of
 * every tensor's at once. The parity tests run every session through this path: a change in how
 * onnxruntime reads mounted files fails them.
 */
class DeferredBytes extends Uint8Array {
  readonly #size: number;
  readonly #produce: () => Uint8Array;
  constructor(size: number, produce: () => Uint8Array) {
    super(0);
    this.#size = size;
    this.#produce = produce;
  }
  override get byteLength(): number {
    return this.#size;
  }
  override subarray(start?: number, end?: number): Uint8Array<ArrayBuffer> {
    const bytes = this.#produce();
    if (bytes.byteLength !== this.#size) throw new Error(`external data produced ${bytes.byteLength} bytes, not ${this.#size}`);
    return bytes.subarray(start, end) as Uint8Array<ArrayBuffer>;
  }
}

/** The first error a producer threw: onnxruntime reports it only as "Unknown error occurred in memory copy". */
export class ProducerFailure {
  error: Error | null = null;
  wrap(produce: () => Uint8Array): () => Uint8Array {
    return () => {
      try {
        return produce();
      } catch (e) {
        this.error ??= e as Error;
        throw e;
      }
    };
  }
}

/**
 * The graph's external files, ready to mount: every asynchronous read done first (downloads, Blob
 * reads), the bytes themselves produced when onnxruntime copies each one in. Widened tensors are
 * written into a scratch buffer reused while the tensors that follow are of its size (the layers'
 * matrices come in same-sized runs): onnxruntime copies each before it asks for the next, so few
 * widened copies are left for the garbage collector, and the scratch never outlives its size class
 * (a scratch kept the size of the largest tensor would add that tensor to the load's peak).
 */
export async function deferredExternalData(files: ExternalFile[], failure = new ProducerFailure()): Promise<{ path: string; data: Uint8Array }[]> {
  let scratch: Uint8Array | null = null;
  const scratchFor = (n: number) => {
    if (!scratch || scratch.byteLength < n || scratch.byteLength > 2 * n) scratch = new Uint8Array(n);
    return scratch;
  };
  const out: { path: string; data: Uint8Array }[] = [];
  for (const f of files) {
    const produce = await f.data.prepare();
    const n = f.data.byteLength;
    out.push({
      path: f.path,
      data: new DeferredBytes(
        n,
        failure.wrap(() => (f.data.transformed ? produce(scratchFor(n)) : produce())),
      ),
    });
  }
  return out;
}

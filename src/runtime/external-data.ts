import type { ExternalFile } from '../model/onnx-builder';

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

/**
 * The graph's external files, ready to mount: every asynchronous read done first (downloads, Blob
 * reads), the bytes themselves produced when onnxruntime copies each one in. Widened tensors are all
 * written into one scratch buffer the size of the largest: onnxruntime copies each before it asks for
 * the next, so a load leaves no widened copies behind for the garbage collector.
 */
export async function deferredExternalData(files: ExternalFile[]): Promise<{ path: string; data: Uint8Array }[]> {
  const largest = Math.max(0, ...files.filter((f) => f.data.transformed).map((f) => f.data.byteLength));
  let scratch: Uint8Array | null = null;
  const out: { path: string; data: Uint8Array }[] = [];
  for (const f of files) {
    const produce = await f.data.prepare();
    const useScratch = f.data.transformed === true;
    out.push({ path: f.path, data: new DeferredBytes(f.data.byteLength, () => (useScratch ? produce((scratch ??= new Uint8Array(largest))) : produce())) });
  }
  return out;
}

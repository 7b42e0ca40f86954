import type { SourceFile } from '../source/source';

/**
 * The bytes of one tensor, read when the runtime asks for them: a checkpoint never holds its weights,
 * so a model is never in memory twice (file + widened copy) and no file size limit applies.
 */
export interface TensorBytes {
  readonly byteLength: number;
  /** Producing it writes new bytes (widened, narrowed): a scratch buffer can take them (Produce). */
  readonly transformed?: boolean;
  /**
   * Does the asynchronous part of the read (a download, a Blob read) and returns a synchronous producer
   * of the bytes. A source that reads synchronously (a file on disk) holds nothing until it is called,
   * and a widened copy exists only while the producer's result is in use.
   */
  prepare(): Promise<Produce>;
  /**
   * Bytes [start, end) of the tensor, read now, once `prepare` has resolved; only where the source reads
   * synchronously (a file on disk, a spooled download). A transform that works a few rows at a time
   * (quantization) reads through it, so no copy of the whole tensor is made.
   */
  readonly readSync?: (start: number, end: number) => Uint8Array;
}

/**
 * Makes a tensor's bytes. A transformed tensor (widened, narrowed) writes into `into` when it is given
 * and large enough: the runtime hands one scratch buffer to every tensor in turn, since onnxruntime
 * copies each as soon as it is made, so no widened copy is left behind for the garbage collector.
 */
export type Produce = (into?: Uint8Array) => Uint8Array;

export async function readBytes(t: TensorBytes): Promise<Uint8Array> {
  return (await t.prepare())();
}

/** Bytes [start, end) of a model file. `onRead` counts the bytes actually fetched (for progress). */
export function fileRange(f: SourceFile, start: number, end: number, onRead?: (bytes: number) => void): TensorBytes {
  const sync = f.readSync?.bind(f);
  return {
    byteLength: end - start,
    // A spooled download was counted as it arrived; a file on disk is counted as it is read.
    ...(sync && {
      readSync: (a: number, b: number) => {
        const bytes = sync(start + a, start + b);
        if (!f.spool) onRead?.(bytes.byteLength);
        return bytes;
      },
    }),
    async prepare() {
      if (f.spool && f.readSync) {
        // A download spooled to disk now (that is the progress), read from there when onnxruntime asks.
        await f.spool(start, end);
        onRead?.(end - start);
        const readSync = f.readSync.bind(f);
        return () => readSync(start, end);
      }
      if (f.readSync) {
        const readSync = f.readSync.bind(f);
        return () => {
          const bytes = readSync(start, end);
          onRead?.(bytes.byteLength);
          return bytes;
        };
      }
      // Held until the session is made: onnxruntime may read an initializer more than once (its
      // constant folding loads some before the session does).
      const bytes = await f.read(start, end);
      onRead?.(bytes.byteLength);
      return () => bytes;
    },
  };
}

/** `src` transformed (widened, narrowed) when it is produced, one tensor at a time, into a given buffer when there is one. */
export function mapBytes(src: TensorBytes, byteLength: number, fn: (raw: Uint8Array, into: Uint8Array) => void): TensorBytes {
  return {
    transformed: true,
    byteLength,
    async prepare() {
      const produce = await src.prepare();
      return (into) => {
        const out = into && into.byteLength >= byteLength ? into.subarray(0, byteLength) : new Uint8Array(byteLength);
        fn(produce(), out);
        return out;
      };
    },
  };
}

/** Bytes already in memory (tests, small constants). */
export function bytesOf(bytes: Uint8Array): TensorBytes {
  return { byteLength: bytes.byteLength, prepare: async () => () => bytes };
}

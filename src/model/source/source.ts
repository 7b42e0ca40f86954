import { ModelError } from '../errors';

export interface ReadProgress {
  file: string;
  loaded: number;
  /** Total bytes when known (Content-Length, File.size, the tensors' sizes). */
  total: number | null;
}

/**
 * One file of a model, opened for ranged reads: weights are read a tensor at a time, never whole, so
 * no file size limit applies and no file is held in memory twice.
 */
export interface SourceFile {
  readonly name: string;
  readonly size: number;
  /** Bytes [start, end). */
  read(start: number, end: number, onProgress?: (loaded: number) => void): Promise<Uint8Array>;
  /** The same, synchronously, where the source can (a file on disk): the runtime then reads a tensor only when onnxruntime copies it in. */
  readSync?(start: number, end: number): Uint8Array;
  /**
   * Makes [start, end) readable by readSync, where a download must land somewhere first (the model
   * worker writes it to the origin's private file system): its bytes are then on disk, not in memory.
   */
  spool?(start: number, end: number, onProgress?: (loaded: number) => void): Promise<void>;
}

/**
 * Where a model's files come from: a folder on disk (Node, see cli/dir-source.ts), files a person
 * dropped or picked, a base URL, or the Hub. One interface, so loading is one code path.
 */
export interface ModelSource {
  /** Shown in messages: the folder, the URL, "dropped files". */
  readonly label: string;
  /** The file opened for ranged reads, or null when the source has no such file. */
  open(file: string): Promise<SourceFile | null>;
  /** Sizes of the source's files when it can list them before reading (the Hub's metadata), for the memory plan. */
  sizes?(): Promise<Map<string, number>>;
}

/** A whole small file (JSON, a template), or null when the source has none. */
export async function readWhole(source: ModelSource, file: string, onProgress?: (p: ReadProgress) => void): Promise<Uint8Array | null> {
  const f = await source.open(file);
  if (!f) return null;
  let last = -1;
  const bytes = await f.read(0, f.size, (loaded) => onProgress?.({ file, loaded: (last = loaded), total: f.size }));
  if (last !== bytes.byteLength) onProgress?.({ file, loaded: bytes.byteLength, total: f.size });
  return bytes;
}

/** Reads a required small file or throws naming it and the source. */
export async function readRequired(source: ModelSource, file: string, onProgress?: (p: ReadProgress) => void): Promise<Uint8Array> {
  const bytes = await readWhole(source, file, onProgress);
  if (!bytes) throw new ModelError(file, `is missing from ${source.label}`);
  return bytes;
}

interface BlobLike {
  name: string;
  size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** Files a person dropped or picked in the browser (or any Blob-like), matched by base name; read by Blob.slice. */
export function fileListSource(files: Iterable<BlobLike>, label = 'dropped files'): ModelSource {
  const Reader = (globalThis as { FileReaderSync?: new () => { readAsArrayBuffer(b: Blob): ArrayBuffer } }).FileReaderSync;
  const syncReader = Reader ? new Reader() : null;
  const byName = new Map<string, BlobLike>();
  // Files are found by name: two of one name (two checkpoints dropped together) are refused, not one picked silently.
  const paths = new Map<string, string[]>();
  for (const f of files) {
    const base = f.name.split('/').pop()!;
    byName.set(base, f);
    paths.set(base, [...(paths.get(base) ?? []), f.name]);
  }
  return {
    label,
    async open(file) {
      const f = byName.get(file);
      if (!f) return null;
      const same = paths.get(file)!;
      if (same.length > 1)
        throw new ModelError(file, `${same.length} of the files given are named ${file} (${same.slice(0, 3).join(', ')}): give one model's folder at a time`);
      return {
        name: file,
        size: f.size,
        async read(start, end, onProgress) {
          const bytes = new Uint8Array(await f.slice(start, end).arrayBuffer());
          onProgress?.(bytes.byteLength);
          return bytes;
        },
        // In a worker a File reads synchronously: weights are then read as onnxruntime copies them, never held.
        ...(syncReader && { readSync: (start: number, end: number) => new Uint8Array(syncReader.readAsArrayBuffer(f.slice(start, end) as Blob)) }),
      };
    },
    async sizes() {
      return new Map([...byName].map(([name, f]) => [name, f.size]));
    },
  };
}

/**
 * A plain folder URL (`{base}/{file}`) whose files are known in advance, e.g. the embedded demo model
 * served by the app: files outside the list are absent without a request (a dev server's HTML fallback
 * cannot pose as a missing file). Each file is fetched whole once, then served from memory.
 */
export function folderUrlSource(base: string, files: readonly string[], label = base, fetchImpl: typeof fetch = fetch): ModelSource {
  const root = base.replace(/\/+$/, '');
  return {
    label,
    async open(file) {
      if (!files.includes(file)) return null;
      return wholeFile(file, await fetchWhole(`${root}/${file}`, file, fetchImpl));
    },
  };
}

/** A file already in memory, served by ranges. */
export function wholeFile(name: string, bytes: Uint8Array): SourceFile {
  return {
    name,
    size: bytes.byteLength,
    async read(start, end, onProgress) {
      onProgress?.(end - start);
      return bytes.subarray(start, end);
    },
    readSync: (start, end) => bytes.subarray(start, end),
  };
}

/** Fetches one file whole; errors name the file and the URL. */
export async function fetchWhole(url: string, file: string, fetchImpl: typeof fetch): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw new ModelError(file, `could not fetch ${url} (${(e as Error).message})`);
  }
  if (!res.ok) throw new ModelError(file, `fetching ${url} failed: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Parses a JSON file, reporting line:column of a syntax error. */
export function parseJsonFile(file: string, bytes: Uint8Array): Record<string, unknown> {
  const text = new TextDecoder().decode(bytes);
  try {
    const value = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ModelError(file, 'must hold a JSON object');
    return value as Record<string, unknown>;
  } catch (e) {
    if (e instanceof ModelError) throw e;
    const msg = (e as Error).message;
    const pos = /position (\d+)/.exec(msg);
    if (pos) {
      const before = text.slice(0, Number(pos[1]));
      const line = before.split('\n').length;
      const col = Number(pos[1]) - before.lastIndexOf('\n');
      throw new ModelError(file, `invalid JSON at line ${line}, column ${col}`);
    }
    throw new ModelError(file, `invalid JSON (${msg})`);
  }
}

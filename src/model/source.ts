import { ModelError } from './errors';

export interface ReadProgress {
  file: string;
  loaded: number;
  /** Total bytes when known (Content-Length, File.size). */
  total: number | null;
}

/**
 * Where a model's files come from: a folder on disk (Node, see cli/dir-source.ts), files a person
 * dropped or picked, or a base URL laid out like the Hub. One interface, so loading is one code path.
 */
export interface ModelSource {
  /** Shown in messages: the folder, the URL, "dropped files". */
  readonly label: string;
  /** The file's bytes, or null when the source has no such file. */
  read(file: string, onProgress?: (p: ReadProgress) => void): Promise<Uint8Array | null>;
}

/** Files a person dropped or picked in the browser (or any Blob-like), matched by base name. */
export function fileListSource(files: Iterable<{ name: string; arrayBuffer(): Promise<ArrayBuffer>; size: number }>, label = 'dropped files'): ModelSource {
  const byName = new Map<string, { name: string; arrayBuffer(): Promise<ArrayBuffer>; size: number }>();
  for (const f of files) byName.set(f.name.split('/').pop()!, f);
  return {
    label,
    async read(file, onProgress) {
      const f = byName.get(file);
      if (!f) return null;
      const bytes = new Uint8Array(await f.arrayBuffer());
      onProgress?.({ file, loaded: bytes.byteLength, total: f.size });
      return bytes;
    },
  };
}

/**
 * A Hub-style URL: `{base}/{repo}/resolve/{revision}/{file}`. With base "https://huggingface.co" a
 * Hub id works when there is network; tests point base at a local server.
 */
export function urlSource(base: string, repo: string, revision = 'main', fetchImpl: typeof fetch = fetch): ModelSource {
  const root = `${base.replace(/\/+$/, '')}/${repo}/resolve/${revision}`;
  return { label: root, read: (file, onProgress) => fetchFile(`${root}/${file}`, file, fetchImpl, onProgress) };
}

/** Fetches one file, streaming progress; null on 404; errors name the file and the URL. */
async function fetchFile(url: string, file: string, fetchImpl: typeof fetch, onProgress?: (p: ReadProgress) => void): Promise<Uint8Array | null> {
  let res: Response;
  try {
    res = await fetchImpl(url);
  } catch (e) {
    throw new ModelError(file, `could not fetch ${url} (${(e as Error).message})`);
  }
  if (res.status === 404) return null;
  if (!res.ok) throw new ModelError(file, `fetching ${url} failed: HTTP ${res.status}`);
  const lenHeader = res.headers.get('content-length');
  const total = lenHeader ? Number(lenHeader) : null;
  if (!res.body) {
    const bytes = new Uint8Array(await res.arrayBuffer());
    onProgress?.({ file, loaded: bytes.byteLength, total });
    return bytes;
  }
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.({ file, loaded, total });
  }
  if (total !== null && loaded !== total) throw new ModelError(file, `download ended after ${loaded} of ${total} bytes`);
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * A plain folder URL (`{base}/{file}`) whose files are known in advance, e.g. the embedded demo model
 * served by the app: files outside the list are absent without a request (a dev server's HTML fallback
 * cannot pose as a missing file).
 */
export function folderUrlSource(base: string, files: readonly string[], label = base, fetchImpl: typeof fetch = fetch): ModelSource {
  const root = base.replace(/\/+$/, '');
  return {
    label,
    read: (file, onProgress) => (files.includes(file) ? fetchFile(`${root}/${file}`, file, fetchImpl, onProgress) : Promise.resolve(null)),
  };
}

/** Reads a required file or throws naming it and the source. */
export async function readRequired(source: ModelSource, file: string, onProgress?: (p: ReadProgress) => void): Promise<Uint8Array> {
  const bytes = await source.read(file, onProgress);
  if (!bytes) throw new ModelError(file, `is missing from ${source.label}`);
  return bytes;
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

import { downloadFile, listFiles, modelInfo } from '@huggingface/hub';
import { ModelError } from '../errors';
import type { ModelSource, SourceFile } from './source';

export const HUB_URL = 'https://huggingface.co';

/** A model on the Hub (or on a server laid out like it), as a person names it. */
export interface HubRef {
  repo: string;
  /** A branch, a tag or a commit. */
  revision: string;
  /** null: huggingface.co. */
  hubUrl: string | null;
}

/** What the Hub says about a repo before any file is read: its commit, whether it is gated, its files' sizes. */
export interface HubRepo {
  ref: HubRef;
  /** The revision resolved to a 40-hex commit: every read uses it, so a load is one consistent snapshot. */
  commit: string;
  gated: false | 'auto' | 'manual';
  sizes: Map<string, number>;
  /** The Hub could not be reached: this is the answer kept from an earlier visit. */
  offline: boolean;
}

/** Bytes kept between visits, keyed by what never changes: the commit, the file and the range. */
export interface RangeCache {
  get(key: string): Promise<Uint8Array | null>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

export interface HubOptions {
  /** A Hub access token (hf_…), for gated and private repos. Never part of a link. */
  accessToken?: string;
  fetch?: typeof fetch;
  cache?: RangeCache;
}

/** Why the Hub refused: told apart so the message can say what to do. */
export type HubRefusal = 'gated' | 'not-granted' | 'not-found' | 'revision' | 'token' | 'http';

export class HubError extends Error {
  override name = 'HubError';
  constructor(
    readonly refusal: HubRefusal,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** A repo id is owner/name: letters, digits, '-', '_', '.'; no path segments, no query. */
export function checkRepoId(repo: string): string | null {
  if (!/^[\w.-]{1,96}\/[\w.-]{1,96}$/.test(repo) || repo.split('/').some((p) => p === '.' || p === '..')) {
    return `"${repo.slice(0, 100)}" is not a Hub model id (owner/name, e.g. HuggingFaceTB/SmolLM2-135M-Instruct)`;
  }
  return null;
}

/** A revision is a branch, tag or commit name: no '..', no query or fragment, no leading '/'. */
export function checkRevision(rev: string): string | null {
  if (!/^[\w.\-/]{1,128}$/.test(rev) || rev.split('/').some((p) => p === '' || p === '.' || p === '..')) {
    return `"${rev.slice(0, 100)}" is not a branch, tag or commit name`;
  }
  return null;
}

const hubBase = (ref: HubRef) => (ref.hubUrl ?? HUB_URL).replace(/\/+$/, '');

/**
 * A fetch that turns the Hub's refusals into HubErrors while their headers are still visible
 * (@huggingface/hub keeps only the status): gated (401 without a token, 403 with one not granted yet),
 * not found or private (401 without a token; 404 RepoNotFound with one), no such revision, token rejected.
 * A missing file (404 EntryNotFound) passes through: the library turns it into null.
 */
function classifyingFetch(ref: HubRef, base: typeof fetch, hasToken: boolean): typeof fetch {
  const page = `${hubBase(ref)}/${ref.repo}`;
  return async (input, init) => {
    let res: Response;
    try {
      res = await base(input, init);
    } catch (e) {
      throw new HubError('http', `could not reach ${hubBase(ref)} (${(e as Error).message})`, 0);
    }
    const code = res.headers.get('x-error-code');
    if (res.ok || (res.status === 404 && code === 'EntryNotFound')) return res;
    const said = res.headers.get('x-error-message') ?? '';
    if (code === 'GatedRepo') {
      if (res.status === 403)
        throw new HubError(
          'not-granted',
          `${ref.repo} is gated and this token has not been granted access: ask for access on ${page} (approval can take a while), then load again`,
          403,
        );
      throw new HubError(
        'gated',
        `${ref.repo} is gated: accept its licence on ${page}, then give an access token (huggingface.co → Settings → Access Tokens, "read")`,
        res.status,
      );
    }
    if (code === 'RevisionNotFound') throw new HubError('revision', `${ref.repo} has no branch, tag or commit "${ref.revision}"`, res.status);
    if (/invalid credentials/i.test(said)) throw new HubError('token', 'the Hub rejected the access token: check it (it starts with hf_)', res.status);
    if (code === 'RepoNotFound' || res.status === 401 || res.status === 404) {
      throw new HubError(
        'not-found',
        hasToken
          ? `no model "${ref.repo}" that this token can see: check the id (owner/name)`
          : `no model "${ref.repo}" on ${hubBase(ref)}, or it is private: check the id (owner/name), or give an access token if it is private`,
        res.status,
      );
    }
    throw new HubError('http', `${hubBase(ref)} answered HTTP ${res.status}${said ? `: ${said}` : ''}`, res.status);
  };
}

/**
 * Resolves the revision to a commit and lists the files with their sizes: two small requests, no file
 * read. With a cache, the answer is kept, and used when the Hub cannot be reached (offline), saying so.
 */
export async function resolveHubRepo(ref: HubRef, opts: HubOptions = {}): Promise<HubRepo> {
  const bad = checkRepoId(ref.repo) ?? checkRevision(ref.revision);
  if (bad) throw new HubError('not-found', bad, 0);
  if (opts.accessToken !== undefined && !opts.accessToken.startsWith('hf_')) throw new HubError('token', 'a Hub access token starts with hf_', 0);
  const key = `${hubBase(ref)}/api/models/${ref.repo}/revision/${encodeURIComponent(ref.revision)}#resolved`;
  const common = {
    hubUrl: hubBase(ref),
    fetch: classifyingFetch(ref, opts.fetch ?? ((i, init) => fetch(i, init)), !!opts.accessToken),
    ...(opts.accessToken && { accessToken: opts.accessToken }),
  };
  try {
    const info = await modelInfo({ ...common, name: ref.repo, revision: ref.revision, additionalFields: ['sha'] });
    if (typeof info.sha !== 'string' || !/^[0-9a-f]{40}$/.test(info.sha))
      throw new HubError('http', `${hubBase(ref)} gave no commit for ${ref.repo}@${ref.revision}`, 200);
    const sizes = new Map<string, number>();
    for await (const f of listFiles({ ...common, repo: ref.repo, revision: info.sha, recursive: true })) {
      if (f.type === 'file') sizes.set(f.path, f.lfs?.size ?? f.size);
    }
    const repo: HubRepo = { ref, commit: info.sha, gated: (info.gated as HubRepo['gated']) ?? false, sizes, offline: false };
    const saved = JSON.stringify({ commit: repo.commit, gated: repo.gated, sizes: [...sizes] });
    await opts.cache?.put(key, new TextEncoder().encode(saved)).catch(() => undefined);
    return repo;
  } catch (e) {
    const kept = e instanceof HubError && e.refusal === 'http' && e.status === 0 ? await opts.cache?.get(key).catch(() => null) : null;
    if (!kept) throw e;
    const j = JSON.parse(new TextDecoder().decode(kept)) as { commit: string; gated: HubRepo['gated']; sizes: [string, number][] };
    return { ref, commit: j.commit, gated: j.gated, sizes: new Map(j.sizes), offline: true };
  }
}

/**
 * The repo's files at its resolved commit, read by HTTP ranges through @huggingface/hub (no Xet): a
 * safetensors file costs its header until a tensor is read. Files the listing lacks are absent without
 * a request. With a cache, each range read is kept under its commit, so a second visit reads nothing.
 */
export function hubSource(repo: HubRepo, opts: HubOptions = {}): ModelSource {
  const { ref, commit } = repo;
  const hubUrl = hubBase(ref);
  const fetchImpl = classifyingFetch(ref, opts.fetch ?? ((i, init) => fetch(i, init)), !!opts.accessToken);
  const label = `${hubUrl}/${ref.repo}@${commit.slice(0, 10)}${ref.revision !== commit ? ` (${ref.revision})` : ''}${repo.offline ? ", offline: from this browser's cache" : ''}`;
  return {
    label,
    async sizes() {
      return repo.sizes;
    },
    async open(file) {
      const size = repo.sizes.get(file);
      if (size === undefined) return null;
      const key = (start: number, end: number) => `${hubUrl}/${ref.repo}/resolve/${commit}/${file}#${start}-${end}`;
      const blob = async () => {
        let b: Blob | null;
        try {
          b = await downloadFile({
            repo: ref.repo,
            path: file,
            revision: commit,
            hubUrl,
            fetch: fetchImpl,
            xet: false,
            ...(opts.accessToken && { accessToken: opts.accessToken }),
          });
        } catch (e) {
          // The library's own format errors ("Expected ETag") carry no file name.
          throw e instanceof HubError || e instanceof ModelError ? e : new ModelError(file, `could not be opened on ${label}: ${(e as Error).message}`);
        }
        if (!b) throw new ModelError(file, `is listed by ${label} but could not be read (HTTP 404)`);
        return b;
      };
      let opened: Promise<Blob> | null = null;
      const f: SourceFile = {
        name: file,
        size,
        async read(start, end, onProgress) {
          const cached = await opts.cache?.get(key(start, end)).catch(() => null);
          if (cached && cached.byteLength === end - start) {
            onProgress?.(cached.byteLength);
            return cached;
          }
          // A failed open is not kept: the next read tries again.
          opened ??= blob().catch((e: unknown) => {
            opened = null;
            throw e;
          });
          const bytes = await readRange(file, await opened, start, end, onProgress);
          if (bytes.byteLength !== end - start)
            throw new ModelError(file, `download of bytes ${start}–${end} ended after ${bytes.byteLength} of ${end - start} bytes`);
          await opts.cache?.put(key(start, end), bytes).catch(() => undefined);
          return bytes;
        },
      };
      return f;
    },
  };
}

/** One range of a lazy Hub blob, streamed for progress into one buffer (no chunk list, no second copy). */
async function readRange(file: string, blob: Blob, start: number, end: number, onProgress?: (loaded: number) => void): Promise<Uint8Array> {
  const part = blob.slice(start, end);
  if (!onProgress) return new Uint8Array(await part.arrayBuffer());
  const out = new Uint8Array(end - start);
  let loaded = 0;
  const reader = part.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (loaded + value.byteLength > out.byteLength)
        throw new ModelError(file, `the server sent more than the ${out.byteLength} bytes asked for (it does not answer range requests)`);
      out.set(value, loaded);
      loaded += value.byteLength;
      onProgress(loaded);
    }
  } catch (e) {
    // The library's stream() rejects with the error's message, a string: give it back its form.
    throw e instanceof Error ? e : new ModelError(file, String(e));
  }
  return out.subarray(0, loaded);
}

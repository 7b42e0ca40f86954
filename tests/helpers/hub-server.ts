import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** A file the test Hub makes up as it is read: a checkpoint larger than this machine's memory costs nothing until read. */
export interface VirtualFile {
  size: number;
  read(start: number, end: number): Uint8Array;
}

/** A folder's files served from disk by ranges (a checkpoint can pass 2 GiB, more than one Node buffer holds); close() when done. */
export function diskRepo(dir: string): { files: Map<string, VirtualFile>; close(): void } {
  const fds: number[] = [];
  const files = new Map<string, VirtualFile>(
    readdirSync(dir).map((f) => {
      const fd = openSync(`${dir}/${f}`, 'r');
      fds.push(fd);
      return [
        f,
        {
          size: fstatSync(fd).size,
          read: (start: number, end: number) => {
            const out = new Uint8Array(end - start);
            readSync(fd, out, 0, out.length, start);
            return out;
          },
        },
      ];
    }),
  );
  return { files, close: () => fds.forEach((fd) => closeSync(fd)) };
}

/** A repo on the test Hub: its files, and optionally gated behind a token. */
export interface TestRepo {
  files: Map<string, Uint8Array | VirtualFile>;
  gated?: 'auto' | 'manual';
  /** The token that has access to a gated repo. */
  token?: string;
  /** Branches and tags → commit (default: main → a commit derived from the repo name). */
  refs?: Record<string, string>;
}

const EXPOSE =
  'X-Repo-Commit,X-Request-Id,X-Error-Code,X-Error-Message,X-Total-Count,ETag,Link,Accept-Ranges,Content-Range,X-Linked-Size,X-Linked-ETag,X-Xet-Hash';
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE };
const sizeOf = (b: Uint8Array | VirtualFile) => (b instanceof Uint8Array ? b.byteLength : b.size);
const slice = (b: Uint8Array | VirtualFile, s: number, e: number) => (b instanceof Uint8Array ? b.subarray(s, e) : b.read(s, e));
/** Hashes are computed once per file: a ranged read of a large checkpoint must not hash it again. */
const hashes = new WeakMap<object, { sha256: string; oid: string }>();
function hashOf(b: Uint8Array | VirtualFile): { sha256: string; oid: string } {
  let h = hashes.get(b);
  if (!h) {
    const data = b instanceof Uint8Array ? b : new TextEncoder().encode(`virtual ${b.size}`);
    h = { sha256: createHash('sha256').update(data).digest('hex'), oid: createHash('sha1').update(`blob ${data.byteLength}\0`).update(data).digest('hex') };
    hashes.set(b, h);
  }
  return h;
}
const sha256 = (b: Uint8Array | VirtualFile) => hashOf(b).sha256;
const gitOid = (b: Uint8Array | VirtualFile) => hashOf(b).oid;
export const commitOf = (repo: string, rev = 'main') => createHash('sha1').update(`${repo}@${rev}`).digest('hex');

export interface HubOptions {
  /** Compress whole-file answers (range answers never are, as on the Hub). */
  gzip?: boolean;
  /** Tree entries per page (the Link header names the next page). */
  pageSize?: number;
  /** Refuse every request at the socket, as a network that is down. */
  offline?: boolean;
}

/**
 * Answers as the Hub does, for the endpoints @huggingface/hub uses: model info (the revision's commit,
 * gated), the file tree with sizes, and ranged reads of /resolve/ with the Hub's error codes
 * (EntryNotFound, RepoNotFound, RevisionNotFound, GatedRepo) in headers a browser may read. `repos` is
 * read on every request, so a test can add or remove repos; `base()` is the URL the server is reached at.
 */
export function hubHandler(
  repos: Record<string, Map<string, Uint8Array | VirtualFile> | TestRepo>,
  base: () => string,
  opts: HubOptions = {},
  requests: string[] = [],
  served = { bytes: 0 },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    requests.push(req.url ?? '');
    if (opts.offline) return void req.socket.destroy();
    const all = new Map(Object.entries(repos).map(([id, r]) => [id, r instanceof Map ? { files: r } : r] as const));
    const url = new URL(req.url ?? '/', 'http://x');
    const auth = req.headers.authorization ?? null;
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          ...CORS,
          'access-control-allow-methods': 'GET, HEAD, OPTIONS',
          'access-control-allow-headers': 'Authorization, Range, Accept, Content-Type',
          'access-control-max-age': '86400',
        })
        .end();
      return;
    }
    const err = (status: number, code: string | null, message: string, json: boolean) => {
      const h = { ...CORS, 'x-error-message': message, ...(code && { 'x-error-code': code }) };
      res
        .writeHead(status, { ...h, 'content-type': json ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8' })
        .end(json ? JSON.stringify({ error: message }) : message);
    };
    const access = (id: string, api: boolean): TestRepo | null => {
      const repo = all.get(id);
      if (!repo) {
        if (auth) err(404, 'RepoNotFound', 'Repository not found', api);
        else err(401, null, 'Invalid username or password.', api);
        return null;
      }
      if (repo.gated && !api) {
        if (!auth)
          return (
            err(401, 'GatedRepo', `Access to model ${id} is restricted. You must have access to it and be authenticated to access it. Please log in.`, false),
            null
          );
        if (auth !== `Bearer ${repo.token}`)
          return (
            err(
              403,
              'GatedRepo',
              `Access to model ${id} is restricted and you are not in the authorized list. Visit ${base()}/${id} to ask for access.`,
              false,
            ),
            null
          );
      }
      return repo;
    };
    const commit = (id: string, repo: TestRepo, rev: string) =>
      /^[0-9a-f]{40}$/.test(rev) ? rev : (repo.refs ?? { main: commitOf(id) })[rev === 'HEAD' ? 'main' : rev];
    let m: RegExpExecArray | null;
    if ((m = /^\/api\/models\/([^/]+\/[^/]+)\/revision\/([^/?]+)$/.exec(url.pathname))) {
      const id = m[1]!;
      const rev = decodeURIComponent(m[2]!);
      const repo = access(id, true);
      if (!repo) return;
      const sha = commit(id, repo, rev);
      if (!sha) return err(404, 'RevisionNotFound', `Invalid rev id: ${rev}`, true);
      res.writeHead(200, { ...CORS, 'content-type': 'application/json; charset=utf-8' }).end(
        JSON.stringify({
          _id: '0123456789abcdef01234567',
          id,
          private: false,
          gated: repo.gated ?? false,
          downloads: 0,
          likes: 0,
          lastModified: '2026-01-01T00:00:00.000Z',
          sha,
        }),
      );
      return;
    }
    if ((m = /^\/api\/models\/([^/]+\/[^/]+)\/tree\/([^/]+)(?:\/(.*))?$/.exec(url.pathname))) {
      const id = m[1]!;
      const repo = access(id, true);
      if (!repo) return;
      if (!commit(id, repo, decodeURIComponent(m[2]!))) return err(404, 'RevisionNotFound', `Invalid rev id: ${m[2]}`, true);
      const entries = [...repo.files].map(([path, bytes]) => ({
        type: 'file',
        oid: gitOid(bytes),
        size: sizeOf(bytes),
        path,
        ...(path.endsWith('.safetensors') && { lfs: { oid: sha256(bytes), size: sizeOf(bytes), pointerSize: 134 } }),
      }));
      const size = opts.pageSize ?? 1000;
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const h: Record<string, string> = { ...CORS, 'content-type': 'application/json; charset=utf-8' };
      if (start + size < entries.length) {
        const next = new URL(`${base()}${req.url ?? '/'}`);
        next.searchParams.set('cursor', String(start + size));
        h.link = `<${next.href}>; rel="next"`; // absolute, as the library's Link parser requires
      }
      res.writeHead(200, h).end(JSON.stringify(entries.slice(start, start + size)));
      return;
    }
    if ((m = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname))) {
      const id = m[1]!;
      const path = decodeURIComponent(m[3]!);
      const repo = access(id, false);
      if (!repo) return;
      const sha = commit(id, repo, decodeURIComponent(m[2]!));
      if (!sha) return err(404, 'RevisionNotFound', `Invalid rev id: ${m[2]}`, false);
      const bytes = repo.files.get(path);
      if (!bytes) {
        res.setHeader('x-repo-commit', sha);
        return err(404, 'EntryNotFound', 'Entry not found', false);
      }
      const head = { ...CORS, 'x-repo-commit': sha, etag: `"${gitOid(bytes)}"`, 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream' };
      const size = sizeOf(bytes);
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (range) {
        const s = Number(range[1]);
        const e = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
        if (s >= size) return void res.writeHead(416, { ...head, 'content-range': `bytes */${size}` }).end();
        served.bytes += e - s + 1;
        res.writeHead(206, { ...head, 'content-range': `bytes ${s}-${e}/${size}`, 'content-length': e - s + 1 }).end(slice(bytes, s, e + 1));
        return;
      }
      const whole = slice(bytes, 0, size);
      served.bytes += size;
      if (opts.gzip && /gzip/.test(String(req.headers['accept-encoding'] ?? ''))) {
        const gz = gzipSync(whole);
        res.writeHead(200, { ...head, 'content-encoding': 'gzip', 'content-length': gz.byteLength }).end(gz);
        return;
      }
      res.writeHead(200, { ...head, 'content-length': size }).end(whole);
      return;
    }
    err(404, null, "Sorry, we can't find the page you are looking for.", false);
  };
}

/** A local Hub (see hubHandler) on a port of its own. */
export async function startHubServer(
  repos: Record<string, Map<string, Uint8Array | VirtualFile> | TestRepo>,
  opts: HubOptions = {},
): Promise<{ base: string; server: Server; requests: string[]; opts: HubOptions; served: { bytes: number } }> {
  const requests: string[] = [];
  const served = { bytes: 0 };
  let base = '';
  const server = createServer(hubHandler(repos, () => base, opts, requests, served));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { base, server, requests, opts, served };
}

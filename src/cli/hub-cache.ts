import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { downloadFile, getRepoFolderName, listFiles } from '@huggingface/hub';
import { checkRepoId, checkRevision, HubError, HUB_URL, resolveHubRepo } from '../model/source/hub-source';
import { InputError } from './analysis-commands';

/**
 * A Hub model for command-line jobs: `owner/name[@revision]`, downloaded once into the Hugging Face cache
 * as the Python tools lay it out (HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub):
 *   models--owner--name/blobs/<sha256 or git oid>, snapshots/<commit>/<file> → ../../blobs/…, refs/<branch>
 * so every shard on a node shares one copy, and a cache filled by `huggingface-cli download` is used as is.
 * HF_TOKEN is the access token, HF_ENDPOINT the Hub (a mirror, or the tests' local one), HF_HUB_OFFLINE=1
 * reads the cache only.
 *
 * The library's own downloadFileToCacheDir writes the same layout; it is not used because it prints each
 * download to stdout (console.debug), which would corrupt `analyze --json`, and it does not check what it
 * wrote against the Hub's sha256.
 */
export interface HubModel {
  /** The snapshot folder the model is read from. */
  dir: string;
  /** The repo's folder in the cache: the snapshot's links lead into its blobs. */
  storage: string;
  repo: string;
  revision: string;
  commit: string;
  hub: string;
  /** Bytes downloaded by this call (0: all from the cache). */
  downloaded: number;
}

/** `owner/name` or `owner/name@revision`, when it names no local path. */
export function parseHubModel(arg: string): { repo: string; revision: string } | null {
  const m = /^([\w.-]+\/[\w.-]+)(?:@(.+))?$/.exec(arg);
  if (!m || existsSync(arg)) return null;
  return { repo: m[1]!, revision: m[2] ?? 'main' };
}

/** The files an analysis reads: configs, tokenizer and template files, safetensors weights (no other weight formats, no subfolders). */
const wanted = (path: string) => !path.includes('/') && (/\.(json|jinja|txt|model)$/.test(path) || /\.safetensors$/.test(path));

/** An environment variable, an empty one counting as unset (as the Python tools read them). */
const env = (k: string) => (process.env[k] ? process.env[k] : undefined);

/** HF_HUB_CACHE, else HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub. */
export const hubCachePath = (): string =>
  env('HF_HUB_CACHE') ?? join(env('HF_HOME') ?? join(env('XDG_CACHE_HOME') ?? join(homedir(), '.cache'), 'huggingface'), 'hub');

export async function hubModel(arg: { repo: string; revision: string }, log: (s: string) => void = (s) => process.stderr.write(`${s}\n`)): Promise<HubModel> {
  const bad = checkRepoId(arg.repo) ?? checkRevision(arg.revision);
  if (bad) throw new InputError(`--model: ${bad}`);
  const hub = (env('HF_ENDPOINT') ?? HUB_URL).replace(/\/+$/, '');
  const accessToken = env('HF_TOKEN') ?? env('HUGGING_FACE_HUB_TOKEN');
  const storage = join(hubCachePath(), getRepoFolderName({ type: 'model', name: arg.repo }));
  const fromCache = (why: string): HubModel => {
    const commit = /^[0-9a-f]{40}$/.test(arg.revision)
      ? arg.revision
      : existsSync(join(storage, 'refs', arg.revision))
        ? readFileSync(join(storage, 'refs', arg.revision), 'utf8').trim()
        : null;
    const dir = commit && join(storage, 'snapshots', commit);
    if (!dir || !existsSync(join(dir, 'config.json')))
      throw new InputError(`--model ${arg.repo}@${arg.revision}: ${why}, and the Hugging Face cache (${storage}) has no copy of this revision`);
    log(`${arg.repo}@${arg.revision}: ${why}; using the cached copy at ${commit!.slice(0, 10)}`);
    return { dir, storage, repo: arg.repo, revision: arg.revision, commit: commit!, hub, downloaded: 0 };
  };
  if (env('HF_HUB_OFFLINE') === '1') return fromCache('HF_HUB_OFFLINE=1');
  let commit: string;
  try {
    commit = (await resolveHubRepo({ repo: arg.repo, revision: arg.revision, hubUrl: hub }, { ...(accessToken && { accessToken }) })).commit;
  } catch (e) {
    if (e instanceof HubError && e.refusal === 'http' && e.status === 0) return fromCache(`the Hub (${hub}) cannot be reached`);
    throw e;
  }
  const dir = join(storage, 'snapshots', commit);
  const creds = { hubUrl: hub, ...(accessToken && { accessToken }) };
  let downloaded = 0;
  for await (const f of listFiles({ ...creds, repo: arg.repo, revision: commit })) {
    if (f.type !== 'file' || !wanted(f.path)) continue;
    const link = join(dir, f.path);
    if (existsSync(link)) continue;
    const etag = f.lfs?.oid ?? f.oid;
    if (!etag || !/^[0-9a-f]{40,64}$/.test(etag)) throw new InputError(`--model ${arg.repo}: the Hub lists ${f.path} without a content hash`);
    const blob = join(storage, 'blobs', etag);
    if (!existsSync(blob)) {
      mkdirSync(dirname(blob), { recursive: true });
      log(`${arg.repo}@${commit.slice(0, 10)}: downloading ${f.path} (${(f.size / 2 ** 20).toFixed(1)} MiB) into ${storage}`);
      const body = await downloadFile({ ...creds, repo: arg.repo, path: f.path, revision: commit });
      if (!body) throw new InputError(`--model ${arg.repo}: ${f.path} is listed but cannot be downloaded`);
      // Another process on this node may fetch the same blob: each writes its own file, and renames are atomic.
      const part = `${blob}.incomplete.${process.pid}`;
      const hash = createHash('sha256');
      const counted = Readable.fromWeb(body.stream() as unknown as WebStream).on('data', (c: Buffer) => hash.update(c));
      await pipeline(counted, createWriteStream(part));
      if (f.lfs && hash.digest('hex') !== f.lfs.oid) {
        rmSync(part, { force: true });
        throw new InputError(`--model ${arg.repo}: ${f.path} downloaded with another sha256 than the Hub lists: try again`);
      }
      renameSync(part, blob);
      downloaded += f.size;
    }
    mkdirSync(dirname(link), { recursive: true });
    try {
      symlinkSync(relative(dirname(link), blob), link);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  if (arg.revision !== commit) {
    mkdirSync(dirname(join(storage, 'refs', arg.revision)), { recursive: true });
    writeFileSync(join(storage, 'refs', arg.revision), commit);
  }
  if (!downloaded) log(`${arg.repo}@${commit.slice(0, 10)}: from the Hugging Face cache (${storage})`);
  return { dir, storage, repo: arg.repo, revision: arg.revision, commit, hub, downloaded };
}

import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InputError } from './analysis-commands';

/**
 * A shard's files in the output folder (part-K-of-N):
 *   .csv.partial  the rows, appended a conversation at a time while the shard runs; renamed .csv when it ends
 *   .json         the manifest: what was run (compared on a rerun), the lines done and skipped, and the CSV's
 *                 length after the last conversation recorded (a rerun cuts anything after it and redoes it)
 *   .lock         who runs it (host, pid); refreshed every LOCK_REFRESH_MS, so a lock left by a dead process
 *                 (on any host) is recognised and taken over
 */
export interface Manifest {
  tool: { name: string; version: string; commit: string | null };
  /** Everything the rows depend on: a rerun refuses if any of it differs. */
  settings: Record<string, unknown>;
  shard: { index: number; count: number; from: string };
  /** What the run found (not compared): the backend and device each model ran on. */
  ran: Record<string, unknown>[];
  host: string;
  pid: number;
  started: string;
  updated: string;
  finished: string | null;
  /** (model, line) pairs in the order their rows were written, with how many. */
  done: { model: number; line: number; rows: number }[];
  skipped: { model: number; line: number; reason: string }[];
  csvBytes: number;
}

export const LOCK_REFRESH_MS = 10_000;
/** A lock not refreshed for this long belongs to a process that is gone. */
export const LOCK_STALE_MS = 60_000;

/** sha256 of a file, read in 8 MiB pieces (a model's weights do not fit one string). */
export function sha256File(path: string): string {
  const h = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(8 << 20);
    for (let at = 0; ; ) {
      const n = readSync(fd, buf, 0, buf.byteLength, at);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/** A model folder's files and their sha256, by name (what identifies a local model in a manifest). */
export function folderDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isFile()) out[f] = sha256File(p);
  }
  return out;
}

/** The settings that differ between a manifest and this run, as "key: was X, now Y". */
export function settingsDiff(was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k])).map((k) => `${k}: was ${short(was[k])}, now ${short(now[k])}`);
}
const short = (v: unknown) => {
  const s = JSON.stringify(v) ?? 'absent';
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
};

/** Writes a file whole or not at all (a kill mid-write leaves the previous version). */
export function writeAtomic(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

export const readManifest = (path: string): Manifest | null => {
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch {
    throw new InputError(`${path} is not a manifest this tool wrote (it does not parse as JSON): move it away to start this shard afresh`);
  }
};

/** Whether a process runs on this host. A killed process no parent has reaped yet (a zombie) does not. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): the signal test above is all there is
  }
};

/**
 * Takes the shard's lock, or refuses naming its owner. A lock whose process is gone (same host: no such pid;
 * any host: not refreshed for LOCK_STALE_MS) is taken over. Returns the release function.
 */
export function takeLock(path: string, now = Date.now): () => void {
  const me = { host: hostname(), pid: process.pid, since: new Date(now()).toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeFileSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      const timer = setInterval(() => {
        try {
          utimesSync(path, new Date(), new Date());
        } catch {
          /* the folder was removed: nothing left to guard */
        }
      }, LOCK_REFRESH_MS);
      timer.unref();
      return () => {
        clearInterval(timer);
        rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner: { host?: string; pid?: number; since?: string } = {};
      try {
        owner = JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        /* half-written by a process killed as it made it: stale below if old */
      }
      const age = now() - statSync(path).mtimeMs;
      const gone = (owner.host === me.host && typeof owner.pid === 'number' && !alive(owner.pid)) || age > LOCK_STALE_MS;
      if (!gone)
        throw new InputError(
          `this shard is being run by process ${owner.pid ?? '?'} on ${owner.host ?? '?'} (since ${owner.since ?? '?'}; ${path}): two runs of one shard would write the same file`,
        );
      unlinkSync(path);
    }
  }
  throw new InputError(`${path}: could not take the lock`);
}

/**
 * Passes that start from a shared prefix's keys and values. The last pass's cache is kept per session
 * and per kind of policy (within a size): the next pass over ids that share a prefix with one (the
 * system prompt and the turns two policies keep alike, Clip before its cut, the same conversation at
 * another turn or grown by one) runs on the new tokens only. Per kind, so that a conversation scored
 * again under Full after toggles to other policies still finds its own prefix. Kept on the CPU backends
 * (on WebGPU each pass would read every layer's cache back).
 */
import type { ForwardResult, KvCache, ModelSession } from '../runtime/ort-runtime';
import { commonPrefix } from '../util/common-prefix';

const PREFIX_CACHE_MAX_BYTES = 256 * 2 ** 20;
const KEPT = 4;
const MIN_SHARED_PREFIX = 16;

interface Kept {
  /** The kind of policy whose pass it was (one cache each: a newer pass of the same kind replaces it). */
  kind: string;
  ids: number[];
  present: KvCache;
  bytes: number;
}
const kept = new WeakMap<object, Kept[]>();

/** Keeps a pass's cache, newest first, in place of its kind's; the oldest go past KEPT or past the size. */
function keep(session: object, entry: Kept): void {
  const list = [entry, ...(kept.get(session) ?? []).filter((k) => k.kind !== entry.kind)].slice(0, KEPT);
  let bytes = 0;
  kept.set(
    session,
    list.filter((k) => (bytes += k.bytes) <= PREFIX_CACHE_MAX_BYTES),
  );
}

/**
 * One pass over `ids` for attention rows [rowStart, rowEnd) (the head mean from meanStart ≤ rowStart),
 * from the kept cache that shares the longest prefix with it, where one shares enough.
 */
export async function passWithPrefix(
  session: ModelSession,
  kind: string,
  ids: number[],
  rowStart: number,
  rowEnd: number,
  layers: number[],
  meanStart = rowStart,
): Promise<ForwardResult> {
  const spec = session.spec;
  const bytes = 2 * spec.numLayers * spec.numKvHeads * ids.length * spec.headDim * 4;
  const usable = session.graph.kvCache && session.report.backend !== 'webgpu' && bytes <= PREFIX_CACHE_MAX_BYTES;
  const rows = (shift: number) => ({
    attnRows: [rowStart - shift, rowEnd - shift] as [number, number],
    meanRows: [meanStart - shift, rowEnd - shift] as [number, number],
    layers,
    perHead: true,
    skipLogits: true,
  });
  if (!usable) return session.forward({ ids, ...rows(0) });
  let best: Kept | null = null;
  let shared = 0;
  for (const k of kept.get(session) ?? []) {
    const n = commonPrefix(k.ids, ids);
    if (n > shared) [best, shared] = [k, n];
  }
  shared = Math.min(shared, meanStart); // the rows asked for are computed in this pass
  const out =
    best && shared >= MIN_SHARED_PREFIX
      ? await session.forward({ ids: ids.slice(shared), past: session.truncateCache(best.present, shared), ...rows(shared), keepCache: true })
      : await session.forward({ ids, ...rows(0), keepCache: true });
  keep(session, { kind, ids, present: out.present!, bytes });
  return out;
}

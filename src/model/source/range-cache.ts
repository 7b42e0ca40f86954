import type { RangeCache } from './hub-source';

/**
 * Downloaded model bytes kept in the browser's Cache Storage, so a second visit loads offline. The
 * cache name carries a version: a change in what we store starts a fresh cache instead of reading an
 * old layout. Keys name the commit, the file and the byte range, so an entry never goes stale.
 */
export const MODEL_CACHE = 'inertia-lens-models-v2';

/** Cache Storage as the Hub source's range cache (null outside a browser). */
export function rangeCache(): RangeCache | undefined {
  if (typeof caches === 'undefined') return undefined;
  const open = caches.open(MODEL_CACHE);
  // Keys are URLs with the range as a fragment-free query, since Cache Storage ignores fragments.
  const url = (key: string) => key.replace('#', '?range=');
  return {
    async get(key) {
      const hit = await (await open).match(url(key));
      return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
    },
    async put(key, bytes) {
      await (await open).put(url(key), new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } }));
    },
  };
}

export async function forgetCachedModels(): Promise<void> {
  if (typeof caches !== 'undefined') {
    await caches.delete(MODEL_CACHE);
    await caches.delete('inertia-lens-models-v1');
  }
}

/**
 * Downloaded model files kept in the browser's Cache Storage, so a second visit loads offline.
 * The cache name carries a version: a change in what we store starts a fresh cache instead of
 * reading an old layout. Keys are the files' URLs, which include the revision.
 */
export const MODEL_CACHE = 'inertia-lens-models-v1';

/** A fetch that answers from the cache when it can and stores successful downloads. */
export function cachingFetch(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    if (typeof caches === 'undefined') return base(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const cache = await caches.open(MODEL_CACHE);
    const hit = await cache.match(url);
    if (hit) return hit;
    const res = await base(input, init);
    if (res.ok) {
      // Stored in the background: the caller streams its own copy for progress.
      void cache.put(url, res.clone()).catch(() => undefined);
    }
    return res;
  };
}

export async function forgetCachedModels(): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(MODEL_CACHE);
}

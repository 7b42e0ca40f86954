// Inertia Lens's service worker, in the built app only (src/deploy/offline.ts registers it; the build
// writes it to sw.js with its version, from the names of the files it emitted: see vite.config.ts).
// 1. Cross-origin isolation on any static host: it re-serves the app's own responses with COOP/COEP,
//    so onnxruntime's wasm threads (SharedArrayBuffer) work where the host cannot set headers.
// 2. The app shell offline: every same-origin file it served is kept; the network is asked first, the
//    copy answers when there is none. Model downloads from the Hub are other origins: not touched here
//    (the app keeps them in its own Cache Storage).
const SHELL = 'inertia-lens-shell-__BUILD__';

self.addEventListener('install', () => self.skipWaiting());
// A new build keeps its own copy: the earlier builds' copies go.
self.addEventListener('activate', (e) => e.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith('inertia-lens-shell-') && name !== SHELL) await caches.delete(name);
  await self.clients.claim();
})()));

function isolated(res) {
  if (res.type === 'opaque' || res.status === 0) return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  if (req.cache === 'only-if-cached' && req.mode !== 'same-origin') return;
  e.respondWith((async () => {
    const cache = await caches.open(SHELL);
    try {
      const res = await fetch(req);
      // Whole files only (a range answer is a part of one).
      if (res.status === 200 && !req.headers.has('range')) await cache.put(req, res.clone());
      return isolated(res);
    } catch (err) {
      const kept = await cache.match(req, { ignoreSearch: req.mode === 'navigate' });
      if (kept) return isolated(kept);
      throw err;
    }
  })());
});

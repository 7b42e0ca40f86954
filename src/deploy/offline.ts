/**
 * The built app on a static host: registers sw.js (src/deploy/sw.js, written by the build), which adds cross-origin isolation where the
 * host sends no COOP/COEP headers and keeps the app shell for offline use. A page that is not isolated
 * yet reloads once, when the worker controls it; a second time it does not (the flag below), so a
 * browser that refuses service workers still gets the app, on single-threaded wasm.
 */
const RELOADED = 'inertia-lens-isolation-reload';

export function startOffline(base: string): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(`${base}sw.js`).then(
    async () => {
      await navigator.serviceWorker.ready;
      if (window.crossOriginIsolated) {
        sessionStorage.removeItem(RELOADED);
        return;
      }
      if (navigator.serviceWorker.controller && !sessionStorage.getItem(RELOADED)) {
        sessionStorage.setItem(RELOADED, '1');
        location.reload();
      } else if (!navigator.serviceWorker.controller) {
        // The first visit: the worker takes the page over (clients.claim), then the reload isolates it.
        navigator.serviceWorker.addEventListener(
          'controllerchange',
          () => {
            if (!sessionStorage.getItem(RELOADED)) {
              sessionStorage.setItem(RELOADED, '1');
              location.reload();
            }
          },
          { once: true },
        );
      }
    },
    () => undefined, // no service worker (private mode, a refused scope): the app runs without it
  );
}

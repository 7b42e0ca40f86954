import { createServer, type ViteDevServer } from 'vite';

/**
 * The app's own Vite dev server (our vite.config.ts: ORT wasm from our own origin, cross-origin
 * isolation), plus a Hub-style route /hub/{repo}/resolve/{revision}/{file} over in-memory repos.
 */
export async function startAppServer(repos: Record<string, Map<string, Uint8Array>> = {}): Promise<{ url: string; hub: string; server: ViteDevServer }> {
  const server = await createServer({
    // No HMR and no file watcher: an edit made while a test or a long bench runs must not reload its page.
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'warn',
    plugins: [
      {
        name: 'test-hub',
        configureServer(s) {
          s.middlewares.use('/hub/', (req, res) => {
            const m = /^\/(.+)\/resolve\/([^/]+)\/(.+)$/.exec(req.url ?? '');
            const bytes = m ? repos[m[1]!]?.get(decodeURIComponent(m[3]!)) : undefined;
            if (!bytes) {
              res.statusCode = 404;
              res.end();
              return;
            }
            res.setHeader('Content-Type', 'application/octet-stream');
            res.setHeader('Content-Length', bytes.byteLength);
            res.end(bytes);
          });
        },
      },
    ],
  });
  await server.listen();
  const url = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
  return { url, hub: `${url}/hub`, server };
}

import { createServer, type ViteDevServer } from 'vite';
import { hubHandler, type HubOptions, type TestRepo, type VirtualFile } from './hub-server';

/**
 * The app's own Vite dev server (our vite.config.ts: ORT wasm from our own origin, cross-origin
 * isolation), plus a local Hub under /hub (tests/helpers/hub-server.ts) over in-memory repos.
 */
export async function startAppServer(
  repos: Record<string, Map<string, Uint8Array | VirtualFile> | TestRepo> = {},
  hubOptions: HubOptions = {},
): Promise<{ url: string; hub: string; server: ViteDevServer; hubOptions: HubOptions; requests: string[]; served: { bytes: number } }> {
  let hub = '';
  const requests: string[] = [];
  const served = { bytes: 0 };
  const server = await createServer({
    // No HMR and no file watcher: an edit made while a test or a long bench runs must not reload its page.
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'warn',
    plugins: [
      {
        name: 'test-hub',
        configureServer(s) {
          s.middlewares.use(
            '/hub',
            hubHandler(repos, () => hub, hubOptions, requests, served),
          );
        },
      },
    ],
  });
  await server.listen();
  const url = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
  hub = `${url}/hub`;
  return { url, hub, server, hubOptions, requests, served };
}

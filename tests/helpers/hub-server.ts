import { createServer, type Server } from 'node:http';

/**
 * A local server laid out like the Hub: GET /{repo}/resolve/{revision}/{file}. Repos are in-memory
 * file maps, so tests exercise the real URL loader without any network.
 */
export async function startHubServer(repos: Record<string, Map<string, Uint8Array>>): Promise<{ base: string; server: Server; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/(.+)\/resolve\/([^/]+)\/(.+)$/.exec(req.url ?? '');
    const bytes = m ? repos[m[1]!]?.get(decodeURIComponent(m[3]!)) : undefined;
    if (!bytes) {
      res.writeHead(404, { 'access-control-allow-origin': '*' }).end('not found'); // as the Hub: CORS on 404 too
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.byteLength, 'access-control-allow-origin': '*' });
    res.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, server, requests };
}

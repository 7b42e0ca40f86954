/**
 * The built app's Content-Security-Policy (a <meta> in index.html, and public headers for hosts that
 * read a _headers file). Scripts only from the app itself, wasm allowed to compile; model downloads
 * from any https host (the Hub, or a Hub-like server the person names and clicks to load) and from
 * a local one; nothing else: no plugins, no <base>, no form posts.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self' blob: data: https: http://localhost:* http://127.0.0.1:*",
  "img-src 'self' data: blob:",
  // React writes element styles (a heatmap cell's colour) as style attributes.
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers for static hosts that read a _headers file (Netlify, Cloudflare Pages): isolation, the CSP, no framing. */
export function headersFile(): string {
  return [
    '/*',
    '  Cross-Origin-Opener-Policy: same-origin',
    '  Cross-Origin-Embedder-Policy: require-corp',
    `  Content-Security-Policy: ${CSP}; frame-ancestors 'none'`,
    '  X-Content-Type-Options: nosniff',
    '  Referrer-Policy: no-referrer',
    '',
  ].join('\n');
}

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CPL_MODEL_PATH, DEMO_MODEL_FILES, DEMO_MODEL_PATH } from './src/model/demo.ts';
import { CSP, headersFile } from './src/deploy/csp.ts';

/** The dev server serves the demo models from the repo; the build copies them in. */
function demoModel(): Plugin {
  return {
    name: 'inertia-lens:demo-model',
    generateBundle() {
      for (const dir of [DEMO_MODEL_PATH, CPL_MODEL_PATH]) {
        for (const f of DEMO_MODEL_FILES) {
          const path = join(dir, f);
          if (existsSync(path)) this.emitFile({ type: 'asset', fileName: path, source: readFileSync(path) });
        }
      }
    },
  };
}

/** The build for any static host: the CSP in index.html, a _headers file (see src/deploy/). Dev keeps Vite's inline HMR script. */
function deployable(): Plugin {
  return {
    name: 'inertia-lens:deployable',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head' }],
    generateBundle(_options, bundle) {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile() });
      // The service worker's cache is named after this build (its emitted files' hashed names).
      const build = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 12);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: readFileSync('src/deploy/sw.js', 'utf8').replace('__BUILD__', build) });
    },
  };
}

// Cross-origin isolation lets onnxruntime-web use wasm threads (SharedArrayBuffer).
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react(), demoModel(), deployable()],
  server: { headers: isolation },
  preview: { headers: isolation },
  optimizeDeps: {
    // Left unbundled so ORT's `new URL('ort-wasm-….wasm', import.meta.url)` resolves: Vite then serves
    // (dev) or emits (build) the wasm from our own origin. No CDN, works offline.
    exclude: ['onnxruntime-web'],
    include: ['onnx-proto', '@huggingface/tokenizers', '@huggingface/jinja', 'react', 'react-dom', 'react-dom/client', 'zustand'],
    entries: [
      'index.html',
      ...(existsSync('tests/browser')
        ? readdirSync('tests/browser')
            .filter((f) => f.endsWith('.html'))
            .map((f) => `tests/browser/${f}`)
        : []),
    ],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 2048 },
  // The model worker is a module worker: it imports onnxruntime-web on demand, as the page did.
  worker: { format: 'es' },
});

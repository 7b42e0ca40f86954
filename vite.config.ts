import { createReadStream, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const ORT_DIST = join(import.meta.dirname, 'node_modules/onnxruntime-web/dist');
/** The wasm runtime of `onnxruntime-web/webgpu` (its WebGPU and wasm EPs share this binary). */
const ORT_FILES = ['ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.asyncify.mjs'];

/**
 * Serves onnxruntime-web's wasm files from our own origin under /ort/ (dev) and emits them into the
 * build: the app never loads code from a CDN and works offline.
 */
function ortWasm(): Plugin {
  return {
    name: 'inertia-lens:ort-wasm',
    configureServer(server) {
      server.middlewares.use('/ort/', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0]!;
        const path = join(ORT_DIST, name);
        if (!/^ort-wasm[\w.-]*\.(wasm|mjs)$/.test(name) || !existsSync(path)) return next();
        res.setHeader('Content-Type', name.endsWith('.wasm') ? 'application/wasm' : 'text/javascript');
        createReadStream(path).pipe(res);
      });
    },
    generateBundle() {
      for (const name of ORT_FILES) this.emitFile({ type: 'asset', fileName: `ort/${name}`, source: readFileSync(join(ORT_DIST, name)) });
    },
  };
}

// Cross-origin isolation lets onnxruntime-web use wasm threads (SharedArrayBuffer).
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react(), ortWasm()],
  server: { headers: isolation },
  preview: { headers: isolation },
  optimizeDeps: {
    // ORT locates its own files at run time; pre-bundling would break that.
    exclude: ['onnxruntime-web'],
    include: ['onnx-proto', '@huggingface/tokenizers', '@huggingface/jinja', 'react', 'react-dom', 'react-dom/client', 'zustand'],
    entries: ['index.html', ...(existsSync('tests/browser') ? readdirSync('tests/browser').filter((f) => f.endsWith('.html')).map((f) => `tests/browser/${f}`) : [])],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 2048 },
});

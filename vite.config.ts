import { existsSync, readdirSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Cross-origin isolation lets onnxruntime-web use wasm threads (SharedArrayBuffer).
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react()],
  server: { headers: isolation },
  preview: { headers: isolation },
  optimizeDeps: {
    // Left unbundled so ORT's `new URL('ort-wasm-….wasm', import.meta.url)` resolves: Vite then serves
    // (dev) or emits (build) the wasm from our own origin. No CDN, works offline.
    exclude: ['onnxruntime-web'],
    include: ['onnx-proto', '@huggingface/tokenizers', '@huggingface/jinja', 'react', 'react-dom', 'react-dom/client', 'zustand'],
    entries: ['index.html', ...(existsSync('tests/browser') ? readdirSync('tests/browser').filter((f) => f.endsWith('.html')).map((f) => `tests/browser/${f}`) : [])],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 2048 },
});

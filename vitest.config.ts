import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // onnxruntime-web runs its wasm in worker threads; one test file at a time keeps 2 cores usable.
    fileParallelism: false,
  },
});

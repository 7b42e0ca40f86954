/**
 * onnxruntime-web itself: which build a page loads (the wasm-only build, or the WebGPU one), its options, the
 * WebGPU adapter, and the one queue every session's create, run and release goes through. ort-runtime.ts
 * builds sessions on it; nothing outside runtime/ imports onnxruntime.
 */
import type * as Ort from 'onnxruntime-web';

/** 'native' is onnxruntime-node (Node only, for the bench's CPU reference); the app uses webgpu and wasm. */
export type Backend = 'webgpu' | 'wasm' | 'native';

export const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** Held in a variable so the browser bundle does not pull in the default build (and its 28 MB wasm). */
const NODE_ENTRY = 'onnxruntime-web';

/**
 * onnxruntime-web's builds: 'webgpu' (WebGPU and wasm, a 27 MB wasm module) and 'wasm' (wasm only, 14 MB:
 * half the compile at start, and it has the BF16 Cast the other lacks). A page loads the one its backend
 * needs; a WebGPU failure falls back to the wasm build.
 */
type Build = 'wasm' | 'webgpu';
const ortModules = new Map<Build, Promise<typeof Ort>>();
let runtimeConfig: RuntimeConfig = {};
/** The runtime options set so far (configureRuntime). */
export const currentRuntimeConfig = (): RuntimeConfig => runtimeConfig;
/** Node only: load the browser's build instead (`configureRuntime({ nodeBuild: 'webgpu' })`), so tests see its kernels. */
let nodeBuild: Build = 'wasm';

export function loadOrt(wanted: Build = 'wasm'): Promise<typeof Ort> {
  const build = isNode ? nodeBuild : wanted;
  let m = ortModules.get(build);
  if (!m) {
    m = (async () => {
      const ort: typeof Ort =
        isNode && build === 'wasm'
          ? await import(/* @vite-ignore */ NODE_ENTRY)
          : build === 'webgpu'
            ? await import('onnxruntime-web/webgpu')
            : await import('onnxruntime-web/wasm');
      ort.env.wasm.numThreads ??= await wasmThreads();
      applyConfig(ort, runtimeConfig);
      return ort;
    })();
    ortModules.set(build, m);
  }
  return m;
}

function applyConfig(ort: typeof Ort, cfg: RuntimeConfig): void {
  ort.env.logLevel = 'error'; // ORT's node-placement warnings are expected (shape ops run on CPU)
  if (cfg.wasmPaths) ort.env.wasm.wasmPaths = cfg.wasmPaths;
  if (cfg.numThreads) ort.env.wasm.numThreads = cfg.numThreads;
  if (cfg.proxy !== undefined) ort.env.wasm.proxy = cfg.proxy;
}

/**
 * Threads for the wasm backend: every logical core (at most 8). ORT's own default is half the cores, which
 * on a 2-core machine is one thread, half the speed of the native runtime's two. Threads need
 * SharedArrayBuffer, so a page that is not cross-origin isolated gets one (and no warning).
 */
async function wasmThreads(): Promise<number> {
  let cores: number;
  if (isNode) cores = (await import(/* @vite-ignore */ 'node:os')).cpus().length;
  else if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated) return 1;
  else cores = navigator.hardwareConcurrency || 1;
  return Math.max(1, Math.min(8, cores));
}

export interface RuntimeConfig {
  /** Where ORT's .wasm files are served, when not where the bundler put them (our own copies, never a CDN). */
  wasmPaths?: string;
  /** Threads per pass: wasm's, and native's per operator (default: every core, at most 8 on wasm). */
  numThreads?: number;
  /** ORT's own proxy worker for wasm sessions (measured against our model worker in `npm run bench:browser`; off in the app). */
  proxy?: boolean;
  /** Node only, before the first session: 'webgpu' loads the browser's build (whose CPU kernels lack some types) instead of the plain wasm one. */
  nodeBuild?: 'wasm' | 'webgpu';
}

/** Sets ORT's wasm options (for every build, loaded or not); call before the first session (ORT reads them once). */
export async function configureRuntime(cfg: RuntimeConfig): Promise<void> {
  if (cfg.nodeBuild && !ortModules.size) nodeBuild = cfg.nodeBuild;
  runtimeConfig = { ...runtimeConfig, ...cfg };
  // The wasm build's script is loaded now (its module is compiled at the first session).
  await loadOrt('wasm');
  for (const m of ortModules.values()) applyConfig(await m, runtimeConfig);
}

/** Whether this environment offers a WebGPU adapter, and with shader-f16; a string says why not. */
export async function probeWebGpu(): Promise<{ hasF16: boolean; maxBufferBytes: number; software: boolean; name: string } | string> {
  if (isNode) return 'WebGPU is not available in Node';
  type Adapter = {
    features: Set<string>;
    limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
    info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
    isFallbackAdapter?: boolean;
  };
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(): Promise<Adapter | null> } } | undefined)?.gpu;
  if (!gpu) return 'this browser exposes no WebGPU (navigator.gpu is missing)';
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return 'no WebGPU adapter was found';
    // A software adapter (SwiftShader on a machine without a GPU) emulates the GPU on the CPU: wasm is faster.
    const info = adapter.info ?? {};
    const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
    const software = info.isFallbackAdapter === true || adapter.isFallbackAdapter === true || /swiftshader|llvmpipe|software/i.test(name);
    // A tensor lives in one storage buffer: the smaller of the two limits bounds it.
    return {
      hasF16: adapter.features.has('shader-f16'),
      maxBufferBytes: Math.min(adapter.limits.maxBufferSize, adapter.limits.maxStorageBufferBindingSize),
      software,
      name,
    };
  } catch (e) {
    return `requesting a WebGPU adapter failed: ${(e as Error).message}`;
  }
}

/**
 * Whether a backend can Cast BF16 to fp32. onnxruntime-web's WebGPU build has no BF16 Cast kernel, on
 * its WebGPU or its wasm provider ("Could not find an implementation for Cast(13)"); its wasm-only build,
 * which the page's wasm sessions use, and onnxruntime-node have one. tests/runtime/browser-build.test.ts
 * pins the missing kernel.
 */
export function castsBf16(backend: Backend): boolean {
  if (backend === 'native') return true;
  return isNode ? nodeBuild === 'wasm' : backend === 'wasm';
}

export function defaultBackends(): Backend[] {
  return isNode ? ['wasm'] : ['webgpu', 'wasm'];
}

/**
 * onnxruntime-web is one wasm instance: a session created or run while another session's run is in
 * flight corrupts it ("memory access out of bounds"). Every create, run and release, of any session,
 * goes through this one queue. Never call serial() from inside a serial() task.
 */
let ortQueue: Promise<unknown> = Promise.resolve();
export function serial<T>(task: () => Promise<T>): Promise<T> {
  const run = ortQueue.then(task);
  ortQueue = run.catch(() => undefined);
  return run;
}

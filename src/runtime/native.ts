/**
 * onnxruntime-node, Node only: the machine's native runtime for the command line and the bench's CPU
 * reference, on CUDA where the machine has it and onnxruntime-node's CUDA libraries are installed
 * ((cd node_modules/onnxruntime-node && ONNXRUNTIME_NODE_INSTALL=cuda12 node script/install); `npm ci` skips that download, see .npmrc).
 * It reads external data from files, so the graph is written to a temporary folder, one tensor at a time.
 */
import type * as Ort from 'onnxruntime-web';
import type { BuiltGraph } from '../model/graph/graph';

/** Held in a variable so no bundler pulls it into the browser build. */
const NATIVE_ENTRY = 'onnxruntime-node';

export type NativeDevice = 'cpu' | 'cuda';

export interface NativeOptions {
  /** Devices to try in order (default cpu). CUDA that fails to start falls back to the next, with the reason. */
  devices?: NativeDevice[];
  prepack?: boolean;
  profileFilePrefix?: string;
  /** Threads for one operator (onnxruntime's default: every core). Several processes on one machine share it. */
  threads?: number;
}

export async function createNativeSession(
  graph: BuiltGraph,
  opts: NativeOptions = {},
): Promise<{ ort: typeof Ort; session: Ort.InferenceSession; device: NativeDevice; reasons: string[] }> {
  const ort = (await import(/* @vite-ignore */ NATIVE_ENTRY)) as typeof Ort;
  const fs = await import(/* @vite-ignore */ 'node:fs/promises');
  const { join } = await import(/* @vite-ignore */ 'node:path');
  const { tmpdir } = await import(/* @vite-ignore */ 'node:os');
  const dir = await fs.mkdtemp(join(tmpdir(), 'inertia-lens-native-'));
  const reasons: string[] = [];
  try {
    await fs.writeFile(join(dir, 'model.onnx'), graph.model);
    // One tensor at a time: read, written, dropped.
    for (const f of graph.externalData) await fs.writeFile(join(dir, f.path), (await f.data.prepare())());
    const common = {
      ...(opts.profileFilePrefix && { enableProfiling: true, profileFilePrefix: opts.profileFilePrefix }),
      ...(opts.prepack === false && { extra: { session: { disable_prepacking: '1' } } }),
      ...(opts.threads && { intraOpNumThreads: opts.threads }),
    };
    for (const device of opts.devices ?? ['cpu']) {
      try {
        const session = await ort.InferenceSession.create(join(dir, 'model.onnx'), { executionProviders: [device], ...common });
        return { ort, session, device, reasons };
      } catch (e) {
        reasons.push(`${device} could not start: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    throw new Error(reasons.join('; '));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** The machine's memory, for the load plan (Node only). */
export async function nativeMemoryBytes(): Promise<number> {
  const os = await import(/* @vite-ignore */ 'node:os');
  return os.totalmem();
}

import { RemoteError, RpcClient, type Call, type PortLike } from '../worker/rpc';
import type { ModelApi } from '../worker/api';
import { guardBuffer, guardReader, stuckMessage } from '../worker/watchdog';

/** How often the page reads the worker's watchdog words. */
const WATCH_EVERY_MS = 250;
export const WORKER_LOST = 'WorkerLostError';

/**
 * The page's one door to the model worker (worker/model-worker.ts). A call into the model's template or
 * tokenizer that runs past its budget ends the worker: every request in flight fails with a message
 * naming the file, a fresh worker takes its place (with no model), and `onLost` tells the store.
 */
/** What the client needs of a worker: a Worker, or (in Node tests) a MessagePort with a host behind it. */
export type WorkerLike = PortLike & { terminate(): void; addEventListener(type: 'error', listener: (e: ErrorEvent) => void): void };

export class ModelClient {
  private worker!: WorkerLike;
  private rpc!: RpcClient<ModelApi>;
  private watch: ReturnType<typeof setInterval> | null = null;
  /** Set once a worker answered: a worker that fails before that is not started again (it would fail the same way). */
  private started = false;
  private broken: string | null = null;
  /** Told the reason whenever the worker had to be replaced (its model is gone); set by the slot it serves. */
  onLost: (message: string) => void = () => undefined;

  constructor(private readonly spawn: () => WorkerLike = defaultWorker) {
    this.start();
  }

  call<M extends keyof ModelApi & string>(method: M, args: ModelApi[M]['args'], onEvent?: (e: ModelApi[M]['event']) => void): Call<ModelApi[M]['result']> {
    if (this.broken) return { promise: Promise.reject(new RemoteError(WORKER_LOST, this.broken)), cancel: () => undefined };
    return this.rpc.call(method, args, onEvent);
  }

  private start(): void {
    this.worker = this.spawn();
    this.rpc = new RpcClient<ModelApi>(this.worker);
    this.worker.addEventListener('error', (e) => {
      e.preventDefault();
      this.replace(`the model worker stopped: ${e.message || 'it failed to start'}`);
    });
    const buffer = guardBuffer();
    void this.rpc.call('init', { guard: buffer }).promise.then(
      () => (this.started = true),
      () => undefined,
    );
    if (buffer) {
      const reader = guardReader(buffer);
      this.watch = setInterval(() => {
        const stuck = reader.check(performance.now());
        if (stuck) this.replace(stuckMessage(stuck));
      }, WATCH_EVERY_MS);
    }
  }

  /** Ends the worker (whatever it is doing) and starts a fresh one. */
  private replace(message: string): void {
    if (this.watch) clearInterval(this.watch);
    this.worker.terminate();
    if (!this.started) this.broken = `the model worker could not start (${message}): this browser cannot run the model`;
    this.rpc.failAll(new RemoteError(WORKER_LOST, this.broken ?? message));
    if (!this.broken) this.start();
    this.onLost(this.broken ?? message);
  }
}

/** The page's models: slot 0 is the one inspected, slots 1–3 the ones compared with it; each in a worker of its own. */
export type ModelSlot = number;
/** At most this many models side by side (compare models). */
export const MAX_MODELS = 4;
/** How the page names a slot's model: A, B, C, D. */
export const slotName = (slot: ModelSlot): string => 'ABCD'[slot] ?? String(slot + 1);

const lostListeners = new Map<ModelSlot, ((message: string) => void)[]>();
/** Called with the reason whenever the slot's worker had to be replaced (its model is gone). */
export function onWorkerLost(listener: (message: string) => void, slot: ModelSlot = 0): void {
  lostListeners.set(slot, [...(lostListeners.get(slot) ?? []), listener]);
}

function defaultWorker(): WorkerLike {
  return new Worker(new URL('../worker/model-worker.ts', import.meta.url), { type: 'module', name: 'inertia-lens-model' });
}

const clients = new Map<ModelSlot, ModelClient>();
/** A slot's model worker, started on first use (a compared model's only when one is loaded there). */
export function modelClient(slot: ModelSlot = 0): ModelClient {
  return clients.get(slot) ?? setModelClient(new ModelClient(), slot);
}

/** Puts another client in place (Node tests: a host on a MessageChannel, tests/helpers/in-process-worker.ts). */
export function setModelClient(c: ModelClient, slot: ModelSlot = 0): ModelClient {
  c.onLost = (message) => {
    for (const l of lostListeners.get(slot) ?? []) l(message);
  };
  clients.set(slot, c);
  return c;
}

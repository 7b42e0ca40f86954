/**
 * Typed requests over a message port (a Worker, or a MessageChannel in tests): each request has an id,
 * may stream events before its one result, and may be cancelled. No model code here.
 *
 * An API is a map from method name to { args, result, event }.
 */
export type ApiShape = Record<string, { args: unknown; result: unknown; event: unknown }>;

export interface PortLike {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
  removeEventListener?(type: 'message', listener: (e: MessageEvent) => void): void;
  start?(): void;
}

type Inbound = { id: number; method: string; args: unknown } | { cancel: number };
type Outbound = { id: number; event: unknown } | { id: number; result: unknown } | { id: number; error: { name: string; message: string } };

/** What a handler gets besides its args. */
export interface CallContext<E> {
  emit(event: E, transfer?: Transferable[]): void;
  /** True once the page cancelled this request (or replaced it): handlers check it between steps. */
  cancelled(): boolean;
}

/** A handler's result, with the buffers to transfer rather than copy (they must not be used afterwards). */
export interface Reply<R> {
  value: R;
  transfer: Transferable[];
}
export const reply = <R>(value: R, transfer: Transferable[] = []): Reply<R> => ({ value, transfer: [...new Set(transfer)] });

export type Handlers<A extends ApiShape> = {
  [M in keyof A]: (args: A[M]['args'], ctx: CallContext<A[M]['event']>) => Promise<A[M]['result'] | Reply<A[M]['result']>>;
};

const isReply = (x: unknown): x is Reply<unknown> => typeof x === 'object' && x !== null && 'transfer' in x && 'value' in x && Object.keys(x).length === 2;

/** The worker's side: answers every request with its handler. */
export function serve<A extends ApiShape>(port: PortLike, handlers: Handlers<A>): void {
  const cancelled = new Set<number>();
  port.addEventListener('message', (e: MessageEvent) => {
    const msg = e.data as Inbound;
    if ('cancel' in msg) return void cancelled.add(msg.cancel);
    const { id, method, args } = msg;
    const post = (m: Outbound, transfer: Transferable[] = []) => port.postMessage(m, transfer);
    const handler = handlers[method as keyof A];
    if (!handler) return post({ id, error: { name: 'Error', message: `unknown request ${method}` } });
    const ctx: CallContext<unknown> = { emit: (event, transfer) => post({ id, event }, transfer), cancelled: () => cancelled.has(id) };
    handler(args as never, ctx as never)
      .then(
        (r) => (isReply(r) ? post({ id, result: r.value }, r.transfer) : post({ id, result: r })),
        (err: unknown) => post({ id, error: { name: (err as Error)?.name ?? 'Error', message: (err as Error)?.message ?? String(err) } }),
      )
      .finally(() => cancelled.delete(id));
  });
  port.start?.();
}

/** An error the worker threw, with its name kept (MemoryLimitError, ModelError…), or the worker's loss. */
export class RemoteError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface Call<R> {
  promise: Promise<R>;
  cancel(): void;
}

/** The page's side. */
export class RpcClient<A extends ApiShape> {
  private next = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; onEvent?: (e: unknown) => void }>();
  private readonly listener = (e: MessageEvent) => {
    const msg = e.data as Outbound;
    const p = this.pending.get(msg.id);
    if (!p) return;
    if ('event' in msg) return void p.onEvent?.(msg.event);
    this.pending.delete(msg.id);
    if ('error' in msg) p.reject(new RemoteError(msg.error.name, msg.error.message));
    else p.resolve(msg.result);
  };

  constructor(private readonly port: PortLike) {
    port.addEventListener('message', this.listener);
    port.start?.();
  }

  call<M extends keyof A & string>(method: M, args: A[M]['args'], onEvent?: (e: A[M]['event']) => void, transfer: Transferable[] = []): Call<A[M]['result']> {
    const id = ++this.next;
    const promise = new Promise<A[M]['result']>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onEvent: onEvent as (e: unknown) => void });
    });
    this.port.postMessage({ id, method, args }, transfer);
    return { promise, cancel: () => this.pending.has(id) && this.port.postMessage({ cancel: id }) };
  }

  /** Requests in flight, for the watchdog's message. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** The worker is gone: every request in flight fails with this error. */
  failAll(error: Error): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(error);
    this.port.removeEventListener?.('message', this.listener);
  }
}

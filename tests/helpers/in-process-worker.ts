import { MessageChannel } from 'node:worker_threads';
import { ModelClient, type WorkerLike } from '../../src/state/model-client';
import { modelHost } from '../../src/worker/model-host';
import { serve, type PortLike } from '../../src/worker/rpc';
import type { ModelApi } from '../../src/worker/api';

/**
 * The model worker's host on the other end of a MessageChannel, in this process: the page's stores run
 * in Node against the same handlers and the same structured clone as in the browser.
 */
export function inProcessWorker(): WorkerLike {
  const { port1, port2 } = new MessageChannel();
  serve<ModelApi>(port1 as unknown as PortLike, modelHost());
  return Object.assign(port2 as unknown as PortLike, {
    terminate: () => {
      port1.close();
      port2.close();
    },
    addEventListener: (port2 as unknown as { addEventListener: WorkerLike['addEventListener'] }).addEventListener.bind(port2),
  }) as WorkerLike;
}

export const inProcessClient = () => new ModelClient(inProcessWorker);

/** In-memory files as the page sends dropped ones. */
export function memoryFiles(files: Map<string, Uint8Array>, label = 'test files') {
  return { kind: 'files' as const, files: [...files.values()].map((b) => new Blob([b as Uint8Array<ArrayBuffer>])), names: [...files.keys()], label };
}

/**
 * The model worker's entry: onnxruntime sessions (wasm and WebGPU), the tokenizer and chat template,
 * the analysis, the sweep over turns and generation all run here, off the page's thread. The page talks
 * to it through state/model-client.ts.
 */
import { configureRuntime } from '../runtime/ort-runtime';
import { modelHost } from './model-host';
import { serve, type Handlers, type PortLike } from './rpc';
import type { ModelApi } from './api';

// ORT's wasm is served by Vite from our own origin (see vite.config.ts), never a CDN.
const ready = configureRuntime({});
const host = modelHost();
// Listening starts at once (a message that arrives before a listener is lost); each request waits for ORT.
const handlers = Object.fromEntries(
  Object.entries(host).map(([name, h]) => [name, async (args: never, ctx: never) => (await ready, (h as (a: never, c: never) => unknown)(args, ctx))]),
) as unknown as Handlers<ModelApi>;
serve<ModelApi>(self as unknown as PortLike, handlers);

import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { GUARD_BUDGET_MS, guarded, watchGuards } from '../../src/model/tokenizer/guard';
import { ModelClient, type WorkerLike } from '../../src/state/model-client';
import { reply, RpcClient, serve, type PortLike } from '../../src/worker/rpc';
import { guardReader, sharedWatcher, stuckMessage } from '../../src/worker/watchdog';

type Api = {
  add: { args: { a: number; b: number }; result: number; event: never };
  count: { args: { to: number }; result: number; event: number };
  fail: { args: null; result: void; event: never };
  buffer: { args: { n: number }; result: Float32Array; event: never };
};

function pair() {
  const { port1, port2 } = new MessageChannel();
  let served = 0;
  serve<Api>(port1 as unknown as PortLike, {
    async add({ a, b }) {
      return a + b;
    },
    async count({ to }, ctx) {
      let i = 0;
      for (; i < to; i++) {
        await new Promise((r) => setTimeout(r, 1)); // a step, then a chance for a cancel to arrive
        if (ctx.cancelled()) break;
        ctx.emit(i);
        served++;
      }
      return i;
    },
    async fail() {
      const e = new Error('the template failed');
      e.name = 'ModelError';
      throw e;
    },
    async buffer({ n }) {
      const a = new Float32Array(n).fill(2);
      return reply(a, [a.buffer]);
    },
  });
  const client = new RpcClient<Api>(port2 as unknown as PortLike);
  return { client, close: () => (port1.close(), port2.close()), served: () => served };
}

describe('requests to the model worker', () => {
  it('answers each request with its own result, in any order', async () => {
    const { client, close } = pair();
    const [x, y] = await Promise.all([client.call('add', { a: 1, b: 2 }).promise, client.call('add', { a: 10, b: 20 }).promise]);
    expect([x, y]).toEqual([3, 30]);
    close();
  });

  it('streams events before the result, and a cancelled request stops early', async () => {
    const { client, close } = pair();
    const seen: number[] = [];
    expect(await client.call('count', { to: 5 }, (e) => seen.push(e)).promise).toBe(5);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    const later: number[] = [];
    const call = client.call('count', { to: 10_000 }, (e) => {
      later.push(e);
      if (e === 3) call.cancel();
    });
    const stopped = await call.promise;
    expect(stopped).toBeLessThan(100);
    expect(later.length).toBe(stopped);
    close();
  });

  it('keeps the error name and message, and transfers buffers', async () => {
    const { client, close } = pair();
    await expect(client.call('fail', null).promise).rejects.toMatchObject({ name: 'ModelError', message: 'the template failed' });
    const a = await client.call('buffer', { n: 4 }).promise;
    expect(Array.from(a)).toEqual([2, 2, 2, 2]);
    close();
  });

  it('fails every request in flight when the worker is lost', async () => {
    const { client, close } = pair();
    const call = client.call('count', { to: 10_000 });
    client.failAll(new Error('stopped'));
    await expect(call.promise).rejects.toThrow('stopped');
    close();
  });
});

describe('the watchdog over calls into model files', () => {
  it('sees a call that runs past its budget, and only that', () => {
    const buffer = new SharedArrayBuffer(16);
    watchGuards(sharedWatcher(buffer));
    const reader = guardReader(buffer, { ...GUARD_BUDGET_MS, template: 1000 });
    // Short calls, however many: never stuck.
    for (let i = 0; i < 3; i++) guarded('template', 'tokenizer_config.json', () => expect(reader.check(i * 10_000)).toBeNull());
    expect(reader.check(50_000)).toBeNull(); // no call running
    let stuck: ReturnType<typeof reader.check> = null;
    guarded('template', 'chat_template.jinja', () => {
      expect(reader.check(100_000)).toBeNull(); // first seen
      expect(reader.check(100_900)).toBeNull(); // within budget
      // Nested calls count as the outer one.
      guarded('tokenizer', 'tokenizer.json', () => (stuck = reader.check(101_200)));
    });
    expect(stuck).toEqual({ kind: 'template', file: 'chat_template.jinja', ms: 1000 });
    expect(stuckMessage(stuck!)).toMatch(/^chat_template\.jinja: the chat template ran for more than 1 s/);
    expect(reader.check(200_000)).toBeNull();
    watchGuards(null);
  });
});

describe("the page's client of the model worker", () => {
  it('does not start again a worker that fails before it answers, and says so', async () => {
    let spawned = 0;
    const failing = (): WorkerLike => {
      spawned++;
      const errors: ((e: ErrorEvent) => void)[] = [];
      setTimeout(() => errors.forEach((l) => l({ message: 'SyntaxError in model-worker.ts', preventDefault() {} } as ErrorEvent)), 5);
      return {
        postMessage() {},
        addEventListener: ((type: string, l: (e: ErrorEvent) => void) =>
          void (type === 'error' && errors.push(l))) as unknown as WorkerLike['addEventListener'],
        terminate() {},
      };
    };
    const client = new ModelClient(failing);
    const first = client.call('discard', { preparedId: 1 }).promise;
    await expect(first).rejects.toThrow(/the model worker could not start \(the model worker stopped: SyntaxError in model-worker\.ts\)/);
    await expect(client.call('discard', { preparedId: 2 }).promise).rejects.toThrow(/could not start/);
    expect(spawned).toBe(1);
  });
});

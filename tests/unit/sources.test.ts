import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint';
import { urlSource } from '../../src/model/source';
import { tinyModelFiles } from '../helpers/tiny-model';
import { startHubServer } from '../helpers/hub-server';

describe('a Hub-style URL source', () => {
  const single = tinyModelFiles({ family: 'qwen2', seed: 3 });
  const sharded = tinyModelFiles({ family: 'llama', sharded: true, seed: 4 });
  let hub: Awaited<ReturnType<typeof startHubServer>>;
  beforeAll(async () => {
    hub = await startHubServer({ 'acme/tiny-qwen2': single, 'acme/tiny-sharded': sharded });
  });
  afterAll(() => hub.server.close());

  it('loads a single-file checkpoint from {base}/{repo}/resolve/{revision}/{file}, with progress', async () => {
    const seen: string[] = [];
    const ckpt = await loadCheckpoint(urlSource(hub.base, 'acme/tiny-qwen2', 'main'), (p) => {
      if (p.loaded === p.total) seen.push(p.file);
    });
    expect(ckpt.spec.family).toBe('qwen2');
    expect(ckpt.tensors.get('model.norm.weight')!.bytes.byteLength).toBe(32 * 4);
    expect(seen).toEqual(['config.json', 'model.safetensors']);
    expect(hub.requests).toContain('/acme/tiny-qwen2/resolve/main/model.safetensors.index.json'); // asked, 404, fell back
  });

  it('loads a sharded checkpoint through its index', async () => {
    const ckpt = await loadCheckpoint(urlSource(`${hub.base}/`, 'acme/tiny-sharded', 'v1'));
    expect(ckpt.tensors.size).toBe(2 * 9 + 3);
    expect(hub.requests).toContain('/acme/tiny-sharded/resolve/v1/model-00002-of-00002.safetensors');
  });

  it('names the missing file and the URL it looked at', async () => {
    await expect(loadCheckpoint(urlSource(hub.base, 'acme/absent'))).rejects.toThrow(`config.json: is missing from ${hub.base}/acme/absent/resolve/main`);
  });
});

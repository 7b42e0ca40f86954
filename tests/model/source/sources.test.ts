import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { hubSource, resolveHubRepo, type HubRef } from '../../../src/model/source/hub-source';
import { readBytes } from '../../../src/model/checkpoint/tensor-bytes';
import { fileListSource } from '../../../src/model/source/source';
import { tinyModelFiles } from '../../helpers/tiny-model';
import { commitOf, startHubServer } from '../../helpers/hub-server';

describe('a Hub source', () => {
  const single = tinyModelFiles({ family: 'qwen2', seed: 3 });
  const sharded = tinyModelFiles({ family: 'llama', sharded: true, seed: 4 });
  let hub: Awaited<ReturnType<typeof startHubServer>>;
  const ref = (repo: string, revision = 'main'): HubRef => ({ repo, revision, hubUrl: hub.base });
  beforeAll(async () => {
    hub = await startHubServer(
      {
        'acme/tiny-qwen2': single,
        'acme/tiny-sharded': { files: sharded, refs: { main: commitOf('acme/tiny-sharded'), v1: commitOf('acme/tiny-sharded', 'v1') } },
        'acme/gated': { files: single, gated: 'manual', token: 'hf_granted' },
      },
      { gzip: true },
    );
  });
  afterAll(() => hub.server.close());

  it('resolves the revision to a commit and lists sizes before reading any file', async () => {
    const repo = await resolveHubRepo(ref('acme/tiny-qwen2'));
    expect(repo.commit).toBe(commitOf('acme/tiny-qwen2'));
    expect(repo.sizes.get('model.safetensors')).toBe(single.get('model.safetensors')!.byteLength);
    expect(hub.requests.some((r) => r.includes('/resolve/'))).toBe(false);
  });

  it('reads headers by ranges, then tensors one at a time at the commit, with progress', async () => {
    hub.requests.length = 0;
    const seen: string[] = [];
    const src = hubSource(await resolveHubRepo(ref('acme/tiny-qwen2')));
    const ckpt = await loadCheckpoint(src, (p) => {
      if (p.loaded === p.total) seen.push(p.file);
    });
    expect(ckpt.spec.family).toBe('qwen2');
    expect(seen).toEqual(['config.json']); // the weights file: only its header so far
    expect(hub.requests.filter((r) => r.includes('/resolve/')).every((r) => r.includes(commitOf('acme/tiny-qwen2')))).toBe(true);
    expect(hub.requests.some((r) => r.endsWith('model.safetensors.index.json'))).toBe(false); // not listed: no request
    const norm = ckpt.tensors.get('model.norm.weight')!;
    const bytes = await readBytes(norm.data);
    expect(bytes.byteLength).toBe(32 * 4);
  });

  it('loads a sharded checkpoint through its index at a tag', async () => {
    const ckpt = await loadCheckpoint(hubSource(await resolveHubRepo(ref('acme/tiny-sharded', 'v1'))));
    expect(ckpt.tensors.size).toBe(2 * 9 + 3);
    expect(ckpt.weightFiles.map((f) => f.name)).toEqual(['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
  });

  it('tells a missing repo, a gated repo, an ungranted token and a bad revision apart', async () => {
    await expect(resolveHubRepo(ref('acme/absent'))).rejects.toThrow('no model "acme/absent" on');
    await expect(resolveHubRepo(ref('acme/tiny-qwen2', 'nope'))).rejects.toThrow('acme/tiny-qwen2 has no branch, tag or commit "nope"');
    const gated = await resolveHubRepo(ref('acme/gated'));
    expect(gated.gated).toBe('manual');
    await expect(loadCheckpoint(hubSource(gated))).rejects.toThrow('acme/gated is gated: accept its licence on');
    await expect(loadCheckpoint(hubSource(gated, { accessToken: 'hf_other' }))).rejects.toThrow('this token has not been granted access');
    const ok = await loadCheckpoint(hubSource(gated, { accessToken: 'hf_granted' }));
    expect(ok.spec.family).toBe('qwen2');
    await expect(resolveHubRepo(ref('../../admin?q=1'))).rejects.toThrow('is not a Hub model id');
    await expect(resolveHubRepo(ref('acme/x', 'main/../../admin'))).rejects.toThrow('is not a branch, tag or commit name');
  });
});

describe('picked or dropped files', () => {
  const blob = (name: string, text: string) => ({ name, size: text.length, slice: (a: number, b: number) => new Blob([text.slice(a, b)]) });
  it('are found by name, and two of one name (two checkpoints dropped together) are refused naming both paths', async () => {
    const src = fileListSource([
      blob('a/config.json', '{}'),
      blob('a/model.safetensors', 'x'),
      blob('b/model.safetensors', 'yy'),
      blob('tokenizer.json', '{}'),
    ]);
    expect((await src.open('config.json'))!.size).toBe(2);
    expect(await src.open('missing.json')).toBeNull();
    await expect(src.open('model.safetensors')).rejects.toThrow(
      "model.safetensors: 2 of the files given are named model.safetensors (a/model.safetensors, b/model.safetensors): give one model's folder at a time",
    );
  });
});

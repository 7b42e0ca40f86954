import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { commitOf, startHubServer } from '../helpers/hub-server';
import { tinyModelFiles } from '../helpers/tiny-model';

const run = promisify(execFile);
const cli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 26, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('--model owner/name@revision: the Hub, through the Hugging Face cache', async () => {
  const files = tinyModelFiles({ family: 'qwen2', heads: 4, kvHeads: 2, seed: 81 });
  const hub = await startHubServer({ 'acme/tiny': { files, refs: { main: commitOf('acme/tiny'), v2: commitOf('acme/tiny', 'v2') } } });
  afterAll(() => hub.server.close());
  const dir = mkdtempSync(join(tmpdir(), 'il-hub-cache-'));
  const conv = join(dir, 'c.json');
  writeFileSync(
    conv,
    JSON.stringify([
      { role: 'user', content: 'Position (0,0).' },
      { role: 'assistant', content: 'Action: east' },
      { role: 'user', content: 'Position (1,0).' },
      { role: 'assistant', content: 'Action: east' },
    ]),
  );
  const home = join(dir, 'hf');
  const env = { HF_HOME: home, HF_ENDPOINT: hub.base, HF_HUB_CACHE: '', HF_HUB_OFFLINE: '' };
  const storage = join(home, 'hub', 'models--acme--tiny');
  const commit = commitOf('acme/tiny');

  it('downloads once into the cache layout the Python tools use, and reads the model from there', async () => {
    const r = await cli(['analyze', conv, '--model', 'acme/tiny', '--json'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).model).toBe('acme/tiny'); // stdout holds the JSON alone
    expect(r.stderr).toContain(`acme/tiny@${commit.slice(0, 10)}: downloading model.safetensors`);
    expect(readFileSync(join(storage, 'refs', 'main'), 'utf8')).toBe(commit);
    const link = join(storage, 'snapshots', commit, 'model.safetensors');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const sha = createHash('sha256').update(files.get('model.safetensors')!).digest('hex');
    expect(readlinkSync(link)).toBe(join('..', '..', 'blobs', sha));
    // Again: nothing downloaded, the figures the same.
    const served = hub.served.bytes;
    const again = await cli(['analyze', conv, '--model', 'acme/tiny', '--json'], env);
    expect(again.stderr).toContain('from the Hugging Face cache');
    expect(hub.served.bytes).toBe(served);
    expect(JSON.parse(again.stdout).results[0].ratios).toEqual(JSON.parse(r.stdout).results[0].ratios);
  });

  it('offline, and unreachable: the cached revision is used, saying so; a revision never cached is refused by name', async () => {
    const off = await cli(['analyze', conv, '--model', 'acme/tiny@main', '--json'], { ...env, HF_HUB_OFFLINE: '1' });
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(`acme/tiny@main: HF_HUB_OFFLINE=1; using the cached copy at ${commit.slice(0, 10)}`);
    const down = await cli(['analyze', conv, '--model', 'acme/tiny@main'], { ...env, HF_ENDPOINT: 'http://127.0.0.1:9' });
    expect(down.code).toBe(0);
    expect(down.stderr).toContain('the Hub (http://127.0.0.1:9) cannot be reached; using the cached copy');
    const never = await cli(['analyze', conv, '--model', 'acme/tiny@v2'], { ...env, HF_HUB_OFFLINE: '1' });
    expect(never.code).toBe(1);
    expect(never.stderr).toContain(
      '--model acme/tiny@v2: no such folder here, and as a Hub model: --model acme/tiny@v2: HF_HUB_OFFLINE=1, and the Hugging Face cache',
    );
    const unknown = await cli(['analyze', conv, '--model', 'acme/nothing'], env);
    expect(unknown.stderr).toContain('no model "acme/nothing"');
  });

  it('uses a cache laid out by huggingface-cli as it is', async () => {
    // The layout huggingface_hub writes: blobs by sha256 (weights) or git oid, relative links, refs/main.
    const other = join(dir, 'cli-cache');
    const repo = join(other, 'models--acme--tiny');
    const snap = join(repo, 'snapshots', commit);
    mkdirSync(join(repo, 'blobs'), { recursive: true });
    mkdirSync(snap, { recursive: true });
    mkdirSync(join(repo, 'refs'));
    writeFileSync(join(repo, 'refs', 'main'), commit);
    for (const [name, bytes] of files) {
      const id = createHash('sha256').update(bytes).digest('hex');
      writeFileSync(join(repo, 'blobs', id), bytes);
      symlinkSync(join('..', '..', 'blobs', id), join(snap, name));
    }
    const r = await cli(['analyze', conv, '--model', 'acme/tiny', '--json'], { ...env, HF_HUB_CACHE: other, HF_HUB_OFFLINE: '1' });
    expect(r.code).toBe(0);
    expect(existsSync(join(other, 'models--acme--tiny', 'blobs'))).toBe(true);
  });

  it('a sharded batch names the repo and its commit in the manifest', async () => {
    const jsonl = join(dir, 'in.jsonl');
    writeFileSync(jsonl, `${readFileSync(conv, 'utf8')}\n`);
    const parts = join(dir, 'parts');
    const r = await cli(['batch', jsonl, '--model', 'acme/tiny@main', '--shard', '0/1', '--out', parts], env);
    expect(r.code).toBe(0);
    const m = JSON.parse(readFileSync(join(parts, 'part-0-of-1.json'), 'utf8'));
    expect(m.settings.models).toEqual([{ label: 'acme/tiny@main', hub: hub.base, repo: 'acme/tiny', revision: 'main', commit }]);
  });
});

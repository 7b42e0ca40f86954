import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setModelClient } from '../../../src/state/model-client';
import { useModelStore } from '../../../src/state/model-store';
import { inProcessClient } from '../../helpers/in-process-worker';
import { startHubServer } from '../../helpers/hub-server';
import { tinyModelFiles } from '../../helpers/tiny-model';
import { tinyTokenizerConfig, tinyTokenizerJson } from '../../helpers/tiny-tokenizer';
import { virtualCheckpoint } from '../../helpers/virtual-checkpoint';

/**
 * Loading from the Hub as the page does (the model store, on Node's wasm): resolved to a commit, the
 * memory planned from config.json and the safetensors headers, refused or confirmed before the download.
 */
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const llama8b = JSON.parse(readFileSync('tests/fixtures/real-models/meta-llama--Llama-3.1-8B-Instruct/config.json', 'utf8'));

describe('loading a Hub model through the store', () => {
  const tiny = tinyModelFiles({ family: 'qwen2', seed: 41 });
  let hub: Awaited<ReturnType<typeof startHubServer>>;
  const ref = (model: string) => ({ model, revision: 'main', hub: hub.base });
  const settle = () =>
    new Promise<void>((resolve) => {
      const check = () => (useModelStore.getState().load.status !== 'loading' ? resolve() : setTimeout(check, 20));
      check();
    });
  beforeAll(async () => {
    setModelClient(inProcessClient()); // the model worker's host, over a MessageChannel
    hub = await startHubServer({
      'acme/tiny': tiny,
      'acme/gated': { files: tiny, gated: 'manual', token: 'hf_granted' },
      // Llama-3.1-8B's real config and a 16 GB checkpoint made up as it is read.
      'meta-llama/Llama-3.1-8B-Instruct': new Map<string, Uint8Array | ReturnType<typeof virtualCheckpoint>>([
        ['config.json', json(llama8b)],
        ['tokenizer.json', json(tinyTokenizerJson())],
        ['tokenizer_config.json', json(tinyTokenizerConfig())],
        ['model.safetensors', virtualCheckpoint(llama8b)],
      ]),
    });
  });
  afterAll(() => hub.server.close());
  beforeEach(() => useModelStore.setState({ accessToken: '', pending: null, confirmAboveBytes: 200e6 }));

  it('refuses a model that fits no backend before fetching any weight, saying what would fit', async () => {
    hub.served.bytes = 0;
    await useModelStore.getState().openHub(ref('meta-llama/Llama-3.1-8B-Instruct'));
    const { load } = useModelStore.getState();
    expect(load.status).toBe('error');
    expect(load.error).toMatch(
      /^meta-llama\/Llama-3\.1-8B-Instruct \(8,030,261,248 parameters\) cannot be loaded here, and nothing was downloaded: wasm: needs about [\d.]+ GiB .*more than the 3\.50 GiB wasm can use\. Try WebGPU .*, or the command line with --backend native, or a smaller model\.$/,
    );
    expect(hub.served.bytes).toBeLessThan(200_000); // config, tokenizer and the safetensors header only, of 16 GB
  });

  it('shows a large download first, with its commit, size and plan, and loads it on confirmation', async () => {
    useModelStore.setState({ confirmAboveBytes: 1000 });
    await useModelStore.getState().openHub(ref('acme/tiny'));
    const { pending, info } = useModelStore.getState();
    expect(pending).not.toBeNull();
    expect(pending!.label).toMatch(/acme\/tiny@[0-9a-f]{10} \(main\)/);
    expect(pending!.bytes).toBe(tiny.get('model.safetensors')!.byteLength);
    expect(pending!.plans[0]).toMatch(/^wasm: about [\d.]+ GiB, weights in fp32, prepacked, passes up to about [\d,]+ tokens$/);
    expect(info?.ref?.model).not.toBe('acme/tiny'); // nothing loaded yet
    await useModelStore.getState().confirmDownload();
    await settle();
    expect(useModelStore.getState().info?.ref?.model).toBe('acme/tiny');
    expect(useModelStore.getState().info?.report.plan?.storage).toBe('compute');
  });

  it('tells a gated repo without a token from one with it, and keeps the token out of every URL', async () => {
    await useModelStore.getState().openHub(ref('acme/gated'));
    expect(useModelStore.getState().load.error).toContain('acme/gated is gated: accept its licence');
    useModelStore.getState().setAccessToken('hf_granted', false);
    await useModelStore.getState().openHub(ref('acme/gated'));
    await settle();
    expect(useModelStore.getState().info?.ref?.model).toBe('acme/gated');
    expect(hub.requests.some((r) => r.includes('hf_granted'))).toBe(false);
  });

  it('a failed load leaves the model in use and its backend as they were', async () => {
    const before = useModelStore.getState().info;
    await useModelStore.getState().openHub(ref('acme/absent'));
    expect(useModelStore.getState().load.error).toContain('no model "acme/absent"');
    expect(useModelStore.getState().info).toBe(before);
  });

  it('offers a model a link names, and refuses a malformed one, without fetching anything', () => {
    const n = hub.requests.length;
    useModelStore.getState().offerLink({ model: 'a/b', revision: 'main/../../admin?q=1', hub: 'http://192.168.1.1' });
    expect(useModelStore.getState().linkOffer).toMatchObject({
      host: '192.168.1.1',
      foreign: true,
      problem: '"main/../../admin?q=1" is not a branch, tag or commit name',
    });
    useModelStore.getState().offerLink({ model: 'HuggingFaceTB/SmolLM2-135M-Instruct', revision: 'main', hub: null });
    expect(useModelStore.getState().linkOffer).toMatchObject({ host: 'huggingface.co', foreign: false, problem: null });
    expect(hub.requests.length).toBe(n);
  });
});

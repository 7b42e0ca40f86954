import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { CPL_MODEL_LABEL, CPL_MODEL_PATH, DEMO_MODEL_PATH } from '../../src/model/demo';
import { referenceForward } from '../../src/model/graph/reference';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { openModel } from '../../src/runtime/open-model';
import { startAppServer } from '../helpers/app-server';
import { launchChromium } from '../helpers/chromium';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles } from '../helpers/tiny-model';
import { tinyTokenizerConfig, tinyTokenizerJson } from '../helpers/tiny-tokenizer';
import { virtualCheckpoint } from '../helpers/virtual-checkpoint';
import type { VirtualFile } from '../helpers/hub-server';

const SHOTS = process.env.SCREENSHOT_DIR;

describe('the app, used as a person would', () => {
  const good = tinyModelFiles({ family: 'qwen2', heads: 4, kvHeads: 2, seed: 31 });
  const bad = tinyModelFiles({ family: 'llama', seed: 32 });
  bad.set('config.json', new TextEncoder().encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(bad.get('config.json')!)), model_type: 'gpt2' })));
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let page: Page;

  // Real configs with checkpoints made up as they are read: 16 GB and 1 GB that cost nothing until read.
  const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
  const real = (m: string) => JSON.parse(readFileSync(`tests/fixtures/real-models/${m}/config.json`, 'utf8'));
  const virtualRepo = (config: Record<string, unknown>) =>
    new Map<string, Uint8Array | VirtualFile>([
      ['config.json', enc(config)],
      ['tokenizer.json', enc(tinyTokenizerJson())],
      ['tokenizer_config.json', enc(tinyTokenizerConfig())],
      ['model.safetensors', virtualCheckpoint(config)],
    ]);
  // A chat template that loops for minutes: the model worker must be stopped, not the page.
  const looping = new Map(good);
  const loopConfig = tinyTokenizerConfig();
  // Within range()'s 1,000,000-item bound (tokenizer.ts), but each turn searches a string that keeps growing: minutes.
  loopConfig.chat_template = `{% set ns = namespace(s='') %}{% for i in range(1000) %}{% for j in range(990) %}{% set ns.s = ns.s ~ 'xxxxxxxxxx' %}{% if 'y' in ns.s %}{% endif %}{% endfor %}{% endfor %}${loopConfig.chat_template}`;
  looping.set('tokenizer_config.json', enc(loopConfig));
  const repos: Record<string, Map<string, Uint8Array | VirtualFile>> = {
    'acme/tiny-qwen2': good,
    'acme/not-a-llama': bad,
    'acme/looping-template': looping,
    'meta-llama/Llama-3.1-8B-Instruct': virtualRepo(real('meta-llama--Llama-3.1-8B-Instruct')),
    'Qwen/Qwen2.5-0.5B-Instruct': virtualRepo(real('Qwen--Qwen2.5-0.5B-Instruct')),
  };
  beforeAll(async () => {
    app = await startAppServer(repos);
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(app.url);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  const loadHub = async (repo: string) => {
    await page.getByLabel('Hub id').fill(repo);
    await page.getByLabel('from').fill(app.hub);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
  };

  it('starts on the embedded demo model, served by the app itself: on wasm, since this WebGPU adapter is a software one', async () => {
    await expect.poll(() => page.locator('dl.facts').textContent(), { timeout: 90_000 }).toContain('Inertia Lens demo model');
    expect(await page.getByTestId('backend').textContent()).toBe('wasm');
    expect(await page.getByTestId('fallback').textContent()).toMatch(
      /this WebGPU adapter is a software one \(google swiftshader\), slower than wasm: running on wasm/,
    );
    // Loaded again at q4, by the person's choice: named in the model panel, the figures and the link.
    await page.locator('dl.facts').getByLabel('weight precision', { exact: true }).selectOption('q4');
    await expect.poll(() => page.getByTestId('precision').textContent(), { timeout: 150_000 }).toContain('q4 (4-bit weights, blocks of 32');
    expect(await page.locator('dl.facts').textContent()).toContain('quantized to 4 bits');
    await expect.poll(() => page.getByTestId('figures-from').textContent(), { timeout: 60_000 }).toContain('weights q4');
    expect(page.url()).toContain('q=q4');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-q4.png'), fullPage: true });
    await page.locator('dl.facts').getByLabel('weight precision', { exact: true }).selectOption('none');
    await expect.poll(() => page.getByTestId('precision').textContent(), { timeout: 90_000 }).toBe("the checkpoint's own precision");
    // Asked for, WebGPU runs on it all the same.
    await page.goto(`${app.url}/?backend=webgpu`);
    await expect.poll(() => page.getByTestId('backend').textContent(), { timeout: 90_000 }).toBe('WebGPU');
    expect(await page.getByLabel('backend').inputValue()).toBe('webgpu');
  });

  it('loads a Hub id, shows WebGPU, and runs a forward pass that matches the reference', async () => {
    await loadHub('acme/tiny-qwen2');
    const ckpt = await loadCheckpoint(memorySource(good));
    const params = [...ckpt.tensors.values()].reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
    // The demo model is already shown: wait until the facts are the new model's (a WebGPU session on the
    // software adapter: 60–90 s on this shared machine).
    await expect.poll(() => page.locator('dl.facts').textContent(), { timeout: 150_000 }).toContain(params.toLocaleString('en-US'));
    expect(await page.getByTestId('backend').textContent()).toBe('WebGPU');
    // The download went to the origin's private file system, not the page's memory.
    expect(await page.getByTestId('weight-reads').textContent()).toBe(
      "downloaded to this browser's disk, then read a tensor at a time as onnxruntime copied it",
    );

    const text = 'Which way now?';
    await page.getByText('Raw forward pass (next-token probabilities)').click();
    await page.getByLabel('input text').fill(text);
    await page.getByRole('button', { name: 'Run' }).click();
    const result = page.getByTestId('forward-result');
    // The pass may queue behind the new model's first analysis on the software adapter: 60–95 s seen here.
    await result.waitFor({ timeout: 150_000 });
    const tok = await ChatTokenizer.load(memorySource(good));
    const ids = tok.encode(tok.render([{ role: 'user', content: text }], true));
    const ref = await referenceForward(ckpt.spec, resolveWeights(ckpt.spec, ckpt), ids);
    const V = ckpt.spec.vocabSize;
    const last = Array.from(ref.logits.subarray((ids.length - 1) * V));
    const top = last
      .map((l, id) => ({ id, l }))
      .sort((a, b) => b.l - a.l)
      .slice(0, 5)
      .map((t) => String(t.id));
    const shownIds = await result.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(shownIds).toEqual(top);
    expect(await result.textContent()).toContain(`${ids.length} tokens. Attention of layer 1: [4 × ${ids.length} × ${ids.length}]`);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-loaded.png'), fullPage: true });
  }, 360_000);

  it('shows an unsupported model by file and field, keeping the loaded model and the typed text', async () => {
    await page.getByLabel('input text').fill('text I typed');
    await loadHub('acme/not-a-llama');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain('config.json (model_type): model_type "gpt2" is not supported');
    expect(await page.getByLabel('input text').inputValue()).toBe('text I typed');
    expect(await page.getByTestId('backend').textContent()).toBe('WebGPU');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-error.png'), fullPage: true });
  });

  it('refuses a model that fits nowhere before fetching its weights; shows a large download before it starts', async () => {
    app.served.bytes = 0;
    await loadHub('meta-llama/Llama-3.1-8B-Instruct');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 60_000 }).toContain('cannot be loaded here, and nothing was downloaded');
    expect(app.served.bytes).toBeLessThan(200_000); // of 16 GB: config, tokenizer, the safetensors header
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-refused.png'), fullPage: true });
    await loadHub('Qwen/Qwen2.5-0.5B-Instruct');
    const pending = page.getByTestId('pending-download');
    await expect
      .poll(() => pending.textContent(), { timeout: 60_000 })
      .toMatch(/Qwen\/Qwen2\.5-0\.5B-Instruct@[0-9a-f]{10} \(main\): 988 MB of weights in 1 file/);
    expect(await pending.textContent()).toMatch(/webgpu: about [\d.]+ GiB/);
    expect(app.served.bytes).toBeLessThan(400_000);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-pending-download.png'), fullPage: true });
    await pending.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => pending.count()).toBe(0);
    expect(await page.locator('dl.facts').textContent()).toContain('acme/tiny-qwen2'); // the model in use stays
  });

  it('a link names a model: shown with its host, loaded only on a click; loaded once, it loads again offline', async () => {
    app.hubOptions.offline = true; // the Hub can no longer be reached
    const asked = app.requests.length;
    await page.goto(`${app.url}/?model=acme/tiny-qwen2&hub=${encodeURIComponent(app.hub)}&backend=webgpu`);
    const offer = page.getByTestId('link-offer');
    await expect.poll(() => offer.textContent(), { timeout: 30_000 }).toContain('This link names the model acme/tiny-qwen2 at revision main, from 127.0.0.1');
    expect(await offer.textContent()).toContain('not the Hugging Face Hub');
    expect(app.requests.length).toBe(asked); // nothing asked of the named host before the click
    await offer.getByRole('button', { name: 'Look it up' }).click();
    const ckpt = await loadCheckpoint(memorySource(good));
    const params = [...ckpt.tensors.values()].reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
    await expect.poll(() => page.locator('dl.facts').textContent(), { timeout: 90_000 }).toContain(params.toLocaleString('en-US'));
    expect(await page.locator('dl.facts').textContent()).toContain('acme/tiny-qwen2@');
    expect(await page.locator('dl.facts').textContent()).toContain("offline: from this browser's cache");
    app.hubOptions.offline = false;
  });

  it('loads files a person picks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'il-pick-'));
    mkdirSync(dir, { recursive: true });
    for (const [name, bytes] of good) writeFileSync(join(dir, name), bytes);
    await page.getByTestId('pick-files').setInputFiles([...good.keys()].map((n) => join(dir, n)));
    // Named by what was picked, its architecture and size.
    await expect
      .poll(() => page.locator('dl.facts').textContent(), { timeout: 90_000 })
      .toMatch(new RegExp(`${good.size} picked files · \\w+, [\\d.,]+M? parameters`));
    expect(await page.getByTestId('weight-reads').textContent()).toBe('read a tensor at a time as onnxruntime copied it');
  });

  it('picked files of a real model are planned before they are read: where they fit at each precision, and a click to load', async () => {
    // Qwen2.5-0.5B-Instruct's real shape, 988 MB of BF16, as a sparse file: a real header, zeros the disk does not hold.
    const dir = mkdtempSync(join(tmpdir(), 'il-pick-real-'));
    const config = real('Qwen--Qwen2.5-0.5B-Instruct');
    const weights = virtualCheckpoint(config);
    const fd = openSync(join(dir, 'model.safetensors'), 'w');
    writeSync(fd, weights.read(0, 100_000));
    ftruncateSync(fd, weights.size);
    closeSync(fd);
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tinyTokenizerJson()));
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tinyTokenizerConfig()));
    const before = await page.locator('dl.facts').textContent();
    await page
      .getByTestId('pick-files')
      .setInputFiles(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors'].map((n) => join(dir, n)));
    const pending = page.getByTestId('pending-download');
    await expect.poll(() => pending.textContent(), { timeout: 60_000 }).toContain('988 MB of weights in 1 file, read a tensor at a time from your disk');
    const fits = await pending.getByTestId('fits').textContent();
    expect(fits).toMatch(/fits at full precision \([\d.]+ GiB, passes up to about [\d,]+ tokens\), q8 \([\d.]+ GiB.*q4 \([\d.]+ GiB/);
    expect(await pending.getByRole('button', { name: /^Load 988 MB$/ }).count()).toBe(1);
    // Choosing q4 there plans it again at q4: nothing loads before the click.
    await pending.getByLabel('weight precision', { exact: true }).selectOption('q4');
    await expect.poll(() => pending.getByRole('button', { name: 'Load 988 MB at q4' }).count(), { timeout: 60_000 }).toBe(1);
    expect(await pending.textContent()).toMatch(/weights at q4 \(4-bit blocks of 32\)/);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-pending-files.png'), fullPage: true });
    await pending.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('dl.facts').getByLabel('weight precision', { exact: true }).inputValue()).toBe('none');
    expect(await page.locator('dl.facts').textContent()).toBe(before); // the model in use stays
  });

  it('a chat template that runs away is stopped after its budget, naming the file; the page and the pasted text stay', async () => {
    await page.getByRole('button', { name: 'paste or edit as text' }).click();
    const text = 'user: Which way out of the maze?\nassistant: Left, then right.\nuser: And then?\nassistant: Right again.\n';
    await page.getByLabel('conversation text').fill(text);
    await loadHub('acme/looping-template');
    const alert = page.getByRole('alert').filter({ hasText: 'the chat template ran for more than 5 s' }).first();
    await expect
      .poll(() => alert.textContent(), { timeout: 90_000 })
      .toContain('tokenizer_config.json: the chat template ran for more than 5 s on one call and was stopped');
    expect(await page.getByLabel('conversation text').inputValue()).toBe(text);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'app-template-stopped.png'), fullPage: true });
    // A fresh worker took its place: another model loads and runs.
    await loadHub('acme/tiny-qwen2');
    await expect.poll(() => page.locator('dl.facts').textContent(), { timeout: 90_000 }).toContain('acme/tiny-qwen2@');
  });

  it('compares the demo model with its CPL-tuned twin in one click: both scored in the page, each equal to its own analysis', async () => {
    const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await p.goto(`${app.url}/?backend=wasm`);
    await p.getByTestId('fresh-note').waitFor({ timeout: 90_000 });
    await p.getByTestId('compare-models').check();
    // Comparing policies is off while models are compared, and says why.
    expect(await p.getByTestId('compare-policies-off').textContent()).toContain('off while models are compared');
    await p.getByRole('button', { name: 'Compare with the CPL-tuned demo model' }).click();
    const diagB = p.getByTestId('figure-b-full-diagonal');
    await diagB.waitFor({ timeout: 90_000 });
    expect(await p.getByTestId('models-note').textContent()).toContain(`Model B is ${CPL_MODEL_LABEL}`);
    expect(await p.getByTestId('models-note').textContent()).toContain('Both split the text into the same tokens.');
    const maze = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!;
    for (const [testId, dir] of [
      ['figure-full-diagonal', DEMO_MODEL_PATH],
      ['figure-b-full-diagonal', CPL_MODEL_PATH],
    ] as const) {
      const m = await openModel(dirSource(dir));
      const fresh = await analyzePolicy(m, maze, 'full');
      await m.session.release();
      expect(Math.abs(Number(await p.getByTestId(testId).getAttribute('data-value')) - fresh.diagonal)).toBeLessThan(1e-4);
    }
    if (SHOTS) await p.screenshot({ path: join(SHOTS, 'app-compare-models.png'), fullPage: true });
    // The link carries model B (an embedded one): opened, it compares the same two models again.
    await expect.poll(() => p.evaluate(() => location.search)).toContain('mb=demo-cpl');
    const again = await browser.newPage();
    await again.goto(await p.evaluate(() => location.href));
    await again.getByTestId('figure-b-full-diagonal').waitFor({ timeout: 90_000 });
    expect(await again.getByTestId('figure-b-full-diagonal').getAttribute('data-value')).toBe(await diagB.getAttribute('data-value'));
    await again.close();
    // Each model writes its own answer: two texts, and still one tokenizer (read over the shared context).
    await p.getByRole('button', { name: /^Generate each model's answer/ }).click();
    await expect
      .poll(() => p.getByTestId('models-note').textContent(), { timeout: 120_000 })
      .toContain('Each model scores the answer it wrote. Both split the text into the same tokens.');
    await p.close();
  });

  it('compares four models: a link names B and C, a click adds D; each scored, the link carries all three', async () => {
    const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await p.goto(`${app.url}/?backend=wasm&mb=demo-cpl&mc=demo&qc=q8`);
    await p.getByTestId('figure-c-full-diagonal').waitFor({ timeout: 120_000 });
    expect(await p.getByTestId('compare-models').isChecked()).toBe(true);
    await p.getByTestId('add-model').click();
    await p.getByTestId('compare-slot-d').getByRole('button', { name: 'Compare with the CPL-tuned demo model' }).click();
    await p.getByTestId('figure-d-full-diagonal').waitFor({ timeout: 120_000 });
    // B and D are the same model at the same precision: the same figures; C is the demo model at q8, close to A.
    expect(await p.getByTestId('figure-d-full-diagonal').getAttribute('data-value')).toBe(
      await p.getByTestId('figure-b-full-diagonal').getAttribute('data-value'),
    );
    const [a, c] = await Promise.all(
      ['figure-full-diagonal', 'figure-c-full-diagonal'].map(async (id) => Number(await p.getByTestId(id).getAttribute('data-value'))),
    );
    expect(Math.abs(a! - c!)).toBeLessThan(0.005);
    expect(a).not.toBe(c);
    const note = await p.getByTestId('models-note').textContent();
    for (const name of ['B', 'C', 'D']) expect(note).toContain(`Model ${name} is `);
    await expect.poll(() => p.evaluate(() => location.search)).toContain('mb=demo-cpl&mc=demo&qc=q8&md=demo-cpl');
    // The turns chart draws each compared model's lines over A's.
    await expect.poll(() => p.getByTestId('turns-chart').textContent(), { timeout: 120_000 }).toContain('model D: diagonal ratio');
    if (SHOTS) await p.screenshot({ path: join(SHOTS, 'app-compare-four.png'), fullPage: true });
    await p.close();
  });

  it('a link names a Hub model as model B: compare models on, the model offered in its panel, nothing fetched before a click', async () => {
    const p = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const urls: string[] = [];
    p.on('request', (r) => urls.push(r.url()));
    await p.goto(`${app.url}/?backend=wasm&mb=acme/tiny-qwen2&mbrev=v2`);
    await p.getByTestId('fresh-note').waitFor({ timeout: 90_000 });
    expect(await p.getByTestId('compare-models').isChecked()).toBe(true);
    const offer = p.locator('[data-testid="compare-slot-b"]').getByTestId('link-offer');
    await expect
      .poll(() => offer.textContent(), { timeout: 30_000 })
      .toContain('This link names the model acme/tiny-qwen2 at revision v2, from huggingface.co');
    expect(await offer.getByRole('button', { name: 'Look it up' }).isVisible()).toBe(true);
    expect(urls.filter((u) => !u.startsWith(app.url))).toEqual([]);
    await p.close();
  });

  it("says model B's load error once, with its loader open, and keeps model A", async () => {
    const p = await browser.newPage();
    await p.goto(`${app.url}/?backend=wasm`);
    await p.getByTestId('fresh-note').waitFor({ timeout: 90_000 });
    await p.getByTestId('compare-models').check();
    const panel = p.locator('[data-lesson="compare-models"]');
    await panel.getByText('Load model B from the Hub or from files').click();
    await panel.getByLabel('Hub id').fill('acme/not-a-llama');
    await panel.getByLabel('from').fill(app.hub);
    await panel.getByRole('button', { name: 'Load', exact: true }).click();
    await expect
      .poll(() => panel.getByRole('alert').allTextContents(), { timeout: 30_000 })
      .toEqual([expect.stringContaining('model_type "gpt2" is not supported')]);
    expect(await p.getByTestId('figure-full-diagonal').count()).toBe(1);
    await p.close();
  });
});

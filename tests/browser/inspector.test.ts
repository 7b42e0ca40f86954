import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzePolicy } from '../../src/analysis/analyze';
import { generateAnswer, withAnswer } from '../../src/analysis/answer';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { selectTurn } from '../../src/conversation/turns';
import { CATEGORIES } from '../../src/metrics/categories';
import { DEMO_MODEL_PATH } from '../../src/model/demo';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';
import { openModel } from '../../src/runtime/open-model';
import { FULL_MATRIX_MAX_TOKENS } from '../../src/state/limits';
import { cachedStartResult } from '../../src/state/cached-result';
import { startAppServer } from '../helpers/app-server';
import { axeViolations } from '../helpers/axe';
import { launchChromium } from '../helpers/chromium';
import { pasteConversation, repeatTurns, sweepDone, togglePolicy } from '../helpers/inspector-driver';

const SHOTS = process.env.SCREENSHOT_DIR;
/** The demo model's final layer, the one the figures are of by default. */
const FINAL_LAYER = (JSON.parse(readFileSync(join(DEMO_MODEL_PATH, 'config.json'), 'utf8')) as { num_hidden_layers: number }).num_hidden_layers - 1;
const POLICIES = ['full', 'clip:12:1', 'ao'] as const;
type Figures = { [k: string]: number; diagonal: number };

/** What `inertia-lens analyze --json` prints for the maze example (the CLI, run as a person would). */
async function cliFigures(): Promise<Record<string, Figures>> {
  const args = ['bin/inertia-lens.mjs', 'analyze', 'examples/maze.json', ...POLICIES.flatMap((p) => ['--policy', p]), '--json'];
  const { stdout } = await promisify(execFile)('node', args, { maxBuffer: 64 << 20 });
  const doc = JSON.parse(stdout) as { results: { policy: string; ratios: Record<string, number>; diagonal: number }[] };
  return Object.fromEntries(doc.results.map((r) => [r.policy, { ...r.ratios, diagonal: r.diagonal }]));
}

async function shownFigures(page: Page, policy: string): Promise<Figures> {
  const out: Figures = { diagonal: 0 };
  for (const k of [...CATEGORIES, 'diagonal']) out[k] = Number(await page.getByTestId(`figure-${policy}-${k}`).getAttribute('data-value'));
  return out;
}

function expectClose(shown: Figures, want: Figures, tol = 1e-4) {
  for (const k of Object.keys(want)) expect(Math.abs(shown[k]! - want[k]!), k).toBeLessThanOrEqual(tol);
}

const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

describe('the inspector, used as a person would', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let page: Page;
  let cli: Record<string, Figures>;
  const timings: string[] = [];

  beforeAll(async () => {
    [app, browser, cli] = await Promise.all([startAppServer(), launchChromium(), cliFigures()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  });
  afterAll(async () => {
    if (timings.length) console.log(`inspector timings (this machine, Chromium):\n  ${timings.join('\n  ')}`);
    await browser?.close();
    await app?.server.close();
  });

  it('starts on the maze example with cached figures at once, then the demo model computes its own on WebGPU', async () => {
    const t0 = Date.now();
    await page.goto(`${app.url}/?backend=webgpu`); // auto would pick wasm on this software adapter
    await page.getByTestId('cached-note').waitFor({ timeout: 30_000 });
    const cached = cachedStartResult().result;
    expectClose(await shownFigures(page, 'full'), { ...cached.ratios, diagonal: cached.diagonal }, 1e-6);
    await shot(page, 'inspector-1-start-cached');
    await page.getByTestId('fresh-note').waitFor({ timeout: 150_000 });
    timings.push(`start → demo model's own figures: ${Date.now() - t0} ms`);
    expect(await page.getByTestId('backend').textContent()).toBe('WebGPU');
    // On WebGPU each of the demo's 2 layers is its own session (model/memory/memory.ts layersPerSegment).
    expect(await page.getByTestId('segments').textContent()).toMatch(/^2 onnxruntime sessions of up to 1 layer,/);
    expect(await page.getByTestId('fresh-note').textContent()).toContain('on WebGPU');
    expectClose(await shownFigures(page, 'full'), cli.full!);
    await page.getByTestId('turns-chart').waitFor();
    await shot(page, 'inspector-2-full-webgpu');
  }, 200_000);

  it('toggling Full → Clip-12→1 → AO shows what `inertia-lens analyze` prints, to 1e-4', async () => {
    for (const [name, policy] of [
      ['Clip-12→1', 'clip:12:1'],
      ['AO', 'ao'],
    ] as const) {
      timings.push(`toggle to ${name} → updated figures (WebGPU, software adapter): ${await togglePolicy(page, name, policy)} ms`);
      expectClose(await shownFigures(page, policy), cli[policy]!);
      expect(await page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('true');
      await shot(page, `inspector-3-${policy.replace(/:/g, '-')}`);
    }
    // The figures moved the way paper 2 reports: AO lowers the diagonal ratio.
    expect(cli.ao!.diagonal).toBeLessThan(cli.full!.diagonal);
  }, 320_000);

  it('hovering the heatmap names both tokens and the weight; a click locks it and the token view follows', async () => {
    const canvas = page.getByTestId('heatmap-ao');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const at = { x: box.width * 0.6, y: box.height * 0.5 };
    await canvas.hover({ position: at });
    const line = page.getByTestId('heatmap-hover-ao');
    await expect.poll(() => line.textContent()).toMatch(/^token #\d+ ".*" \(current answer, turn 14\) looks at #\d+ .*: \d\.\d{5}$/);
    await canvas.click({ position: at });
    await expect.poll(() => line.textContent()).toMatch(/^locked · token #/);
    await canvas.hover({ position: { x: 20, y: 20 } });
    expect(await line.textContent()).toMatch(/^locked · /);
    expect(await page.getByTestId('token-source').textContent()).toMatch(/from token #\d+/);
    await canvas.press('Escape');
    if (SHOTS) await page.locator('section', { has: canvas }).screenshot({ path: join(SHOTS, 'inspector-4-heatmap.png') });
    if (SHOTS) await page.locator('section', { has: page.getByTestId('token-view') }).screenshot({ path: join(SHOTS, 'inspector-5-tokens.png') });
  });

  it('exports the heatmap (PNG, SVG) and the figures (CSV, JSON) as files', async () => {
    const save = async (button: string, scope = page.locator('body')) => {
      const [dl] = await Promise.all([page.waitForEvent('download'), scope.getByRole('button', { name: button, exact: true }).first().click()]);
      const path = await dl.path();
      return { name: dl.suggestedFilename(), bytes: readFileSync(path) };
    };
    const csv = await save('Figures as CSV');
    expect(csv.name).toBe('inertia-lens-turn14.csv');
    const rows = csv.bytes.toString('utf8').split('\n');
    expect(rows[0]).toBe(
      'policy,label,answer,turn,layer,radius,tokens,sink,system,user,prior,current,diagonal,diagonal_copy_aligned,context_tokens,prefilled,model,revision,backend,precision,heads_off,heads_off_by',
    );
    expect(Math.abs(Number(rows[1]!.split(',')[12]) - cli.ao!.diagonal)).toBeLessThanOrEqual(1e-4);
    // What the figures were computed from travels with them.
    expect(rows[1]!.split(',').slice(-6)).toEqual(['Inertia Lens demo model', 'main', 'webgpu', 'none', '', '']);
    expect(rows[1]!.split(',')[2]).toBe('conversation');
    const json = JSON.parse((await save('Figures as JSON')).bytes.toString('utf8'));
    expect(json).toMatchObject({ model: 'Inertia Lens demo model', revision: 'main', backend: 'webgpu', precision: 'none', head: 'mean' });
    expect(json.results[0]).toMatchObject({ policy: 'ao', answer: 'conversation' });
    const png = await save('PNG');
    expect(png.name).toBe('inertia-lens-ao-turn14.png');
    expect(png.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const svg = await save('SVG');
    expect(svg.bytes.toString('utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg".*<\/svg>\n$/s);
    // The PNG is the SVG's figure (title, legend, axes, scale) at twice its size: IHDR's width and height.
    const [w, h] = /<svg [^>]*width="(\d+)" height="(\d+)"/.exec(svg.bytes.toString('utf8'))!.slice(1).map(Number);
    expect([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)]).toEqual([2 * w!, 2 * h!]);
  });

  it('compare mode puts policies side by side with the deltas', async () => {
    await page.getByLabel('compare 2–4 policies side by side').check();
    await page.getByTestId('heatmap-clip:12:1').waitFor({ timeout: 150_000 });
    await page.getByTestId('heatmap-ao').waitFor();
    const table = page.getByTestId('figures');
    await expect.poll(() => table.locator('thead tr').first().locator('th').allTextContents()).toEqual(['figure', 'AO', 'Clip-12→1']);
    // Under each policy its value, and after the first its Δ against the first, each column headed.
    expect(await table.locator('thead tr').nth(1).locator('th').allTextContents()).toEqual(['value', 'value', 'Δ vs AO']);
    expectClose(await shownFigures(page, 'clip:12:1'), cli['clip:12:1']!);
    const delta = await table.locator('tr', { hasText: 'diagonal ratio' }).locator('td.delta').textContent();
    expect(Number(delta!.replace('−', '-'))).toBeCloseTo(cli['clip:12:1']!.diagonal - cli.ao!.diagonal, 3);
    // One colour scale for both heatmaps, so brightness compares; the switch gives each its own.
    const scales = () =>
      page
        .locator('.heatmap .muted')
        .allTextContents()
        .then((t) => t.map((x) => /0 … ([\d.]+)/.exec(x)?.[1]));
    const shared = await scales();
    expect(shared).toHaveLength(2);
    expect(shared[0]).toBe(shared[1]);
    await page.getByTestId('one-scale').uncheck();
    await expect.poll(async () => new Set(await scales()).size).toBe(2);
    expect((await scales()).map(Number).every((m) => m <= Number(shared[0]))).toBe(true);
    await page.getByTestId('one-scale').check();
    await shot(page, 'inspector-6-compare');
    await page.getByLabel('compare 2–4 policies side by side').uncheck();
  }, 200_000);

  it('follows the system colour scheme (dark)', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 18, 18)');
    // Dark, as light: nothing axe-core flags (the category colours as text are the bright ones here).
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'inspector-6b-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('a malformed paste shows the message at its line and keeps the text', async () => {
    const text = '[\n  {"role": "user", "content": "Where now?"},\n  {"role": "assistant" "content": "east"}\n]';
    await page.getByRole('button', { name: 'paste or edit as text' }).click();
    await page.getByLabel('conversation text').fill(text);
    const errors = page.getByTestId('conversation-errors');
    await expect.poll(() => errors.textContent(), { timeout: 10_000 }).toMatch(/line 3/);
    expect(await page.getByLabel('conversation text').inputValue()).toBe(text);
    await page.getByTestId('stale-note').waitFor();
    // The figures on screen are the earlier conversation's: they are not exported as this one's.
    expect(await page.getByRole('button', { name: 'Figures as CSV' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('export-stale').textContent()).toContain('of an earlier conversation');
    await shot(page, 'inspector-7-paste-error');
    // A role the tool does not know is named with its message number.
    await page.getByLabel('conversation text').fill('[{"role": "user", "content": "hi"}, {"role": "robot", "content": "beep"}]');
    await expect.poll(() => errors.textContent()).toContain('message 2');
    await page.getByLabel('example').selectOption('maze');
  });
});

describe('the inspector on wasm: generation and long conversations', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let page: Page;
  const timings: string[] = [];

  beforeAll(async () => {
    [app, browser] = await Promise.all([startAppServer(), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 150_000 });
    expect(await page.getByTestId('backend').textContent()).toBe('wasm');
    // The page is cross-origin isolated, so wasm runs on every core the browser reports (at most 8).
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    expect(await page.getByTestId('threads').textContent()).toMatch(new RegExp(`^${Math.min(8, cores)}\\b`));
  }, 200_000);
  afterAll(async () => {
    if (timings.length) console.log(`inspector timings on wasm (this machine, Chromium):\n  ${timings.join('\n  ')}`);
    await browser?.close();
    await app?.server.close();
  });

  it('toggles policies (timed on wasm)', async () => {
    for (const [name, policy] of [
      ['Clip-12→1', 'clip:12:1'],
      ['AO', 'ao'],
      ['Full', 'full'],
    ] as const) {
      timings.push(`toggle to ${name} → updated figures: ${await togglePolicy(page, name, policy, 60_000)} ms`);
    }
  }, 200_000);

  it('generates the answer under the policy, streamed, then scores that answer', async () => {
    await page.getByLabel('example').selectOption('arithmetic');
    await page.getByTestId('fresh-note').waitFor({ timeout: 60_000 });
    const model = await openModel(dirSource(DEMO_MODEL_PATH));
    const conv = parseConversation(readFileSync('examples/arithmetic.json', 'utf8')).conversation!;
    const turn = selectTurn(conv).current.index;
    const expected = await generateAnswer(model, conv, 'full', turn);
    // By keyboard: the button keeps the focus while the answer is written (aria-disabled, not disabled).
    await page.getByTestId('generate').focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('generate');
    const done = page.getByTestId('generated');
    await done.waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('generate');
    expect(await done.textContent()).toContain(expected);
    // The scored answer is now the model's own: its tokens are the current-answer frame of the token view.
    await expect.poll(async () => (await page.getByTestId('token-view').locator('.frame').last().textContent()) ?? '', { timeout: 60_000 }).toContain(expected);
    const scored = await analyzePolicy(model, withAnswer(conv, turn, expected), 'full');
    await expect
      .poll(async () => Number(await page.getByTestId('figure-full-diagonal').getAttribute('data-value')), { timeout: 60_000 })
      .toBeCloseTo(scored.diagonal, 4);
    await shot(page, 'inspector-8-generated');
    // Every figure says whose answer it scored; switching policy, the note says the model's answer is not the one shown.
    expect(await page.getByTestId('figures-from').textContent()).toContain('Full: the answer the model wrote here');
    await togglePolicy(page, 'AO', 'ao', 60_000);
    expect(await page.getByTestId('generated').textContent()).toContain('not shown now: choose Full to see it scored');
    expect(await page.getByTestId('figures-from').textContent()).toContain("AO: the conversation's answer");
    await togglePolicy(page, 'Full', 'full', 60_000);
    await page.getByRole('button', { name: "use the file's answer" }).click();
    await model.session.release();
  }, 300_000);

  it('a link reproduces the view (model, backend, policy, turn, radius, conversation)', async () => {
    await page.getByLabel('example').selectOption('maze');
    await page.getByLabel('scored turn', { exact: true }).selectOption('9');
    await page.getByLabel('diagonal radius').fill('3');
    await expect
      .poll(async () => (await page.locator('#figures-title').textContent()) ?? '', { timeout: 150_000 })
      .toContain(`turn 9, layer ${FINAL_LAYER}, mean of heads, r = 3`);
    await page.getByLabel('head', { exact: true }).selectOption('1');
    await expect.poll(async () => (await page.locator('#figures-title').textContent()) ?? '').toContain(`turn 9, layer ${FINAL_LAYER}, head 1, r = 3`);
    const url = page.url();
    expect(url).toContain('turn=9');
    expect(url).toContain('r=3');
    expect(url).toContain('example=maze');
    expect(url).toContain('head=1');
    const want = await shownFigures(page, 'full');
    const other = await browser.newPage();
    expect(url).toContain('backend=wasm');
    await other.goto(url);
    await expect
      .poll(async () => (await other.locator('#figures-title').textContent()) ?? '', { timeout: 150_000 })
      .toContain(`turn 9, layer ${FINAL_LAYER}, head 1, r = 3`);
    await other.getByTestId('fresh-note').waitFor({ timeout: 150_000 });
    expect(await other.getByTestId('backend').textContent()).toBe('wasm');
    expectClose(await shownFigures(other, 'full'), want);
    await other.close();
  }, 320_000);
  it('draws a ~2,048-token conversation: the answer rows, then the full matrix (render time printed)', async () => {
    const tok = await ChatTokenizer.load(dirSource(DEMO_MODEL_PATH));
    const maze = parseConversation(readFileSync('examples/maze.json', 'utf8')).conversation!.messages;
    const { messages, tokens: S } = repeatTurns(tok, maze, FULL_MATRIX_MAX_TOKENS);
    await page.getByLabel('scored turn', { exact: true }).selectOption('');
    await pasteConversation(page, messages);
    const canvas = page.getByTestId('heatmap-full');
    await expect
      .poll(async () => (await page.locator('.heatmap .muted').first().textContent()) ?? '', { timeout: 120_000 })
      // The chat template's end marks after the answer are columns no row can see: said so.
      .toMatch(new RegExp(`× ${S} columns \\(every token in view; a row sees only those before it, so no row sees the last \\d+\\)`));
    await canvas.scrollIntoViewIfNeeded();
    timings.push(`${S} tokens, answer rows: heatmap drawn in ${await canvas.getAttribute('data-render-ms')} ms`);
    await sweepDone(page);
    // Hover along one row of the heatmap: the token view follows the row, so not one of its spans re-renders.
    const box = (await canvas.boundingBox())!;
    const renders = () => page.evaluate(() => (window as unknown as { __tokenRenders: { count: number } }).__tokenRenders.count);
    await canvas.hover({ position: { x: box.width * 0.3, y: box.height * 0.5 } });
    await expect.poll(() => page.getByTestId('token-source').textContent()).toMatch(/from token #\d+/);
    const before = await renders();
    for (const f of [0.4, 0.5, 0.6, 0.7]) await canvas.hover({ position: { x: box.width * f, y: box.height * 0.5 } });
    await expect.poll(() => page.getByTestId('heatmap-hover-full').textContent()).toMatch(/looks at #\d+/);
    expect(await renders()).toBe(before);
    await canvas.hover({ position: { x: 2, y: 2 } });
    await page.getByLabel('full matrix', { exact: true }).check();
    await expect
      .poll(async () => (await page.locator('.heatmap .muted').first().textContent()) ?? '', { timeout: 180_000 })
      .toContain(`${S} rows (tokens looking) × ${S} columns (every token in view; a row sees only those before it)`);
    timings.push(`${S} tokens, full ${S} × ${S} matrix: heatmap drawn in ${await canvas.getAttribute('data-render-ms')} ms`);
    await shot(page, 'inspector-9-full-matrix-2048');
    expect(S).toBeGreaterThan(1900);
  }, 700_000);
});

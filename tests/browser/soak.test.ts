import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startAppServer } from '../helpers/app-server';
import { CHROMIUM } from '../helpers/chromium';

/**
 * A long session: 300 mixed edits, policy toggles, turn and radius changes on the demo model. The page's
 * and the model worker's memory after the last must stay within 10 % of where they stood after the first
 * 10 (the worker keeps bounded caches; the page keeps only what it shows). Measured with Chromium's
 * performance.measureUserAgentSpecificMemory (the app is cross-origin isolated), eager and after a GC.
 */
const ACTIONS = 300;
const WARM = 10;

/**
 * Bytes of memory in the page (everything the measurement does not attribute to a worker: the window's
 * JavaScript, the DOM, canvases, and what it leaves unattributed) and in its dedicated workers: the least of
 * three readings, each after a GC. The page's part counts the unattributed share because Chromium moves
 * memory between it and the window from one reading to the next (31.8 + 10.0 MiB, then 40.5 + 0.5).
 */
async function memory(page: Page): Promise<{ page: number; workers: number }> {
  const one = () =>
    page.evaluate(async () => {
      (globalThis as unknown as { gc?: () => void }).gc?.();
      type Breakdown = { bytes: number; attribution: { scope: string }[] };
      const m = await (performance as unknown as { measureUserAgentSpecificMemory(): Promise<{ breakdown: Breakdown[] }> }).measureUserAgentSpecificMemory();
      const inWorker = (b: Breakdown) => b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope');
      const sum = (bs: Breakdown[]) => bs.reduce((s, b) => s + b.bytes, 0);
      return { page: sum(m.breakdown.filter((b) => !inWorker(b))), workers: sum(m.breakdown.filter(inWorker)) };
    });
  const xs = [await one(), await one(), await one()];
  return { page: Math.min(...xs.map((x) => x.page)), workers: Math.min(...xs.map((x) => x.workers)) };
}

/**
 * Sets the editor's text as a paste handler would: the value, then an input event. Not `fill`, which types
 * into the textarea as an undoable edit: Chromium keeps every such edit's removed and inserted nodes for
 * Ctrl+Z (its own history, bounded by its own depth), which grew the page's DOM from 0.56 to 1.27 MiB
 * over 25 edits, the browser's memory and not the app's.
 */
async function edit(editor: Locator, text: string): Promise<void> {
  await editor.evaluate((el, v) => {
    const area = el as HTMLTextAreaElement;
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(area, v);
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, text);
}

/** Waits until nothing is being scored (the figures and the sweep are in). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.querySelector('[role="status"]'), null, { timeout: 120_000, polling: 50 });
}

describe('a long session', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  beforeAll(async () => {
    app = await startAppServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless=new',
        '--no-sandbox',
        '--js-flags=--expose-gc',
        '--enable-blink-features=ForceEagerMeasureMemory',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  it(`${ACTIONS} edits, toggles and turn changes: the page's and the worker's memory within 10 % of where they stood after the first ${WARM}`, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await page.getByRole('button', { name: 'paste or edit as text' }).click();
    const editor = page.getByLabel('conversation text');
    const original = await editor.inputValue();
    const turns = await page
      .getByLabel('scored turn', { exact: true })
      .locator('option')
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    const policies = ['Window-6', 'Clip-12→1', 'AO', 'LT', 'Full'];
    let warm: { page: number; workers: number } | null = null;
    for (let i = 0; i < ACTIONS; i++) {
      // A fixed mix, the same every run: edits, policy changes, turn changes, radius changes.
      const kind = i % 4;
      if (kind === 0) await edit(editor, original.replace(/Walls: north/, `Walls: north${' '.repeat(1 + (i % 7))}`));
      else if (kind === 1) await page.getByRole('button', { name: policies[i % policies.length]!, exact: true }).click();
      else if (kind === 2) await page.getByLabel('scored turn', { exact: true }).selectOption(turns[i % turns.length]!);
      else await page.getByLabel('diagonal radius').fill(String(1 + (i % 6)));
      if (i % 25 === 24 || i === WARM - 1) await settled(page);
      if (i === WARM - 1) warm = await memory(page);
    }
    await settled(page);
    const end = await memory(page);
    const mib = (n: number) => (n / 2 ** 20).toFixed(1);
    console.log(
      `memory after ${WARM} actions: page ${mib(warm!.page)} MiB, workers ${mib(warm!.workers)} MiB; after ${ACTIONS}: page ${mib(end.page)} MiB, workers ${mib(end.workers)} MiB`,
    );
    expect(errors).toEqual([]);
    expect(await page.getByTestId('analysis-error').count()).toBe(0);
    expect(warm!.workers).toBeGreaterThan(0);
    expect(end.page).toBeLessThanOrEqual(warm!.page * 1.1);
    expect(end.workers).toBeLessThanOrEqual(warm!.workers * 1.1);
    await page.close();
  }, 900_000);
});

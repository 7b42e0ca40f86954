import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer } from '../helpers/app-server';
import { launchChromium } from '../helpers/chromium';

const SHOTS = process.env.SCREENSHOT_DIR;
type Cli = {
  results: { policy: string; ratios: Record<string, number>; diagonal: number; layers?: { diagonal: number; perHead: { diagonal: number }[] }[] }[];
};

/** `inertia-lens analyze examples/maze.json --json` with more arguments: the CLI, run as a person would. */
async function cli(...more: string[]): Promise<Cli> {
  const { stdout } = await promisify(execFile)('node', ['bin/inertia-lens.mjs', 'analyze', 'examples/maze.json', '--json', ...more], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout) as Cli;
}

/** The value a grid cell names (4 decimals), by its layer.head. */
const cellValue = async (page: Page, grid: string, head: string) =>
  Number(/: (-?[\d.]+)/.exec((await page.getByTestId(grid).locator(`[data-cell="${head}"]`).getAttribute('aria-label'))!)![1]);
const figure = async (page: Page, k: string) => Number(await page.getByTestId(`figure-full-${k}`).getAttribute('data-value'));
const settled = (page: Page) => page.waitForFunction(() => !document.querySelector('[role="status"]'), null, { timeout: 120_000, polling: 50 });

/**
 * Every layer and head of the demo model on the maze example, as a person uses it: the grid's cells are the
 * CLI's per-head diagonals, a cell opens that head's heatmap (mouse and keyboard), and heads switched off
 * change the figures to the CLI's --ablate figures, travel in the link, and write an answer beside the
 * answer with every head on.
 */
describe('layers × heads, and switching heads off', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  let all: Cli;
  let ablated: Cli;
  let meanAblated: Cli;
  beforeAll(async () => {
    [app, browser, all, ablated, meanAblated] = await Promise.all([
      startAppServer(),
      launchChromium(),
      cli('--all-layers'),
      cli('--ablate', '0.4', '--ablate', '1.1'),
      cli('--ablate', '0.4', '--ablate', '1.1', '--ablate-mean'),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  for (const [width, height, name] of [
    [1280, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    it(`at ${name} width: the grid is the CLI's, a cell opens its head, and heads switched off change the figures as --ablate does`, async () => {
      const page = await browser.newPage({ viewport: { width, height } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${app.url}/?backend=wasm`);
      await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
      await page.getByRole('button', { name: 'Show every layer and head' }).click();
      await page.getByTestId('head-grid-0').waitFor({ timeout: 120_000 });
      await settled(page);
      const layers = all.results[0]!.layers!;
      for (const [l, layer] of layers.entries())
        for (const [h, head] of layer.perHead.entries())
          expect(Math.abs((await cellValue(page, 'head-grid-0', `${l}.${h}`)) - head.diagonal)).toBeLessThanOrEqual(1e-4);
      // The highest head (the CLI's) is marked ★, in sight and in its name, and only it.
      const best = layers.flatMap((layer, l) => layer.perHead.map((h, k) => ({ at: `${l}.${k}`, d: h.diagonal }))).sort((x, y) => y.d - x.d)[0]!;
      const star = page.getByTestId('head-grid-0').locator('[data-top]');
      expect(await star.getAttribute('data-cell')).toBe(best.at);
      expect(await star.locator('.head-mark').textContent()).toBe('★');
      // Each cell writes its figure in per cent where the cells are wide enough (few heads), as the figures give it.
      const values = page.getByTestId('head-grid-0').locator('.head-value');
      if (await values.count())
        expect(await values.allTextContents()).toEqual(layers.flatMap((layer) => layer.perHead.map((h) => String(Math.round(h.diagonal * 100)))));
      expect(await star.getAttribute('aria-label')).toMatch(/, the highest$/);
      expect(await page.getByTestId('head-grid-0').getByText('★').count()).toBe(1);
      // The profile's text names the final layer's head mean: the figure the panel above shows.
      const finalMean = layers[layers.length - 1]!.diagonal;
      expect(await page.getByTestId('heads-summary').textContent()).toContain(`at the final layer it is ${finalMean.toFixed(4)}`);
      expect(Math.abs((await figure(page, 'diagonal')) - finalMean)).toBeLessThanOrEqual(1e-4);

      // By keyboard: Tab lands on one cell, arrows move, Enter opens that head in the heatmap.
      await page.getByTestId('head-grid-0').locator('[data-cell="1.0"]').focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByTestId('heads-readout').textContent()).toContain('layer 0, head 1');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByLabel('head', { exact: true }).inputValue()).toBe('1');
      await expect.poll(() => page.getByLabel('layer', { exact: true }).inputValue()).toBe('0');
      await page.getByLabel('layer', { exact: true }).selectOption('');
      await page.getByLabel('head', { exact: true }).selectOption('mean');
      await settled(page);

      // Switching heads off by clicking cells: the figures become the CLI's with --ablate 0.4 --ablate 1.1.
      await page.getByRole('checkbox', { name: 'a click switches a head off (or back on)' }).check();
      await page.getByTestId('head-grid-0').locator('[data-cell="1.1"]').click();
      await page.getByTestId('head-grid-0').locator('[data-cell="0.4"]').click();
      await expect.poll(() => page.getByTestId('off-list').textContent()).toBe('L0·H4, L1·H1');
      await settled(page);
      await page.getByTestId('head-grid-0').waitFor();
      await expect.poll(() => figure(page, 'diagonal'), { timeout: 60_000 }).not.toBeCloseTo(finalMean, 4);
      const want = ablated.results[0]!;
      expect(Math.abs((await figure(page, 'diagonal')) - want.diagonal)).toBeLessThanOrEqual(1e-4);
      expect(Math.abs((await figure(page, 'prior')) - want.ratios.prior!)).toBeLessThanOrEqual(1e-4);
      expect(new URL(page.url()).searchParams.get('off')).toBe('0.4,1.1');
      expect(await page.getByTestId('figures-from').textContent()).toContain('heads L0·H4, L1·H1 switched off');
      // A switched-off head's own figures are still drawn: its readout says why they did not go.
      // Focus, not hover: on a phone the grid may still be moving as the page settles.
      // The grid does not move when the readout changes: above it, a taller readout made the hover flicker.
      const gridAt = () => page.getByTestId('head-grid-0').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
      const before = await gridAt();
      await page.mouse.move(1, 1);
      await page.getByTestId('head-grid-0').locator('[data-cell="1.1"]').focus();
      await expect
        .poll(() => page.getByTestId('heads-readout').textContent())
        .toMatch(/layer 1, head 1: .*\. Switched off: it passes nothing on, but where it looks is still drawn here\.$/);
      expect(await gridAt()).toBe(before);
      await page.getByTestId('head-grid-0').locator('[data-cell="1.2"]').focus();
      await expect.poll(() => page.getByTestId('heads-readout').textContent()).not.toContain('Switched off');

      // Mean ablation: the same heads write their mean output; the figures are the CLI's --ablate-mean.
      await page.getByLabel('how a head is switched off').selectOption('mean');
      await expect.poll(() => page.getByTestId('figures-from').textContent(), { timeout: 60_000 }).toContain('(each writes its mean output)');
      await settled(page);
      expect(Math.abs((await figure(page, 'diagonal')) - meanAblated.results[0]!.diagonal)).toBeLessThanOrEqual(1e-4);
      expect(new URL(page.url()).searchParams.get('offkind')).toBe('mean');
      await page.getByLabel('how a head is switched off').selectOption('zero');
      // Wait for the zero-ablated figures themselves: under load the rescoring may not have begun when the
      // status line is first checked, and the page reflows while it runs.
      await expect.poll(() => page.getByTestId('figures-from').textContent(), { timeout: 60_000 }).not.toContain('(each writes its mean output)');
      await settled(page);
      await expect.poll(() => figure(page, 'diagonal'), { timeout: 60_000 }).toBeCloseTo(want.diagonal, 4);
      await settled(page);

      // The answer with every head on, and with them off, compared in plain words.
      await page.getByRole('button', { name: 'Write the answer with every head on, then with these off' }).click();
      await page.getByTestId('off-answers').waitFor({ timeout: 120_000 });
      expect(await page.getByTestId('off-verdict').textContent()).toMatch(/^(same answer|different wording, same last line|different last line)$/);
      if (SHOTS) await page.locator('section.heads').screenshot({ path: join(SHOTS, `heads-${name}.png`) });

      // The top 3 by diagonal ratio in one click, then every head back on: the first figures again.
      await page.getByRole('button', { name: 'Switch them off' }).click();
      await expect.poll(() => page.getByTestId('off-list').textContent()).toMatch(/^L\d·H\d, L\d·H\d, L\d·H\d$/);
      await page.getByRole('button', { name: 'Switch every head back on' }).click();
      await settled(page);
      await expect.poll(() => figure(page, 'diagonal'), { timeout: 60_000 }).toBeCloseTo(finalMean, 4);
      expect(errors).toEqual([]);
      await page.close();
    }, 600_000);
  }

  it('comparing two policies shows a grid for each on one scale, and their difference', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm&heads=1&policy=full,ao&compare=1`);
    await page.getByTestId('head-grid-diff').waitFor({ timeout: 180_000 });
    await settled(page);
    const ao = await cli('--all-layers', '--policy', 'ao');
    const l = 1;
    for (let h = 0; h < ao.results[0]!.layers![l]!.perHead.length; h++) {
      const want = ao.results[0]!.layers![l]!.perHead[h]!.diagonal - all.results[0]!.layers![l]!.perHead[h]!.diagonal;
      expect(Math.abs((await cellValue(page, 'head-grid-diff', `${l}.${h}`)) - want)).toBeLessThanOrEqual(2e-4);
    }
    await page.close();
  }, 600_000);
});

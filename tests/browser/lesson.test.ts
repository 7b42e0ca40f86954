import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LESSON, QUIZ } from '../../src/views/lesson/steps';
import { startAppServer } from '../helpers/app-server';
import { launchChromium } from '../helpers/chromium';

const SHOTS = process.env.SCREENSHOT_DIR;

/** Presses Tab (Shift+Tab when the target comes before the focus) until `target` has the focus: what a keyboard user does. */
async function tabTo(page: Page, target: Locator, max = 400): Promise<void> {
  const before = await target.evaluate((el) =>
    document.activeElement ? (el.compareDocumentPosition(document.activeElement) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 : false,
  );
  const key = before ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${max} × ${key} did not reach ${target}`);
}

describe('the lesson, walked with the keyboard only', () => {
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startAppServer>>;
  beforeAll(async () => {
    app = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
  });

  it('every panel, control and figure has its "what is this", and each opens to a definition with its source', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    await page.getByTestId('turns-chart').waitFor({ timeout: 120_000 });
    const missing = await page.evaluate(() => {
      const out: string[] = [];
      const has = (el: Element | null) => el !== null && el.querySelector('[data-explain]') !== null;
      // Every visible panel heading, every figure row, every control of the view.
      for (const h of document.querySelectorAll('main h2:not(.sr-only)'))
        if (!h.closest('[data-testid="lesson-card"]') && !has(h)) out.push(`heading "${h.textContent}"`);
      for (const th of document.querySelectorAll('[data-testid="figures"] th[scope="row"]')) if (!has(th)) out.push(`figure "${th.textContent}"`);
      const controls = [...document.querySelectorAll('.controls select, .controls input')].concat(
        [...document.querySelectorAll('.controls button')].filter((b) => /^Generate/.test(b.textContent ?? '')),
      );
      for (const c of controls) {
        const next = (c.closest('label') ?? c).nextElementSibling;
        if (!next?.matches('.explain'))
          out.push(`control "${(c.getAttribute('aria-label') ?? c.closest('label')?.textContent ?? c.textContent ?? '').slice(0, 40)}"`);
      }
      return out;
    });
    expect(missing).toEqual([]);
    const buttons = page.locator('main [data-explain]');
    const n = await buttons.count();
    expect(n).toBeGreaterThan(20);
    for (let i = 0; i < n; i++) {
      const b = buttons.nth(i);
      if (!(await b.isVisible())) continue; // inside a closed panel (the raw forward pass)
      const id = await b.getAttribute('data-explain');
      await b.click();
      const box = page.getByTestId(`explain-${id}`).first();
      expect(await box.textContent()).toMatch(/From: .+\./);
      await b.click();
    }
    await page.close();
  }, 300_000);

  it('every step waits for its action, then reveals the figures on screen; the link opens a step', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${app.url}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
    await page.getByText(/scoring every turn/).waitFor({ state: 'detached', timeout: 120_000 });
    const card = page.getByTestId('lesson-card');
    const next = card.getByRole('button', { name: /^(Next|Finish)$/ });
    const title = page.getByTestId('lesson-title');
    const figures = page.locator('[data-lesson="figures"]');
    const shots = SHOTS ? join(SHOTS, 'lesson') : null;
    if (shots) mkdirSync(shots, { recursive: true });

    await tabTo(page, page.getByRole('button', { name: /^Learn/ }));
    await page.keyboard.press('Enter');

    /** One step: focus on its title, Next closed until `act` is done, then its reveal's figures equal the panel's. */
    const step = async (n: number, act: () => Promise<void>, waitFor?: Locator) => {
      const s = LESSON[n]!;
      await expect.poll(() => title.textContent()).toBe(s.title);
      expect(await title.evaluate((el) => el === document.activeElement), `step ${n + 1} has the focus`).toBe(true);
      if (n > 0) expect(await next.isDisabled(), `step ${n + 1} (${s.id}) waits for its action`).toBe(true);
      await act();
      if (waitFor) await waitFor.waitFor({ timeout: 120_000 });
      await expect.poll(() => next.isDisabled(), { timeout: 120_000 }).toBe(false);
      const reveal = card.getByTestId('lesson-reveal');
      if (s.reveal && (await reveal.count())) {
        // Every figure the reveal quotes is on the figures panel, as written there (read together, once
        // the analysis the action started has settled: both follow the same store).
        const unmatched = async () => {
          const quoted = ((await reveal.textContent()) ?? '').match(/\d+\.\d{4}/g) ?? [];
          const shown = (await figures.textContent()) ?? '';
          return quoted.filter((q) => !shown.includes(q));
        };
        await expect.poll(unmatched, { message: `step ${n + 1} (${s.id}) quotes only figures on screen`, timeout: 60_000 }).toEqual([]);
      }
      if (shots) await page.screenshot({ path: join(shots, `step-${String(n + 1).padStart(2, '0')}-${s.id}.png`) });
      await tabTo(page, next);
      await page.keyboard.press('Enter');
    };
    const button = (name: string | RegExp) => page.getByRole('button', { name, exact: typeof name === 'string' });

    await step(0, async () => undefined);
    await step(1, () => tabTo(page, page.locator('[data-testid="token-view"] .tok.query').last()));
    await step(2, async () => {
      await tabTo(page, page.getByRole('img', { name: /attention heatmap/ }).first());
      await page.keyboard.press('Home');
    });
    for (const n of [3, 4]) {
      await step(n, async () => {
        await tabTo(page, card.getByRole('slider'));
        for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
      });
    }
    await step(
      5,
      async () => {
        await tabTo(page, button('Filler'));
        await page.keyboard.press('Enter');
      },
      page.getByTestId('figure-filler-diagonal'),
    );
    await step(6, async () => {
      await tabTo(page, button('Full'));
      await page.keyboard.press('Enter');
      await page.getByTestId('figure-full-diagonal').waitFor({ timeout: 120_000 });
      await tabTo(page, page.getByRole('combobox', { name: 'scored turn', exact: true }));
      for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowDown');
    });
    await step(
      7,
      async () => {
        await tabTo(page, page.getByRole('combobox', { name: 'scored turn', exact: true }));
        await page.keyboard.press('Home');
        await tabTo(page, button('Clip-12→1'));
        await page.keyboard.press('Enter');
      },
      page.getByTestId('figure-clip:12:1-diagonal'),
    );
    await step(8, async () => {
      await tabTo(page, button(/^Generate/));
      await page.keyboard.press('Enter');
    });
    await step(
      9,
      async () => {
        await tabTo(page, page.getByTestId('compare-models'));
        await page.keyboard.press('Space');
        await tabTo(page, button('Compare with the CPL-tuned demo model'));
        await page.keyboard.press('Enter');
        // Model A still scores the answer it wrote in the step before: the reveal says so and compares nothing,
        // then both score the conversation's answer.
        const reveal = card.getByTestId('lesson-reveal');
        await expect.poll(() => reveal.textContent(), { timeout: 120_000 }).toContain('two different texts');
        expect(await page.getByTestId('models-answers-differ').textContent()).toContain('Model A scores the answer it wrote, model B the conversation');
        await tabTo(page, button("use the file's answer"));
        await page.keyboard.press('Enter');
        await expect.poll(() => reveal.textContent(), { timeout: 120_000 }).toContain('for its CPL twin');
        expect(await page.getByTestId('models-answers-differ').count()).toBe(0);
      },
      page.locator('[data-testid^="figure-b-"][data-testid$="-diagonal"]'),
    );
    await step(10, async () => {
      // The option after the maze: its reordered twin (a copy at another offset).
      await tabTo(page, page.getByRole('combobox', { name: 'example', exact: true }));
      await page.keyboard.press('ArrowDown');
    });
    await step(11, async () => {
      for (const [i, q] of QUIZ.entries()) {
        const group = card.locator('fieldset').nth(i);
        await tabTo(page, group.getByRole('radio').first());
        // Arrow keys move the choice within a radio group; Space picks the first.
        if (q.correct === 0) await page.keyboard.press('Space');
        for (let k = 0; k < q.correct; k++) await page.keyboard.press('ArrowDown');
        await expect.poll(() => card.getByTestId(`lesson-feedback-${i}`).textContent()).toMatch(/^Right\./);
      }
    });
    await expect.poll(() => card.count()).toBe(0);
    await page.close();

    // A link opens the lesson at a step, and the link follows the step.
    const linked = await browser.newPage();
    await linked.goto(`${app.url}/?backend=wasm#lesson=4`);
    await expect.poll(() => linked.getByTestId('lesson-title').textContent()).toBe(LESSON[3]!.title);
    await linked.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => linked.evaluate(() => location.hash)).toContain('lesson=3');
    await linked.close();

    // A teacher's exercise: chosen parts hidden, said so, and one click shows everything again.
    const exercise = await browser.newPage();
    await exercise.goto(`${app.url}/?backend=wasm#lesson=6&hide=policies,heatmap`);
    await exercise.getByTestId('hidden-note').waitFor();
    expect(await exercise.locator('[data-lesson="policies"]').isHidden()).toBe(true);
    expect(await exercise.locator('[data-lesson="heatmap"]').isHidden()).toBe(true);
    expect(await exercise.getByTestId('lesson-title').textContent()).toBe(LESSON[5]!.title);
    expect(await exercise.evaluate(() => location.hash)).toContain('hide=policies,heatmap');
    await exercise.getByRole('button', { name: 'show everything' }).click();
    expect(await exercise.locator('[data-lesson="policies"]').isVisible()).toBe(true);
    await exercise.close();

    // On a phone the card folds to its title, action and buttons, and unfolds again.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${app.url}/?backend=wasm#lesson=4`);
    const phoneCard = phone.getByTestId('lesson-card');
    await phoneCard.waitFor();
    const tall = (await phoneCard.boundingBox())!.height;
    await phoneCard.getByRole('button', { name: 'fold the card' }).click();
    expect(await phone.getByTestId('lesson-text').isHidden()).toBe(true);
    expect(await phone.getByTestId('lesson-action').isVisible()).toBe(true);
    expect((await phoneCard.boundingBox())!.height).toBeLessThan(tall * 0.75);
    await phoneCard.getByRole('button', { name: 'unfold the card' }).click();
    expect(await phone.getByTestId('lesson-text').isVisible()).toBe(true);
    await phone.close();
  }, 600_000);
});

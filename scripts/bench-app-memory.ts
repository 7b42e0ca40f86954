/**
 * The memory half of `npm run bench:browser`: SmolLM2-135M's real config, whole, random BF16 weights
 * (the rehearsal's checkpoint), loaded on wasm three ways, each in a fresh Chromium: the app from the
 * local Hub (the model worker spools the download to the origin's private file system and reads each
 * tensor back as onnxruntime copies it), the app from picked files (read synchronously in the worker; at full
 * precision, q8 and q4),
 * and the harness page (the page's own thread, which holds the downloaded bytes until the session is
 * made: the way every page loaded before the worker). Each figure is the renderer processes' peak RSS
 * added by the load, with onnxruntime already started (the demo model first), per parameter.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeConfig } from '../src/model/config/config';
import { parameterCount } from '../src/model/checkpoint/weights';
import type { startAppServer } from '../tests/helpers/app-server';
import { launchChromium } from '../tests/helpers/chromium';
import { watchProcesses } from '../tests/helpers/process-memory';
import { buildRehearsalModel } from './rehearse/build-model';

export interface MemoryRow {
  how: string;
  peakMiB: number | null;
  bytesPerParam: number | null;
  loadMs: number;
  error: string | null;
}

export const MEMORY_MODEL = 'HuggingFaceTB--SmolLM2-135M-Instruct';

/** Builds the checkpoint and puts it on the app's local Hub as `bench/smollm2-135m-bf16`; returns its folder. */
export function memoryModel(repos: Parameters<typeof startAppServer>[0]): { dir: string; params: number; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'il-mem-'));
  const built = buildRehearsalModel(MEMORY_MODEL, root, true);
  repos![`bench/smollm2-135m-bf16`] = new Map(readdirSync(built.dir).map((f) => [f, new Uint8Array(readFileSync(join(built.dir, f)))]));
  return { dir: built.dir, params: parameterCount(normalizeConfig(built.config)), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export async function measureMemory(appUrl: string, hub: string, dir: string, params: number): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  const measure = async (
    how: string,
    setup: (page: import('playwright-core').Page) => Promise<void>,
    load: (page: import('playwright-core').Page) => Promise<void>,
  ) => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await setup(page);
      const base = watchProcesses('--type=renderer').stop();
      const watch = watchProcesses('--type=renderer');
      const t0 = Date.now();
      let error: string | null = null;
      try {
        await load(page);
      } catch (e) {
        error = (e as Error).message.split('\n')[0]!.slice(0, 200);
      }
      const peak = watch.stop();
      const delta = peak !== null && base !== null ? peak - base : null;
      rows.push({
        how,
        peakMiB: delta === null ? null : Math.round(delta),
        bytesPerParam: delta === null ? null : Math.round(((delta * 2 ** 20) / params) * 10) / 10,
        loadMs: Date.now() - t0,
        error,
      });
    } finally {
      await browser.close();
    }
  };
  const appReady = async (page: import('playwright-core').Page) => {
    await page.goto(`${appUrl}/?backend=wasm`);
    await page.getByTestId('fresh-note').waitFor({ timeout: 300_000 });
  };
  const shown = (page: import('playwright-core').Page, text: string) => page.locator('dl.facts').filter({ hasText: text }).waitFor({ timeout: 600_000 });
  await measure('the app, from the Hub (model worker, download spooled to disk)', appReady, async (page) => {
    await page.getByLabel('Hub id').fill('bench/smollm2-135m-bf16');
    await page.getByLabel('from').fill(hub);
    await page.getByRole('button', { name: 'Load' }).click();
    await page.getByRole('button', { name: /^Download .* and load$/ }).click({ timeout: 120_000 });
    await shown(page, 'bench/smollm2-135m-bf16');
  });
  // Picked files of this size are planned first, and load at the precision chosen there.
  for (const quant of ['none', 'q8', 'q4'] as const) {
    await measure(`the app, from picked files (model worker, read synchronously)${quant === 'none' ? '' : ` at ${quant}`}`, appReady, async (page) => {
      await page.getByTestId('pick-files').setInputFiles(readdirSync(dir).map((f) => join(dir, f)));
      const pending = page.getByTestId('pending-download');
      await pending.getByRole('button', { name: /^Load / }).waitFor({ timeout: 120_000 });
      if (quant !== 'none') {
        await pending.getByLabel('weight precision').selectOption(quant);
        await pending.getByRole('button', { name: new RegExp(`^Load .* at ${quant}$`) }).waitFor({ timeout: 120_000 });
      }
      await pending.getByRole('button', { name: /^Load / }).click();
      await shown(page, `${readdirSync(dir).length} files`);
    });
  }
  await measure(
    "the harness page, from the Hub (the page's thread: downloaded bytes held until the session is made)",
    async (page) => {
      await page.goto(`${appUrl}/tests/browser/harness.html`);
      await page.getByText('ready').waitFor({ timeout: 120_000 });
      await page.evaluate(() =>
        (window as unknown as { harness: { policyPassMs: Function } }).harness.policyPassMs(
          '[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]',
          'full',
        ),
      );
    },
    async (page) => {
      const r = (await page.evaluate(
        ([h]) => (window as unknown as { harness: { rehearseLoad: Function } }).harness.rehearseLoad(h, 'bench/smollm2-135m-bf16', ['wasm']),
        [hub] as const,
      )) as { error: string | null };
      if (r.error) throw new Error(r.error);
    },
  );
  return rows;
}

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP } from '../../src/deploy/csp';
import { launchChromium } from '../helpers/chromium';
import { buildApp, staticHost } from '../helpers/static-host';

describe('the built app on a plain static host', () => {
  const out = mkdtempSync(join(tmpdir(), 'il-dist-'));
  let host: { server: Server; url: string };
  let browser: Browser;

  beforeAll(async () => {
    await buildApp(out);
    host = await staticHost(out);
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    host?.server.close();
    rmSync(out, { recursive: true, force: true });
  });

  it('ships the CSP in index.html and a _headers file for hosts that read one', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8').replace(/&#39;/g, "'");
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}">`);
    const headers = readFileSync(join(out, '_headers'), 'utf8');
    expect(headers).toContain('Cross-Origin-Embedder-Policy: require-corp');
    expect(headers).toContain("frame-ancestors 'none'");
    // The service worker's cache is named after the build, and a new build drops the earlier copies.
    expect(readFileSync(join(out, 'sw.js'), 'utf8')).toMatch(/const SHELL = 'inertia-lens-shell-[0-9a-f]{12}';/);
  });

  it('becomes cross-origin isolated through its service worker, runs the demo model under the CSP, and opens offline', async () => {
    const context = await browser.newContext();
    await context.addInitScript(() => {
      (window as unknown as { __csp: string[] }).__csp = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const page = await context.newPage();
    await page.goto(`${host.url}/`);
    // One reload, by the page itself, once the worker controls it.
    await page.waitForFunction(() => window.crossOriginIsolated, null, { timeout: 60_000 });
    await page.getByTestId('fresh-note').waitFor({ timeout: 150_000 });
    expect(await page.evaluate(() => (window as unknown as { __csp: string[] }).__csp)).toEqual([]);
    // Offline: the shell and the demo model come from the worker's copy.
    await context.setOffline(true);
    await page.reload();
    await page.getByTestId('fresh-note').waitFor({ timeout: 150_000 });
    expect(await page.evaluate(() => window.crossOriginIsolated)).toBe(true);
    await context.close();
  }, 400_000);
});

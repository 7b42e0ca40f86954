/**
 * `npm run screenshots`: the pictures in the README and docs/, taken from the current app on the embedded
 * demo model in Chromium, so they never drift from the code. Writes docs/img/*.png.
 */
import { mkdirSync } from 'node:fs';
import { startAppServer } from '../tests/helpers/app-server';
import { launchChromium } from '../tests/helpers/chromium';

const OUT = 'docs/img';
mkdirSync(OUT, { recursive: true });
const app = await startAppServer();
const browser = await launchChromium();
try {
  // The inspector as it opens: the maze example scored by the demo model, figures and heatmap in view.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${app.url}/?backend=wasm`);
  await page.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
  await page.getByText(/scoring every turn/).waitFor({ state: 'detached', timeout: 120_000 });
  await page.locator('[data-lesson="figures"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}/inspector.png` });
  // Four models compared: the demo model, its CPL twin, itself at q4, and the twin at q8.
  await page.goto(`${app.url}/?backend=wasm&mb=demo-cpl&mc=demo&qc=q4&md=demo-cpl&qd=q8`);
  await page.getByTestId('figure-d-full-diagonal').waitFor({ timeout: 120_000 });
  await page.locator('[data-lesson="figures"]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${OUT}/compare-models.png` });
  await page.close();
  // A phone's width.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  await phone.goto(`${app.url}/?backend=wasm`);
  await phone.getByTestId('fresh-note').waitFor({ timeout: 120_000 });
  await phone.screenshot({ path: `${OUT}/inspector-phone.png` });
  await phone.close();
  console.log(`wrote ${OUT}/inspector.png, compare-models.png, inspector-phone.png`);
} finally {
  await browser.close();
  await app.server.close();
}

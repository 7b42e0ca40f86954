/**
 * `npm run bench:browser`: the browser half of the bench. The demo-sized random model in headless
 * Chromium, on WebGPU (here the SwiftShader software adapter: ratios only) and on wasm; inspection
 * pass and plain forward per length. Writes docs/bench/browser.json and docs/bench/browser.md.
 *   BENCH_TOKENS=512,2048 (default)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { startAppServer } from '../tests/helpers/app-server';
import { launchChromium } from '../tests/helpers/chromium';
import { tinyModelFiles } from '../tests/helpers/tiny-model';
import { BENCH_MODELS } from './bench-shared';

const lengths = (process.env.BENCH_TOKENS ?? '512,2048').split(',').map(Number);
const demo = tinyModelFiles(BENCH_MODELS.demo!);
const app = await startAppServer({ 'bench/demo': demo });
const browser = await launchChromium();
type Out = { backend: string; rows: { tokens: number; inspect: number; plain: number }[] };
const results: Record<string, Out> = {};
try {
  for (const backend of ['webgpu', 'wasm']) {
    const page = await browser.newPage();
    await page.goto(`${app.url}/tests/browser/harness.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const prefer = backend === 'webgpu' ? ['webgpu'] : ['wasm'];
    results[backend] = await page.evaluate(([h, p, l]) => (window as unknown as { harness: { bench: Function } }).harness.bench(h, 'bench/demo', p, l, 3), [app.hub, prefer, lengths] as const) as Out;
    process.stderr.write(`${backend}: ${JSON.stringify(results[backend]!.rows)}\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await app.server.close();
}
const f0 = (v: number) => v.toFixed(0);
const lines = ['| tokens | WebGPU inspection (ms) | WebGPU plain (ms) | wasm inspection (ms) | wasm plain (ms) | WebGPU ÷ wasm (inspection) | inspection ÷ plain (WebGPU / wasm) |', '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |'];
for (const n of lengths) {
  const g = results.webgpu!.rows.find((r) => r.tokens === n)!;
  const w = results.wasm!.rows.find((r) => r.tokens === n)!;
  lines.push(`| ${n} | ${f0(g.inspect)} | ${f0(g.plain)} | ${f0(w.inspect)} | ${f0(w.plain)} | ${(g.inspect / w.inspect).toFixed(2)}× | ${(g.inspect / g.plain).toFixed(2)}× / ${(w.inspect / w.plain).toFixed(2)}× |`);
}
console.log(lines.join('\n'));
mkdirSync('docs/bench', { recursive: true });
const when = new Date().toISOString();
writeFileSync('docs/bench/browser.json', `${JSON.stringify({ when, browser: 'Debian Chromium, headless, WebGPU on SwiftShader', model: 'demo-sized, random weights', results }, null, 2)}\n`);
writeFileSync('docs/bench/browser.md', `# Browser benchmark\n\nLatest \`npm run bench:browser\` (${when}): headless Debian Chromium, the demo-sized random model, WebGPU on the SwiftShader *software* adapter (a CPU emulation: compare ratios, not times, and expect a real GPU to differ) and wasm. Median of 3 after a warm-up.\n\n${lines.join('\n')}\n\nRaw numbers: [browser.json](browser.json).\n`);
console.log('wrote docs/bench/browser.json and docs/bench/browser.md');

import { Worker } from 'node:worker_threads';
import { GUARD_BUDGET_MS, watchGuards } from '../model/tokenizer/guard';
import { FILES, guardBuffer, guardReader, KINDS, sharedWatcher, WHAT } from '../worker/watchdog';

/**
 * The CLI's watchdog over the model's own code (chat template, tokenizer), as the page watches the
 * model worker: the main thread marks each call in shared words (model/tokenizer/guard.ts), and a thread of its
 * own reads them. A call past its budget cannot be interrupted from outside, so that thread names the
 * file and ends the process (exit code 143). The reader is the page's own guardReader, its source
 * handed to the thread (a thread cannot import TypeScript here).
 */
export function startCliWatchdog(): void {
  const buffer = guardBuffer();
  if (!buffer) return;
  watchGuards(sharedWatcher(buffer));
  const source = `
    const { workerData } = require('node:worker_threads');
    const { writeSync } = require('node:fs');
    const { buffer, KINDS, FILES, WHAT, GUARD_BUDGET_MS } = workerData;
    const __name = (f) => f; // in case the transpiler named the function
    const guardReader = (${guardReader.toString()});
    const reader = guardReader(buffer, GUARD_BUDGET_MS);
    setInterval(() => {
      const s = reader.check(Date.now());
      if (!s) return;
      writeSync(2, '\\ninertia-lens: ' + s.file + ': ' + WHAT[s.kind] + ' ran for more than ' + Math.round(s.ms / 1000) + ' s on one call and was stopped (a template or tokenizer that takes this long is likely looping: check the file)\\n');
      process.kill(process.pid, 'SIGTERM');
    }, 250);`;
  const w = new Worker(source, { eval: true, workerData: { buffer, KINDS, FILES, WHAT, GUARD_BUDGET_MS } });
  w.unref(); // it never keeps the command running
}

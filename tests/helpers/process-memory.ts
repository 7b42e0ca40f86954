import { readdirSync, readFileSync } from 'node:fs';

/**
 * Peak resident memory (MiB) of the processes whose command line has `flag` (Linux /proc, sampled every
 * 250 ms): Chromium's GPU process (`--type=gpu-process`, where the software WebGPU adapter keeps its
 * buffers) or its renderers (`--type=renderer`, the page's JavaScript and wasm heaps).
 */
export function watchProcesses(flag: string): { stop(): number | null } {
  let peak = 0;
  const sample = () => {
    let rss = 0;
    try {
      for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
        try {
          if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(flag)) continue;
          rss += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
        } catch {
          /* the process ended */
        }
      }
    } catch {
      /* no /proc */
    }
    peak = Math.max(peak, rss);
  };
  sample();
  const timer = setInterval(sample, 250);
  return { stop: () => (clearInterval(timer), sample(), peak > 0 ? Math.round(peak) : null) };
}

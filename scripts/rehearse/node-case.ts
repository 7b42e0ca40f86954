/**
 * One rehearsal case in its own process (so its peak memory is its own): load a model folder on a
 * backend and run a 16-token pass (the load's peak), then score each conversation's last answer under
 * Full with `analyze`'s own code; print one JSON line.
 *   tsx scripts/rehearse/node-case.ts <model-dir> <wasm|native> <conversation.json>...
 *   QUANT=q8|q4|q4g128   the weight precision (default none)
 * Prints the process's peak (VmHWM) and, on wasm, onnxruntime's heap at the end (its peak: it never shrinks).
 */
import { wasmHeapBytes } from './wasm-heap';
import { readFileSync } from 'node:fs';
import { analyzePolicy } from '../../src/analysis/analyze';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { parameterCount } from '../../src/model/checkpoint/weights';
import { openModel } from '../../src/runtime/open-model';
import type { Quant } from '../../src/model/precision/quantize';

const [dir, backend, ...convFiles] = process.argv.slice(2) as [string, 'wasm' | 'native', ...string[]];
const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
const base = kb('VmRSS');
const out: Record<string, unknown> = { backend, analyses: [] };
try {
  const t0 = performance.now();
  const model = await openModel(dirSource(dir), { prefer: [backend], quant: (process.env.QUANT ?? 'none') as Quant });
  await model.session.forward({ ids: Array.from({ length: 16 }, (_, i) => i + 10), layers: [] });
  out.loadMs = performance.now() - t0;
  out.loadPeakBytes = kb('VmHWM') - base;
  out.params = parameterCount(model.checkpoint.spec);
  out.plan = model.session.report.plan;
  for (const f of convFiles) {
    const conv = parseConversation(readFileSync(f, 'utf8')).conversation!;
    const t1 = performance.now();
    const r = await analyzePolicy(model, conv, 'full');
    (out.analyses as unknown[]).push({ tokens: r.tokens.length, ms: performance.now() - t1, diagonal: r.diagonal });
  }
  await model.session.release();
} catch (e) {
  out.error = (e as Error).message;
}
out.peakBytes = kb('VmHWM') - base;
// The wasm backend's own limit is its heap (null on native).
out.wasmHeapBytes = backend === 'wasm' ? wasmHeapBytes() : null;
process.stdout.write(`${JSON.stringify(out)}\n`);

import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { toFloat32 } from '../../../src/model/precision/dtype';
import { buildGraph } from '../../../src/model/graph/graph';
import { quantizedTensor, quantizeTensorBytes, quantizeRows, schemeOf } from '../../../src/model/precision/quantize';
import { bytesOf } from '../../../src/model/checkpoint/tensor-bytes';
import { referenceForward } from '../../../src/model/graph/reference';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { maxAbsDiff } from '../../helpers/compare';
import { dequantize, dequantizedWeights } from '../../helpers/quant-reference';
import { FAMILY_CASES } from '../../helpers/family-cases';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles } from '../../helpers/tiny-model';

describe('quantizer', () => {
  it('packs blocks, pads the last one and keeps 0 exact', () => {
    const K = 40; // one whole block of 32 and one of 8, padded
    const N = 3;
    const w = Float32Array.from({ length: N * K }, (_, i) => (i % 7 === 0 ? 0 : Math.sin(i * 1.3) * (1 + (i % 5))));
    for (const quant of ['q8', 'q4'] as const) {
      const s = schemeOf(quant);
      const m = quantizeRows((n, into) => into.set(w.subarray(n * K, (n + 1) * K)), N, K, s);
      expect(m.packed.byteLength).toBe((N * 2 * (32 * s.bits)) / 8);
      const back = dequantize(m, N, K, s);
      for (let i = 0; i < N * K; i++) {
        const b = Math.floor((i % K) / 32);
        const step = m.scales[Math.floor(i / K) * 2 + b]!;
        expect(Math.abs(back[i]! - w[i]!)).toBeLessThanOrEqual(step / 2 + 1e-7); // within half a step
        if (w[i] === 0) expect(Math.abs(back[i]!)).toBeLessThanOrEqual(1e-6 * step);
      }
    }
  });

  it('a synchronous source is quantized a block of rows at a time, to the same bytes as the whole tensor', async () => {
    const N = 150; // more than two blocks of 64 rows, the last one short
    const K = 40;
    const values = Float32Array.from({ length: N * K }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 7)));
    const raw = new Uint8Array(values.buffer);
    let reads = 0;
    const source = { ...bytesOf(raw), readSync: (a: number, b: number) => (reads++, raw.slice(a, b)) };
    const t = { name: 'w', dtype: 'F32' as const, shape: [N, K], file: 'x', data: source };
    const parts = quantizedTensor(t, schemeOf('q4'), 'fp32');
    const whole = quantizeTensorBytes('F32', raw, N, K, schemeOf('q4'));
    expect((await parts.packed.prepare())()).toEqual(whole.packed);
    expect((await parts.zeros.prepare())()).toEqual(whole.zeros);
    expect(new Float32Array((await parts.scales.prepare())().slice().buffer)).toEqual(whole.scales);
    expect(reads).toBe(3); // blocks of 64, 64 and 22 rows, once for all three parts
  });

  it('reads F16 and BF16 rows as their float values', () => {
    const values = Float32Array.from({ length: 64 }, (_, i) => (i - 30) / 8); // exact in both
    const f32 = quantizeTensorBytes('F32', new Uint8Array(values.buffer), 2, 32, schemeOf('q4'));
    const bf16 = new Uint16Array(64).map((_, i) => new Uint32Array(values.buffer)[i]! >>> 16);
    const fromBf16 = quantizeTensorBytes('BF16', new Uint8Array(bf16.buffer), 2, 32, schemeOf('q4'));
    expect(fromBf16).toEqual(f32);
    expect(Array.from(toFloat32('BF16', new Uint8Array(bf16.buffer)))).toEqual(Array.from(values));
  });
});

/** Tolerances: the graph runs the dequantized weights in fp32, the reference in float64 (as unquantized graphs, 1e-4). */
const TOL = 1e-4;

describe('a quantized matrix run in slices of rows (an output head): the same as whole', () => {
  for (const [name, opts] of [FAMILY_CASES[0]!, FAMILY_CASES[5]!]) {
    it(`q4, slices of 64 rows: ${name}`, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const { spec } = ckpt;
      const weights = resolveWeights(spec, ckpt);
      const graph = buildGraph(spec, weights, { quant: 'q4', quantSliceRows: 64 });
      // The vocabulary (259 rows) in 5 slices: embedding rows gathered from the slice that holds each id.
      expect(graph.externalData.length).toBeGreaterThan(buildGraph(spec, weights, { quant: 'q4' }).externalData.length);
      const session = await ModelSession.create(graph, spec);
      const S = 23;
      const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % spec.vocabSize);
      const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      const ref = await referenceForward(spec, await dequantizedWeights(weights, schemeOf('q4')), ids);
      expect(maxAbsDiff(out.logits!.data, ref.logits)).toBeLessThanOrEqual(TOL);
      expect(maxAbsDiff(out.attention[0]!.perHead!.data, ref.attention)).toBeLessThanOrEqual(TOL);
      await session.release();
    });
  }
});

/** One family case at one precision, on one runtime: attention of the first and last layers and the logits. */
async function quantizedParity(opts: (typeof FAMILY_CASES)[number][1], quant: 'q8' | 'q4' | 'q4g128', backend: 'wasm' | 'native') {
  const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
  const { spec } = ckpt;
  const weights = resolveWeights(spec, ckpt);
  const last = spec.numLayers - 1;
  const graph = buildGraph(spec, weights, { inspectLayers: [0, last], quant });
  expect(graph.weightStorage).toContain(`quantized to ${quant === 'q8' ? 8 : 4} bits`);
  const session = await ModelSession.create(graph, spec, { prefer: [backend] });
  expect(session.report.backend).toBe(backend);
  const S = 23;
  const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % spec.vocabSize);
  const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
  const deq = await dequantizedWeights(weights, schemeOf(quant));
  for (const layer of [0, last]) {
    const ref = await referenceForward(spec, deq, ids, layer);
    expect(maxAbsDiff(out.attention.find((a) => a.layer === layer)!.perHead!.data, ref.attention)).toBeLessThanOrEqual(TOL);
    if (layer === last) expect(maxAbsDiff(out.logits!.data, ref.logits)).toBeLessThanOrEqual(TOL);
  }
  await session.release();
}

for (const backend of ['wasm', 'native'] as const)
  describe(`q8, q4 and q4g128 graphs (MatMulNBits) vs the float64 reference on the same dequantized weights, Node ${backend}`, () => {
    for (const [name, opts] of FAMILY_CASES)
      for (const quant of ['q8', 'q4', 'q4g128'] as const) it(`${quant}: ${name}`, () => quantizedParity(opts, quant, backend));
  });

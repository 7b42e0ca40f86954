import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { buildGraph } from '../../../src/model/graph/graph';
import { referenceForward } from '../../../src/model/graph/reference';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { maxAbsDiff, sliceRows } from '../../helpers/compare';
import { memorySource } from '../../helpers/memory-source';
import { FAMILY_CASES as CASES } from '../../helpers/family-cases';
import { tinyModelFiles, type TinyOptions } from '../../helpers/tiny-model';

/** Rotary embeddings whose frequencies depend on the pass's length: a cached decode cannot equal one whole pass. */
const lengthDependent = (o: TinyOptions) => ['dynamic'].includes(String(o.ropeScaling?.rope_type));

const TOL = 1e-4;

describe('ONNX graph vs float64 reference on Node wasm', () => {
  for (const [name, opts] of CASES) {
    it(name, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const { spec } = ckpt;
      const weights = resolveWeights(spec, ckpt);
      const layers = [0, spec.numLayers - 1];
      const session = await ModelSession.create(buildGraph(spec, weights, { inspectLayers: layers }), spec);
      expect(session.report.backend).toBe('wasm');
      const S = 23;
      const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % spec.vocabSize);
      const out = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      for (const layer of layers) {
        const ref = await referenceForward(spec, weights, ids, layer);
        const att = out.attention.find((a) => a.layer === layer)!;
        const dAttn = maxAbsDiff(att.perHead!.data, ref.attention);
        if (layer === spec.numLayers - 1) {
          const dLogits = maxAbsDiff(out.logits!.data, ref.logits);
          console.log(`${name}: max |Δ| logits ${dLogits.toExponential(2)}, attention (layer ${layer}) ${dAttn.toExponential(2)}`);
          expect(dLogits).toBeLessThanOrEqual(TOL);
        }
        expect(dAttn).toBeLessThanOrEqual(TOL);
        // Head mean, rows sum to 1, causal.
        const H = spec.numHeads;
        const mean = new Float64Array(S * S);
        for (let h = 0; h < H; h++) for (let i = 0; i < S * S; i++) mean[i]! += ref.attention[h * S * S + i]! / H;
        expect(maxAbsDiff(att.mean.data, mean)).toBeLessThanOrEqual(TOL);
        for (let h = 0; h < H; h++) {
          for (let i = 0; i < S; i++) {
            let sum = 0;
            for (let j = 0; j < S; j++) {
              const p = att.perHead!.data[(h * S + i) * S + j]!;
              sum += p;
              if (j > i) expect(p).toBe(0);
              const w = spec.layers[layer]!.window;
              if (w !== null && j <= i - w) expect(p).toBe(0); // a sliding layer sees the last w keys only
            }
            expect(Math.abs(sum - 1)).toBeLessThanOrEqual(1e-5);
          }
        }
      }
      // A row range fetches exactly those rows of the full matrix, and one logit row equals its full-run row.
      const part = await session.forward({ ids, attnRows: [5, 12], logitRows: [S - 1, S], perHead: true });
      const full = out.attention.find((a) => a.layer === spec.numLayers - 1)!;
      const partAtt = part.attention.find((a) => a.layer === spec.numLayers - 1)!;
      expect(partAtt.mean).toMatchObject({ rowStart: 5, rows: 7, seqLen: S, heads: 1 });
      expect(partAtt.perHead).toMatchObject({ rowStart: 5, rows: 7, seqLen: S, heads: spec.numHeads });
      for (let h = 0; h < spec.numHeads; h++) {
        const want = sliceRows(Float64Array.from(full.perHead!.data), S, 5, 12, S, h);
        const got = Float64Array.from(partAtt.perHead!.data).slice(h * 7 * S, (h + 1) * 7 * S);
        expect(maxAbsDiff(got, want)).toBeLessThanOrEqual(1e-6);
      }
      expect(maxAbsDiff(part.logits!.data, out.logits!.data.slice((S - 1) * spec.vocabSize))).toBeLessThanOrEqual(1e-5);
      await session.release();
    });
  }
});

describe('fused attention (GroupQueryAttention) and the KV cache vs float64 reference on Node wasm', () => {
  for (const [name, opts] of CASES) {
    it(name, async () => {
      const ckpt = await loadCheckpoint(memorySource(tinyModelFiles(opts)));
      const { spec } = ckpt;
      const weights = resolveWeights(spec, ckpt);
      const last = spec.numLayers - 1;
      // Every layer but the inspected one runs the fused kernel.
      const graph = buildGraph(spec, weights, { attention: 'fused', kvCache: true });
      expect(graph.inspectLayers).toEqual([last]);
      // GroupQueryAttention needs head_size % 8 == 0; otherwise the graph says it stayed explicit.
      expect(graph.attention).toBe(spec.headDim % 8 === 0 ? 'fused' : 'explicit');
      if (graph.attention === 'explicit') expect(graph.attentionNote).toContain('head size divisible by 8, not 12');
      const session = await ModelSession.create(graph, spec);
      const S = 23;
      const V = spec.vocabSize;
      const ids = Array.from({ length: S }, (_, i) => (i * 37 + 11) % V);
      const ref = await referenceForward(spec, weights, ids, last);
      const whole = await session.forward({ ids, attnRows: [0, S], logitRows: [0, S], perHead: true });
      const dLogits = maxAbsDiff(whole.logits!.data, ref.logits);
      const dAttn = maxAbsDiff(whole.attention[0]!.perHead!.data, ref.attention);
      // Prefill 15 tokens, then one token at a time from the cache: logits and the new token's attention row.
      const P = 15;
      let step = await session.forward({ ids: ids.slice(0, P), layers: [], keepCache: true });
      let dDecode = 0;
      let dRow = 0;
      for (let t = P; t < S; t++) {
        step = await session.forward({ ids: [ids[t]!], attnRows: [0, 1], perHead: true, keepCache: true, past: step.present! });
        expect(step.present!.length).toBe(t + 1);
        // After the cache, rows and keys are absolute positions: this token's row is row t over t + 1 keys.
        expect(step.attention[0]!.mean).toMatchObject({ rowStart: t, rows: 1, seqLen: t + 1 });
        dDecode = Math.max(dDecode, maxAbsDiff(step.logits!.data, ref.logits.subarray(t * V, (t + 1) * V)));
        for (let h = 0; h < spec.numHeads; h++) {
          const want = ref.attention.subarray((h * S + t) * S, (h * S + t) * S + t + 1);
          dRow = Math.max(dRow, maxAbsDiff(step.attention[0]!.perHead!.data.subarray(h * (t + 1), (h + 1) * (t + 1)), want));
        }
      }
      if (lengthDependent(opts)) dDecode = dRow = 0; // each cached step has its own frequencies (as in transformers)
      console.log(
        `${name} (fused + cache): max |Δ| logits ${dLogits.toExponential(2)}, attention ${dAttn.toExponential(2)}, decode logits ${dDecode.toExponential(2)}, decode rows ${dRow.toExponential(2)}`,
      );
      for (const d of [dLogits, dAttn, dDecode, dRow]) expect(d).toBeLessThanOrEqual(TOL);
      await session.release();
    });
  }
});

import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint';
import { buildGraph } from '../../src/model/graph';
import { referenceForward } from '../../src/model/reference';
import { resolveWeights } from '../../src/model/weights';
import { ModelSession } from '../../src/runtime/ort-runtime';
import { maxAbsDiff, sliceRows } from '../helpers/compare';
import { memorySource } from '../helpers/memory-source';
import { tinyModelFiles, type TinyOptions } from '../helpers/tiny-model';

/** Every family and option the builder claims, each against the float64 reference. */
const CASES: [string, TinyOptions][] = [
  ['llama F32 untied MHA', { family: 'llama', seed: 1 }],
  ['llama F32 tied GQA rep 2, llama3 rope scaling', {
    family: 'llama', tie: true, heads: 4, kvHeads: 2, seed: 2,
    // original_max 64 puts the 4 frequencies of head_dim 8 in all three llama3 regimes.
    ropeScaling: { rope_type: 'llama3', factor: 4, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 64 },
  }],
  ['llama F16 with attention and mlp bias, sharded', { family: 'llama', dtype: 'F16', attentionBias: true, mlpBias: true, sharded: true, seed: 3 }],
  ['llama BF16 linear rope scaling, 3 layers', { family: 'llama', dtype: 'BF16', layers: 3, ropeScaling: { type: 'linear', factor: 2 }, seed: 4 }],
  ['qwen2 F32 q/k/v bias GQA rep 2', { family: 'qwen2', heads: 4, kvHeads: 2, seed: 5 }],
  ['qwen2 F16 tied GQA rep 4', { family: 'qwen2', dtype: 'F16', tie: true, heads: 4, kvHeads: 1, seed: 6 }],
  ['qwen3 BF16 tied q/k norm, head_dim 12 ≠ hidden/heads, GQA rep 3', { family: 'qwen3', dtype: 'BF16', tie: true, heads: 6, kvHeads: 2, headDim: 12, seed: 7 }],
  ['qwen3 F32 untied MHA', { family: 'qwen3', seed: 8 }],
  ['qwen2 sliding window 5 from layer 1 (use_sliding_window, max_window_layers)', { family: 'qwen2', heads: 4, kvHeads: 2, seed: 9, config: { use_sliding_window: true, sliding_window: 5, max_window_layers: 1 } }],
  ['llama YaRN rope (factor 4, original 16)', { family: 'llama', heads: 4, kvHeads: 2, seed: 10, ropeScaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 16 } }],
  ['llama dynamic NTK rope (23 tokens past max_position_embeddings 8)', { family: 'llama', seed: 11, ropeScaling: { rope_type: 'dynamic', factor: 2 }, config: { max_position_embeddings: 8 } }],
  ['mistral BF16 sliding window 7 in every layer, head_dim 12, GQA rep 2', { family: 'mistral', dtype: 'BF16', heads: 4, kvHeads: 2, headDim: 12, seed: 12, config: { sliding_window: 7 } }],
  ['granite F32 tied: embedding, attention, residual and logits multipliers', { family: 'granite', tie: true, heads: 4, kvHeads: 2, seed: 13, config: { embedding_multiplier: 12, attention_multiplier: 0.3, residual_multiplier: 0.22, logits_scaling: 8 } }],
  ['smollm3 NoPE layers (no_rope_layers [1,1,0]), tied by default', { family: 'smollm3', layers: 3, heads: 4, kvHeads: 2, seed: 14, config: { no_rope_layers: [1, 1, 0], tie_word_embeddings: undefined } }],
  ['smollm3 sliding NoPE layers (use_sliding_window, window 6, interval 2)', { family: 'smollm3', layers: 4, heads: 4, kvHeads: 2, seed: 15, config: { no_rope_layer_interval: 2, use_sliding_window: true, sliding_window: 6 } }],
  ['olmo2 BF16 post-norms, q/k norm over the whole projection, GQA rep 2', { family: 'olmo2', dtype: 'BF16', heads: 4, kvHeads: 2, seed: 16 }],
  ['gemma3_text BF16 tied: (1+w) norms, GeGLU, sandwich norms, √hidden, query_pre_attn_scalar, local/global rope, window 5, softcap', {
    family: 'gemma3_text', dtype: 'BF16', tie: true, layers: 3, heads: 4, kvHeads: 1, headDim: 16, seed: 17,
    config: { layer_types: ['sliding_attention', 'sliding_attention', 'full_attention'], sliding_window: 5, query_pre_attn_scalar: 24, rope_local_base_freq: 100, rope_scaling: { rope_type: 'linear', factor: 2 }, final_logit_softcapping: 5 },
  }],
  ['gemma3_text F32 sliding pattern 2 (no layer_types)', { family: 'gemma3_text', layers: 4, heads: 4, kvHeads: 2, headDim: 8, seed: 18, config: { sliding_window_pattern: 2, sliding_window: 4 } }],
  ['phi3 fused qkv and gate_up, partial rotary 0.5, LongRoPE long factors (23 > 8 tokens)', {
    family: 'phi3', heads: 4, kvHeads: 2, seed: 19,
    config: { partial_rotary_factor: 0.5, original_max_position_embeddings: 8, max_position_embeddings: 64, rope_scaling: { type: 'longrope', short_factor: [1, 1.5], long_factor: [2, 5] } },
  }],
  ['phi3 BF16 tied, LongRoPE short factors (23 ≤ 32), sliding window 9', {
    family: 'phi3', dtype: 'BF16', tie: true, seed: 20,
    config: { original_max_position_embeddings: 32, max_position_embeddings: 256, sliding_window: 9, rope_scaling: { type: 'longrope', short_factor: [1, 1.2, 1.4, 1.6], long_factor: [3, 4, 5, 6] } },
  }],
];

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
      console.log(`${name} (fused + cache): max |Δ| logits ${dLogits.toExponential(2)}, attention ${dAttn.toExponential(2)}, decode logits ${dDecode.toExponential(2)}, decode rows ${dRow.toExponential(2)}`);
      for (const d of [dLogits, dAttn, dDecode, dRow]) expect(d).toBeLessThanOrEqual(TOL);
      await session.release();
    });
  }
});

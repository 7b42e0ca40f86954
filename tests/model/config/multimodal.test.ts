import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { normalizeConfig } from '../../../src/model/config/config';
import { buildGraph } from '../../../src/model/graph/graph';
import { fileListSource } from '../../../src/model/source/source';
import { readSafetensorsHeader, writeSafetensors } from '../../../src/model/checkpoint/safetensors';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { ModelSession } from '../../../src/runtime/ort-runtime';
import { randomTensors } from '../../helpers/random-checkpoint';
import { tinyConfig, tinyModelFiles, type TinyOptions } from '../../helpers/tiny-model';

const real = (model: string) => JSON.parse(readFileSync(`tests/fixtures/multimodal/${model}/config.json`, 'utf8'));

describe('image-and-text checkpoints: their text model', () => {
  it("gemma-3-4b-it: text_config with transformers' defaults for what it leaves out", () => {
    const spec = normalizeConfig(real('google--gemma-3-4b-it'));
    expect(spec).toMatchObject({
      family: 'gemma3_text',
      multimodal: 'gemma3',
      hiddenSize: 2560,
      intermediateSize: 10240,
      numLayers: 34,
      numHeads: 8,
      numKvHeads: 4,
      headDim: 256,
      vocabSize: 262_208,
      tieWordEmbeddings: true,
      eosTokenIds: [1, 106],
    });
    expect(spec.attentionScale).toBeCloseTo(256 ** -0.5, 12);
    // 5 sliding layers of 1,024 keys, then a global one (pattern 6); the global rope scaled ×8 linearly, the local one not.
    expect(spec.layers.slice(0, 6).map((l) => l.window)).toEqual([1024, 1024, 1024, 1024, 1024, null]);
    expect(spec.ropes[0]).toMatchObject({ theta: 1_000_000, scaling: { type: 'linear', factor: 8 } });
    expect(spec.ropes[1]).toMatchObject({ theta: 10_000, scaling: { type: 'default' } });
    expect(spec.notes[0]).toContain('image-and-text model (model_type "gemma3")');
  });

  it('Mistral-Small-3.1: a Mistral text model, no sliding window', () => {
    const spec = normalizeConfig(real('mistralai--Mistral-Small-3.1-24B-Instruct-2503'));
    expect(spec).toMatchObject({
      family: 'mistral',
      multimodal: 'mistral3',
      hiddenSize: 5120,
      numLayers: 40,
      numHeads: 32,
      numKvHeads: 8,
      headDim: 128,
      vocabSize: 131_072,
      tieWordEmbeddings: false,
    });
    expect(spec.layers.every((l) => l.window === null)).toBe(true);
    expect(spec.ropes[0]!.theta).toBe(1e9);
  });

  /** A tiny wrapper checkpoint: the text model's tensors under the wrapper's prefix, a vision tensor beside them. */
  function wrapped(o: TinyOptions, kind: 'gemma3' | 'mistral3', prefix: string): { files: Map<string, Uint8Array> } {
    const text = tinyConfig(o);
    const tensors = [...randomTensors(text, o.dtype ?? 'F32', o.seed ?? 1)].map((t) => ({
      ...t,
      name: t.name.startsWith('lm_head.') && prefix === 'language_model.model.' ? `language_model.${t.name}` : t.name.replace(/^model\./, prefix),
    }));
    tensors.push({
      name: 'vision_tower.vision_model.embeddings.patch_embedding.weight',
      dtype: 'F32',
      shape: [8, 3, 2, 2],
      bytes: new Uint8Array(8 * 3 * 4 * 4).fill(0xff),
    });
    const files = tinyModelFiles(o);
    const { torch_dtype, ...inner } = text;
    files.set(
      'config.json',
      new TextEncoder().encode(
        JSON.stringify({ model_type: kind, torch_dtype, text_config: { ...inner }, vision_config: { model_type: 'siglip_vision_model' } }),
      ),
    );
    files.set('model.safetensors', writeSafetensors(tensors));
    return { files };
  }

  for (const [kind, o, prefix] of [
    [
      'gemma3',
      { family: 'gemma3_text', dtype: 'BF16', tie: true, layers: 3, heads: 4, kvHeads: 1, headDim: 16, seed: 17, config: { sliding_window: 5 } },
      'language_model.model.',
    ],
    ['gemma3', { family: 'gemma3_text', tie: true, layers: 2, heads: 4, kvHeads: 2, headDim: 8, seed: 18 }, 'model.language_model.'],
    ['mistral3', { family: 'mistral', heads: 4, kvHeads: 2, seed: 12 }, 'language_model.model.'],
  ] as const) {
    it(`${kind} with weights named ${prefix}*: the same logits and attention as the text model alone, the vision tower never read`, async () => {
      const { files } = wrapped(o, kind, prefix);
      const reads: [number, number][] = [];
      const source = fileListSource(
        [...files].map(([name, bytes]) => ({
          name,
          size: bytes.byteLength,
          slice: (a: number, b: number) => ({ arrayBuffer: async () => (name === 'model.safetensors' && reads.push([a, b]), bytes.slice(a, b).buffer) }),
        })),
        'wrapped',
      );
      const plain = await loadCheckpoint(
        fileListSource(
          [...tinyModelFiles(o)].map(([name, bytes]) => ({
            name,
            size: bytes.byteLength,
            slice: (a: number, b: number) => ({ arrayBuffer: async () => bytes.slice(a, b).buffer }),
          })),
          'plain',
        ),
      );
      const ckpt = await loadCheckpoint(source);
      expect(ckpt.spec.multimodal).toBe(kind);
      expect(ckpt.spec.notes.join(' ')).toContain('1 tensors of the vision tower and projector are never read');
      const run = async (c: typeof ckpt) => {
        const session = await ModelSession.create(buildGraph(c.spec, resolveWeights(c.spec, c)), c.spec);
        const ids = Array.from({ length: 11 }, (_, i) => (i * 37 + 11) % c.spec.vocabSize);
        const out = await session.forward({ ids, attnRows: [0, 11], logitRows: [0, 11], perHead: true });
        await session.release();
        return out;
      };
      const [a, b] = [await run(plain), await run(ckpt)];
      expect(Array.from(b.logits!.data)).toEqual(Array.from(a.logits!.data));
      expect(Array.from(b.attention[0]!.perHead!.data)).toEqual(Array.from(a.attention[0]!.perHead!.data));
      // No read touched the vision tensor's bytes.
      const header = await readSafetensorsHeader('model.safetensors', {
        size: files.get('model.safetensors')!.byteLength,
        read: async (x: number, y: number) => files.get('model.safetensors')!.slice(x, y),
      });
      const vision = header.get('vision_tower.vision_model.embeddings.patch_embedding.weight')!;
      expect(reads.length).toBeGreaterThan(0);
      expect(reads.some(([x, y]) => x < vision.end && y > vision.start)).toBe(false);
    });
  }
});

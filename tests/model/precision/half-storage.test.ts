import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../../src/model/checkpoint/checkpoint';
import { f32ToBf16 } from '../../../src/model/precision/dtype';
import { buildGraph } from '../../../src/model/graph/graph';
import { mapBytes, readBytes } from '../../../src/model/checkpoint/tensor-bytes';
import { resolveWeights } from '../../../src/model/checkpoint/weights';
import { castsBf16, ModelSession } from '../../../src/runtime/ort-runtime';
import { HALF_CASES, halfParity } from '../../helpers/half-parity';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles } from '../../helpers/tiny-model';

describe("'half' weight storage on Node's wasm build, against the float64 reference", () => {
  it('this build casts BF16', () => expect(castsBf16('wasm')).toBe(true));
  for (const [name, opts] of HALF_CASES) {
    it(`${name}, as stored`, async () => {
      const r = await halfParity(opts, { weightStorage: 'half' });
      expect(r.storage).toContain(`${opts.dtype} matrices kept in half precision, widened to fp32 where used`);
      console.log(`${name}: max |Δ| logits ${r.dLogits.toExponential(2)}, attention ${r.dAttn.toExponential(2)}`);
    });
  }
  it('BF16 matrices kept as fp16 (the browser build has no BF16 Cast) run within the same tolerance', async () => {
    const r = await halfParity(HALF_CASES[0]![1], { weightStorage: 'half', keptBf16: 'fp16' });
    expect(r.storage).toContain('BF16 matrices kept in half precision as fp16 (this runtime cannot cast BF16)');
  });

  it('a BF16 weight fp16 cannot hold is refused by tensor and file, not run as infinity', async () => {
    const ckpt = await loadCheckpoint(memorySource(tinyModelFiles({ family: 'llama', dtype: 'BF16', seed: 35 })));
    const t = ckpt.tensors.get('model.layers.0.mlp.up_proj.weight')!;
    const big = f32ToBf16(1e5);
    ckpt.tensors.set(t.name, {
      ...t,
      data: mapBytes(t.data, t.data.byteLength, (raw, into) => {
        into.set(raw);
        into[0] = big & 0xff;
        into[1] = big >> 8;
      }),
    });
    expect(Array.from((await readBytes(ckpt.tensors.get(t.name)!.data)).slice(0, 2))).toEqual([big & 0xff, big >> 8]);
    const built = buildGraph(ckpt.spec, resolveWeights(ckpt.spec, ckpt), { weightStorage: 'half', keptBf16: 'fp16' });
    await expect(ModelSession.create(built, ckpt.spec)).rejects.toThrow(
      /model\.safetensors: model\.layers\.0\.mlp\.up_proj\.weight holds 9\.984e\+4, beyond the ±65,504 fp16 can hold/,
    );
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadCheckpoint } from '../../src/model/checkpoint/checkpoint';
import { referenceForward } from '../../src/model/graph/reference';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';
import { resolveWeights } from '../../src/model/checkpoint/weights';
import { dirSource } from '../../src/cli/dir-source';
import { writeTinyModel } from '../helpers/tiny-model';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 24 });

describe('inertia-lens CLI', () => {
  const dir = writeTinyModel(join(mkdtempSync(join(tmpdir(), 'il-cli-')), 'model'), { family: 'llama', heads: 4, kvHeads: 2, seed: 11 });

  it('inspect-model prints the spec, a parameter count equal to the tensors in the file, and the outputs', async () => {
    const { stdout } = await cli('inspect-model', dir, '--layer', '0', '--layer', '1', '--json');
    const info = JSON.parse(stdout);
    const ckpt = await loadCheckpoint(dirSource(dir));
    const stored = [...ckpt.tensors.values()].reduce((n, t) => n + t.shape.reduce((a, b) => a * b, 1), 0);
    expect(info.parameters).toBe(stored);
    expect(info.spec).toMatchObject({ family: 'llama', numHeads: 4, numKvHeads: 2, headDim: 8 });
    expect(info.weightDtypes).toEqual(['F32']);
    // Attention rows of both layers, then the KV cache of every layer (generation continues from it).
    expect(info.graph.outputs).toEqual([
      'logits',
      'attn_rows_l0',
      'attn_rows_mean_l0',
      'attn_rows_l1',
      'attn_rows_mean_l1',
      'present_key_l0',
      'present_value_l0',
      'present_key_l1',
      'present_value_l1',
    ]);
  });

  it('forward prints the reference top tokens and attention rows that sum to 1', async () => {
    const text = 'The maze goes east.';
    const { stdout } = await cli('forward', dir, '--text', text, '--top', '3', '--json');
    const out = JSON.parse(stdout);
    const ckpt = await loadCheckpoint(dirSource(dir));
    const ids = (await ChatTokenizer.load(dirSource(dir))).encode(text);
    const ref = await referenceForward(ckpt.spec, resolveWeights(ckpt.spec, ckpt), ids);
    const V = ckpt.spec.vocabSize;
    const last = Array.from(ref.logits.subarray((ids.length - 1) * V));
    const want = last
      .map((l, id) => ({ id, l }))
      .sort((a, b) => b.l - a.l)
      .slice(0, 3);
    expect(out.tokens).toBe(ids.length);
    expect(out.next.map((t: { id: number }) => t.id)).toEqual(want.map((w) => w.id));
    out.next.forEach((t: { logit: number }, i: number) => expect(Math.abs(t.logit - want[i]!.l)).toBeLessThan(1e-4));
    expect(out.attention.shape).toEqual([4, ids.length, ids.length]);
    for (const s of out.attention.headMeanRowSums) expect(Math.abs(s - 1)).toBeLessThan(1e-5);
  });

  it('forward --dtype fp16 runs the fp16 graph and says so', async () => {
    const { stdout } = await cli('forward', dir, '--text', 'abc', '--dtype', 'fp16', '--json');
    const out = JSON.parse(stdout);
    expect(out.computeDtype).toBe('fp16');
    for (const s of out.attention.headMeanRowSums) expect(Math.abs(s - 1)).toBeLessThan(1e-5);
    const bad = await cli('forward', dir, '--text', 'abc', '--dtype', 'fp8').catch((e) => e);
    expect(bad.stderr).toContain('--dtype takes auto, fp32 or fp16, got "fp8"');
  });

  it('--backend native runs onnxruntime-node: the same top tokens as wasm, its plan and device in the JSON', async () => {
    const text = 'The maze goes east.';
    const wasm = JSON.parse((await cli('forward', dir, '--text', text, '--top', '3', '--json')).stdout);
    const native = JSON.parse((await cli('forward', dir, '--text', text, '--top', '3', '--json', '--backend', 'native')).stdout);
    expect(native.backend).toBe('native');
    expect(native.next.map((t: { id: number }) => t.id)).toEqual(wasm.next.map((t: { id: number }) => t.id));
    native.next.forEach((t: { logit: number }, i: number) => expect(Math.abs(t.logit - wasm.next[i].logit)).toBeLessThan(1e-4));
    const info = JSON.parse((await cli('inspect-model', dir, '--json', '--backend', 'native')).stdout);
    expect(info).toMatchObject({ backend: 'native', device: 'cpu', plan: { backend: 'native', storage: 'compute', prepack: true, problem: null } });
    const bad = await cli('forward', dir, '--text', 'abc', '--device', 'cuda').catch((e) => e);
    expect(bad.stderr).toContain('--device cuda needs --backend native');
  });

  it('reports a bad folder by file name and exits 1', async () => {
    const err = await cli('inspect-model', join(dir, 'nope')).catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('config.json: is missing from');
    const noText = await cli('forward', dir).catch((e) => e);
    expect(noText.stderr).toContain('forward needs --text');
  });
});

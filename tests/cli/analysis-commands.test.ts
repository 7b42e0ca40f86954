import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAZE_TEXT } from '../helpers/maze';
import { writeTinyModel } from '../helpers/tiny-model';
import { compareAnswers, withHeadsOff } from '../../src/analysis/ablation';
import { generateAnswer } from '../../src/analysis/answer';
import { analyzePolicy } from '../../src/analysis/analyze';
import { dirSource } from '../../src/cli/dir-source';
import { parseConversation } from '../../src/conversation/parse';
import { openModel } from '../../src/runtime/open-model';

const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 26 });

describe('inertia-lens analyze and batch', () => {
  const dir = mkdtempSync(join(tmpdir(), 'il-analyze-'));
  const model = writeTinyModel(join(dir, 'model'), { family: 'qwen2', heads: 4, kvHeads: 2, seed: 61 });
  const maze = join(dir, 'maze.txt');
  writeFileSync(maze, MAZE_TEXT);

  it('analyze --json follows the documented contract', async () => {
    const { stdout } = await cli('analyze', maze, '--model', model, '--policy', 'full', '--policy', 'clip:3:1', '--policy', 'ao', '--json', '--dump-attention');
    const doc = JSON.parse(stdout);
    expect(doc).toMatchObject({ model, backend: 'wasm', conversation: { format: 'text', messages: 9 } });
    expect(doc.results.map((r: { policy: string }) => r.policy)).toEqual(['full', 'clip:3:1', 'ao']);
    for (const r of doc.results) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['policy', 'tokens', 'query', 'ratios', 'diagonal', 'perHead', 'perMessage', 'cost', 'attention']));
      expect(Object.keys(r.ratios)).toEqual(['sink', 'system', 'user', 'prior', 'current']);
      expect(r.tokens[0]).toEqual({ id: expect.any(Number), text: expect.any(String), category: 'sink', message: 0 });
      expect(r.perHead).toHaveLength(4);
      expect(r.attention).toHaveLength(r.query.end - r.query.start);
      expect(r.attention[0]).toHaveLength(r.tokens.length);
      expect(r.cost.map((c: { turn: number }) => c.turn)).toEqual([1, 2, 3, 4]);
    }
    const [full, clip] = doc.results;
    expect(clip.tokens.length).toBeLessThan(full.tokens.length); // clip:3:1 at turn 4 keeps one earlier turn
  });

  it('prints a readable table without --json', async () => {
    const { stdout } = await cli('analyze', maze, '--model', model, '--policy', 'window:1', '--turn', '3');
    expect(stdout).toContain('turn 3');
    expect(stdout).toMatch(/Window-1\s+\d+\s+0\.\d{4}/);
  });

  it('analyze --all-layers: every layer and head from one pass; the final layer is the figures shown', async () => {
    const doc = JSON.parse((await cli('analyze', maze, '--model', model, '--policy', 'full', '--policy', 'ao', '--all-layers', '--json')).stdout);
    for (const r of doc.results) {
      expect(r.layers.map((l: { layer: number }) => l.layer)).toEqual([0, 1]);
      for (const l of r.layers) expect(l.perHead).toHaveLength(4);
      const last = r.layers[r.layers.length - 1];
      expect(Math.abs(last.diagonal - r.diagonal)).toBeLessThan(1e-5);
      for (const c of ['sink', 'system', 'user', 'prior', 'current']) expect(Math.abs(last.ratios[c] - r.ratios[c])).toBeLessThan(1e-5);
      r.perHead.forEach((h: { diagonal: number }, k: number) => expect(Math.abs(last.perHead[k].diagonal - h.diagonal)).toBeLessThan(1e-5));
    }
    const text = (await cli('analyze', maze, '--model', model, '--all-layers')).stdout;
    expect(text).toMatch(/diagonal by layer \(head mean\): L0 0\.\d{4} {2}L1 0\.\d{4}/);
    expect(text).toMatch(/highest heads \(layer\.head\): \d\.\d 0\.\d{4}/);
  });

  it('analyze --ablate and --ablate-top: heads switched off in every pass, named in the output, equal to the session with that mask', async () => {
    const plain = JSON.parse((await cli('analyze', maze, '--model', model, '--json')).stdout);
    // Heads of layer 0: the final layer's attention reads what they wrote, so its figures move.
    const off = JSON.parse((await cli('analyze', maze, '--model', model, '--ablate', '0.1', '--ablate', '0.3', '--json')).stdout);
    expect(off.ablation).toEqual({ kind: 'zero', heads: ['0.1', '0.3'], chosen: 'named (--ablate)' });
    expect(plain.ablation).toBeNull();
    expect(Math.abs(off.results[0].diagonal - plain.results[0].diagonal)).toBeGreaterThan(1e-6);
    const m = await openModel(dirSource(model));
    const mask = new Float32Array(m.checkpoint.spec.numLayers * m.checkpoint.spec.numHeads).fill(1);
    mask[1] = 0;
    mask[3] = 0;
    m.session.headMask = mask;
    const fresh = await analyzePolicy(m, parseConversation(readFileSync(maze, 'utf8')).conversation!, 'full');
    await m.session.release();
    expect(Math.abs(fresh.diagonal - off.results[0].diagonal)).toBeLessThan(1e-6);
    const top = JSON.parse((await cli('analyze', maze, '--model', model, '--ablate-top', '2', '--json')).stdout);
    expect(top.ablation.heads).toHaveLength(2);
    expect(top.ablation.chosen).toBe('the 2 with the highest diagonal ratio under Full');
    expect((await cli('analyze', maze, '--model', model, '--ablate', '1.2')).stdout).toContain('heads switched off (zero ablation, named (--ablate)): 1.2');
    // Mean ablation: the same heads write their mean output over the conversation instead of zero.
    const mean = JSON.parse((await cli('analyze', maze, '--model', model, '--ablate', '0.1', '--ablate', '0.3', '--ablate-mean', '--json')).stdout);
    expect(mean.ablation).toEqual({ kind: 'mean', heads: ['0.1', '0.3'], chosen: 'named (--ablate)' });
    expect(Math.abs(mean.results[0].diagonal - off.results[0].diagonal)).toBeGreaterThan(1e-6);
    expect(Math.abs(mean.results[0].diagonal - plain.results[0].diagonal)).toBeGreaterThan(1e-6);
    const e0 = await cli('analyze', maze, '--model', model, '--ablate-mean').catch((x) => x);
    expect(e0.stderr).toContain('--ablate-mean says how --ablate or --ablate-top switch heads off');
    const e1 = await cli('analyze', maze, '--model', model, '--ablate', '9.0').catch((x) => x);
    expect(e1.stderr).toContain('--ablate head 9.0: this model has layers 0..1 and heads 0..3');
    const e2 = await cli('analyze', maze, '--model', model, '--ablate', 'x').catch((x) => x);
    expect(e2.stderr).toContain('--ablate takes LAYER.HEAD (0-based, e.g. 1.3), got "x"');
  });

  it("analyze --generate: each policy's greedy answer; with heads off, also the answer with every head on, each as generation on that mask writes it", async () => {
    const conv = parseConversation(readFileSync(maze, 'utf8')).conversation!;
    const turns = conv.messages.filter((x) => x.role === 'assistant').length;
    const plain = JSON.parse((await cli('analyze', maze, '--model', model, '--generate', '--json')).stdout);
    expect(Object.keys(plain.results[0].answer)).toEqual(['text']);
    const off = JSON.parse((await cli('analyze', maze, '--model', model, '--generate', '--ablate', '0.1', '--ablate', '0.3', '--json')).stdout);
    const m = await openModel(dirSource(model));
    const on = await generateAnswer(m, conv, 'full', turns);
    const ablated = await generateAnswer(
      withHeadsOff(m, [
        [0, 1],
        [0, 3],
      ]),
      conv,
      'full',
      turns,
    );
    await m.session.release();
    expect(plain.results[0].answer.text).toBe(on);
    expect(off.results[0].answer).toEqual({ text: ablated, withEveryHeadOn: on, comparison: compareAnswers(on, ablated) });
    const e = await cli('batch', maze, '--model', model, '--generate').catch((x) => x);
    expect(e.stderr).toContain('--generate is for analyze');
  });

  it("batch --all-layers writes the long format (every layer's head mean and heads), and batch --ablate L.H switches them off for every line", async () => {
    const jsonl = join(dir, 'one.jsonl');
    writeFileSync(jsonl, `${JSON.stringify({ messages: parseConversation(MAZE_TEXT).conversation!.messages })}\n`);
    const doc = JSON.parse((await cli('analyze', maze, '--model', model, '--all-layers', '--json')).stdout);
    const rows = (await cli('batch', jsonl, '--model', model, '--all-layers')).stdout.trim().split('\n');
    expect(rows[0]).toBe('line,policy,turn,layer,head,sink,system,user,prior,current,diagonal');
    const layers = doc.results[0].layers as { diagonal: number; perHead: { diagonal: number }[] }[];
    expect(rows).toHaveLength(1 + layers.length * (1 + layers[0]!.perHead.length));
    for (const row of rows.slice(1)) {
      const [line, policy, , layer, head, , , , , , diagonal] = row.split(',');
      expect([line, policy]).toEqual(['1', 'full']);
      const l = layers[Number(layer)]!;
      const want = head === 'mean' ? l.diagonal : l.perHead[Number(head)]!.diagonal;
      expect(Math.abs(Number(diagonal) - want)).toBeLessThan(1e-5);
    }
    const off = JSON.parse((await cli('analyze', maze, '--model', model, '--ablate', '0.1', '--json')).stdout).results[0];
    const b = await cli('batch', jsonl, '--model', model, '--ablate', '0.1');
    expect(b.stderr).toContain('heads switched off (zero ablation): 0.1');
    expect(Math.abs(Number(b.stdout.trim().split('\n')[1]!.split(',')[9]) - off.diagonal)).toBeLessThan(1e-5);
    const e1 = await cli('batch', jsonl, '--model', model, '--ablate-top', '2').catch((x) => x);
    expect(e1.stderr).toContain('--ablate-top is for analyze (it ranks heads per conversation); batch takes --ablate L.H');
    const e2 = await cli('batch', jsonl, '--model', model, '--all-layers', '--sweep').catch((x) => x);
    expect(e2.stderr).toContain('batch --all-layers writes every layer and head of the scored turn: leave out --sweep');
    const e3 = await cli('batch', jsonl, '--model', model, '--ablate', '7.0').catch((x) => x);
    expect(e3.stderr).toContain('--ablate head 7.0: this model has layers 0..1 and heads 0..3');
  });

  it('reports bad conversations and bad options by name, without a stack trace', async () => {
    const bad = join(dir, 'bad.txt');
    writeFileSync(bad, 'User: hi\nAssistant:   \n');
    const e1 = await cli('analyze', bad, '--model', model).catch((e) => e);
    expect(e1.code).toBe(1);
    expect(e1.stderr).toContain('error at message 2, line 2: the assistant message is empty');
    expect(e1.stderr).not.toContain('    at ');
    const e2 = await cli('analyze', maze, '--model', model, '--policy', 'clip:2').catch((e) => e);
    expect(e2.stderr).toContain('policy "clip:2": clip takes 2 numbers');
    const e3 = await cli('analyze', maze, '--model', model, '--turn', '9').catch((e) => e);
    expect(e3.stderr).toContain('turn 9 does not exist: the conversation has assistant turns 1..4');
    const e4 = await cli('analyze', join(dir, 'none.txt'), '--model', model).catch((e) => e);
    expect(e4.stderr).toContain('no such file');
  });

  it('batch writes one CSV row per conversation × policy, skips bad lines by number, and sums up', async () => {
    const jsonl = join(dir, 'many.jsonl');
    const conv = [
      { role: 'user', content: 'Position (0,0).' },
      { role: 'assistant', content: 'Action: east' },
      { role: 'user', content: 'Position (1,0).' },
      { role: 'assistant', content: 'Action: east' },
    ];
    writeFileSync(jsonl, [JSON.stringify(conv), '{"messages": [}', JSON.stringify({ messages: conv.slice(0, 2) })].join('\n'));
    const out = join(dir, 'results.csv');
    // Exit code 2: rows written, some lines skipped.
    const { code, stderr } = await cli('batch', jsonl, '--model', model, '--policy', 'full', '--policy', 'de', '--out', out).catch((e) => e);
    expect(code).toBe(2);
    const rows = readFileSync(out, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('line,policy,turn,tokens,sink,system,user,prior,current,diagonal,context_tokens,prefilled');
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 3).join(','))).toEqual(['1,full,2', '1,de,2', '3,full,1', '3,de,1']);
    expect(stderr).toMatch(/line 2: skipped: error at line 2:15: invalid JSON \(Unexpected token '}'\)/); // located by our reading where Node 20 gives no position
    expect(stderr).toContain('2 of 3 conversations analysed, 1 skipped; 4 rows written to');
    expect(stderr).toMatch(/Full\s+mean prior 0\.\d{4}\s+mean diagonal 0\.\d{4}\s+\(2 rows\)/);
    const swept = await cli('batch', jsonl, '--model', model, '--policy', 'full', '--sweep').catch((e) => e);
    expect(
      swept.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((r: string) => r.split(',').slice(0, 3).join(',')),
    ).toEqual(['1,full,2']);
  });
});

describe('two to four models on one conversation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'il-two-'));
  const a = writeTinyModel(join(dir, 'a'), { family: 'qwen2', heads: 4, kvHeads: 2, seed: 61 });
  const b = writeTinyModel(join(dir, 'b'), { family: 'llama', heads: 4, kvHeads: 2, seed: 7 });
  const maze = join(dir, 'maze.txt');
  writeFileSync(maze, MAZE_TEXT);

  it('analyze --model A --model B: each model scored as it is alone, then B against A', async () => {
    const both = JSON.parse((await cli('analyze', maze, '--model', a, '--model', b, '--policy', 'full', '--policy', 'ao', '--json')).stdout);
    expect(both.conversation).toMatchObject({ format: 'text', messages: 9 });
    expect(both.models.map((m: { model: string }) => m.model)).toEqual([a, b]);
    for (const [i, dirOf] of [a, b].entries()) {
      const alone = JSON.parse((await cli('analyze', maze, '--model', dirOf, '--policy', 'full', '--policy', 'ao', '--json')).stdout);
      expect(both.models[i].results.map((r: { diagonal: number }) => r.diagonal)).toEqual(alone.results.map((r: { diagonal: number }) => r.diagonal));
    }
    const text = (await cli('analyze', maze, '--model', a, '--model', b, '--policy', 'full')).stdout;
    expect(text).toMatch(
      new RegExp(
        `${b.replace(/[/.]/g, '\\$&')} against ${a.replace(/[/.]/g, '\\$&')}:\\n  Full\\s+prior 0\\.\\d{4} vs 0\\.\\d{4} \\(-?\\d+\\.\\d %\\)\\s+diagonal`,
      ),
    );
  });

  it('analyze with four models: each against the first', async () => {
    const c = writeTinyModel(join(dir, 'c'), { family: 'qwen3', heads: 4, kvHeads: 2, seed: 62 });
    const d = writeTinyModel(join(dir, 'd'), { family: 'mistral', heads: 4, kvHeads: 2, seed: 63 });
    const four = JSON.parse((await cli('analyze', maze, '--model', a, '--model', b, '--model', c, '--model', d, '--policy', 'full', '--json')).stdout);
    expect(four.models.map((m: { model: string }) => m.model)).toEqual([a, b, c, d]);
    const text = (await cli('analyze', maze, '--model', a, '--model', b, '--model', c, '--model', d, '--policy', 'full')).stdout;
    expect(text.match(/ against /g)?.length).toBe(3);
    for (const other of [b, c, d]) expect(text).toContain(`${other} against ${a}:`);
  });

  it('batch with two models: a model column, every conversation under each', async () => {
    const jsonl = join(dir, 'two.jsonl');
    const conv = [
      { role: 'user', content: 'Position (0,0).' },
      { role: 'assistant', content: 'Action: east' },
      { role: 'user', content: 'Position (1,0).' },
      { role: 'assistant', content: 'Action: east' },
    ];
    writeFileSync(jsonl, [JSON.stringify(conv), JSON.stringify(conv)].join('\n'));
    const { stdout, stderr } = await cli('batch', jsonl, '--model', a, '--model', b);
    const rows = stdout.trim().split('\n');
    expect(rows[0]).toBe('model,line,policy,turn,tokens,sink,system,user,prior,current,diagonal,context_tokens,prefilled');
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 2).join(','))).toEqual([`${a},1`, `${a},2`, `${b},1`, `${b},2`]);
    expect(stderr).toContain('4 of 4 conversation × model runs analysed, 0 skipped');
  });
});

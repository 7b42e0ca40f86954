import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MAZE_TEXT } from '../helpers/maze';
import { writeTinyModel } from '../helpers/tiny-model';

const run = promisify(execFile);
const cli = (...args: string[]) =>
  run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 26 }).then(
    (r) => ({ code: 0, ...r }),
    (e) => e as { code: number; stdout: string; stderr: string },
  );

/** What every refusal must look like: exit code 1, one named message, no stack trace. */
function refused(r: { code: number; stderr: string }, says: string | RegExp): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(says);
  expect(r.stderr).not.toContain('    at ');
}

describe('the CLI under hostile and broken input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'il-hostile-'));
  const model = writeTinyModel(join(dir, 'model'), { family: 'llama', seed: 5 });
  const maze = join(dir, 'maze.txt');
  writeFileSync(maze, MAZE_TEXT);
  const conv = JSON.stringify([
    { role: 'user', content: 'Position (0,0).' },
    { role: 'assistant', content: 'Action: east' },
    { role: 'user', content: 'Position (1,0).' },
    { role: 'assistant', content: 'Action: east' },
  ]);

  it('names the file and the problem, never with a stack trace', async () => {
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, `[{"role": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}, "content": "x"}]`);
    refused(await cli('analyze', deep, '--model', model), /deep\.json: error at line 1:\d+: nested more than 32 levels deep/);
    refused(await cli('analyze', dir, '--model', model), /is a folder, not a file/);
    refused(await cli('analyze', maze, '--model', model, '--layer', '7'), 'layer 7 does not exist: this model has 2 layers (0..1');
    const share = join(dir, 'proto.json');
    writeFileSync(
      share,
      JSON.stringify({
        conversations: [
          { from: 'human', value: 'q' },
          { from: '__proto__', value: 'a' },
        ],
      }),
    );
    refused(await cli('analyze', share, '--model', model), 'error at message 2: unknown role "__proto__"');
  });

  it('refuses a model that computes NaN, naming the layer, and prints no NaN figure', async () => {
    const nan = writeTinyModel(join(dir, 'nan'), { family: 'llama', seed: 5, poison: 'model.layers.1.self_attn.k_proj.weight' });
    const r = await cli('analyze', maze, '--model', nan, '--json');
    refused(r, /layer 1's attention is not a number \(NaN or infinite\) in [\d,]+ of [\d,]+ values, first at query #\d+ .*config\.json/);
    expect(r.stdout).toBe('');
    const jsonl = join(dir, 'nan.jsonl');
    writeFileSync(jsonl, `${conv}\n${conv}\n`);
    const b = await cli('batch', jsonl, '--model', nan);
    refused(b, 'no conversation could be analysed');
    expect(b.stdout.trim().split('\n')).toEqual(['line,policy,turn,tokens,sink,system,user,prior,current,diagonal,context_tokens,prefilled']);
    expect(b.stdout).not.toMatch(/NaN/);
  });

  it('reads only files inside the model folder: a link out, or a link loop, is refused by name', async () => {
    const linked = join(dir, 'linked');
    mkdirSync(linked);
    for (const f of ['tokenizer.json', 'tokenizer_config.json', 'model.safetensors']) writeFileSync(join(linked, f), readFileSync(join(model, f)));
    writeFileSync(join(dir, 'outside.json'), readFileSync(join(model, 'config.json')));
    symlinkSync(join(dir, 'outside.json'), join(linked, 'config.json'));
    refused(await cli('analyze', maze, '--model', linked), /config\.json: is a link to .*outside\.json, outside the model folder/);
    const loop = join(dir, 'loop');
    mkdirSync(loop);
    for (const f of ['tokenizer.json', 'tokenizer_config.json', 'model.safetensors']) writeFileSync(join(loop, f), readFileSync(join(model, f)));
    symlinkSync(join(loop, 'config.json'), join(loop, 'config.json'));
    refused(await cli('analyze', maze, '--model', loop), 'config.json: is a symbolic link loop');
  });

  it('batch checks --out before the work, exits 2 when lines were skipped, and caps repeated messages', async () => {
    const jsonl = join(dir, 'some.jsonl');
    writeFileSync(jsonl, [conv, ...Array(30).fill('\u0000\u0001binary'), conv].join('\n'));
    refused(await cli('batch', jsonl, '--model', model, '--out', dir), /--out .* is a folder: give a file name/);
    refused(await cli('batch', jsonl, '--model', model, '--out', join(dir, 'no', 'such', 'x.csv')), /the folder .*such does not exist/);
    const out = join(dir, 'some.csv');
    writeFileSync(out, 'an older run\n');
    const r = await cli('batch', jsonl, '--model', model, '--out', out);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('    at ');
    expect(r.stderr.match(/skipped: /g)).toHaveLength(20);
    expect(r.stderr).toContain('more lines skipped; only their count is given below');
    expect(r.stderr).toContain('2 of 32 conversations analysed, 30 skipped; 2 rows written to');
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split(',')[0]),
    ).toEqual(['line', '1', '32']);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it("stops a tokenizer regex that backtracks without end, naming the file (the model's code is watched, as in the page)", async () => {
    const slow = writeTinyModel(join(dir, 'slow'), { family: 'llama', seed: 5 });
    const tj = JSON.parse(readFileSync(join(slow, 'tokenizer.json'), 'utf8'));
    tj.pre_tokenizer = {
      type: 'Sequence',
      pretokenizers: [{ type: 'Split', pattern: { Regex: '(a|a)+$' }, behavior: 'Isolated', invert: false }, tj.pre_tokenizer],
    };
    writeFileSync(join(slow, 'tokenizer.json'), JSON.stringify(tj));
    const conv = join(dir, 'aaaa.txt');
    writeFileSync(conv, `User: ${'a'.repeat(60)}!\nAssistant: ok`);
    const r = await cli('analyze', conv, '--model', slow);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('inertia-lens: tokenizer.json: the tokenizer ran for more than 5 s on one call and was stopped');
    expect(r.stderr).not.toContain('    at ');
  }, 120_000);

  it('batch interrupted (Ctrl-C) leaves a valid CSV of the conversations done and says how far it got', async () => {
    const jsonl = join(dir, 'long.jsonl');
    writeFileSync(jsonl, Array(3000).fill(conv).join('\n'));
    const out = join(dir, 'long.csv');
    writeFileSync(out, 'an older run\n');
    const child = spawn(process.execPath, ['bin/inertia-lens.mjs', 'batch', jsonl, '--model', model, '--out', out]);
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (/\] [3-9]\/3000|\] \d\d+\/3000/.test(stderr)) resolve();
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const m = /interrupted after (\d+) of 3000 conversations: (\d+) rows in .*long\.csv \(a partial result\)/.exec(stderr);
    expect(m).not.toBeNull();
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('line,policy,turn,tokens,sink,system,user,prior,current,diagonal,context_tokens,prefilled');
    expect(lines.length - 1).toBe(Number(m![2]));
    expect(Number(m![1])).toBeGreaterThanOrEqual(3);
    for (const l of lines.slice(1)) expect(l.split(',')).toHaveLength(12);
  });
});

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { csvParse } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import { bootstrapMeans, groupTable, policyChange, type ReportRow } from '../../src/analysis/report';

const run = promisify(execFile);
const cli = (args: string[]) =>
  run(process.execPath, ['bin/inertia-lens.mjs', ...args], { maxBuffer: 1 << 26 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
const row = (line: number, policy: string, diagonal: number, prior = 0.5, turn = 2, model = 'm'): ReportRow => ({
  line,
  turn,
  fields: { model, policy },
  values: { sink: 0.1, system: 0.1, user: 0.2, prior, current: 1 - 0.4 - prior, diagonal },
});

describe('report: the statistics, on cases worked by hand', () => {
  it('the bootstrap interval of the mean', () => {
    // A constant: every resample's mean is the constant.
    expect(bootstrapMeans([[0.3, 0.3, 0.3]])[0]).toEqual({ mean: expect.closeTo(0.3, 12), lo: expect.closeTo(0.3, 12), hi: expect.closeTo(0.3, 12) });
    // Two values 0 and 1: resample means are 0, ½, 1 with chances ¼, ½, ¼, so the 2.5 % and 97.5 % points are 0 and 1.
    expect(bootstrapMeans([[0, 1]])[0]).toEqual({ mean: 0.5, lo: 0, hi: 1 });
    // 200 values of a known spread: the interval is about mean ± 1.96·sd/√n (sd of 0…199 is 57.7).
    const xs = Array.from({ length: 200 }, (_, i) => i);
    const iv = bootstrapMeans([xs])[0]!;
    expect(iv.mean).toBe(99.5);
    expect(iv.hi - iv.mean).toBeGreaterThan(0.8 * 1.96 * (57.7 / Math.sqrt(200)));
    expect(iv.hi - iv.mean).toBeLessThan(1.2 * 1.96 * (57.7 / Math.sqrt(200)));
    // Seeded: the same numbers every time.
    expect(bootstrapMeans([xs])).toEqual(bootstrapMeans([xs]));
  });

  it('groups, the last turn of swept rows, and the change against Full paired by conversation', () => {
    const rows = [row(1, 'full', 0.2, 0.6, 1), row(1, 'full', 0.3, 0.6, 2), row(2, 'full', 0.5), row(1, 'ao', 0.1), row(2, 'ao', 0.2), row(3, 'ao', 0.9)];
    const t = groupTable(rows, ['policy']);
    expect(t.map((g) => [g.key.policy, g.n, g.stats.diagonal.mean])).toEqual([
      ['full', 2, 0.4],
      ['ao', 3, expect.closeTo(0.4, 12)],
    ]);
    // Line 3 has no Full row: it is left out of the pairs. (0.1 − 0.3 + 0.2 − 0.5) / 2 = −0.25.
    const c = policyChange(rows, ['policy']);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ policy: 'ao', n: 2 });
    expect(c[0]!.change.diagonal.mean).toBeCloseTo(-0.25, 12);
    expect(c[0]!.change.prior.mean).toBeCloseTo(-0.05, 12); // (0.5 − 0.6 + 0.5 − 0.5) / 2
  });
});

describe('inertia-lens report, from a batch over the examples with both demo models', () => {
  const dir = mkdtempSync(join(tmpdir(), 'il-report-'));
  const envs = ['maze', 'arithmetic', 'mixed-chat', 'maze-shifted'];
  const jsonl = join(dir, 'in.jsonl');
  // Each line an object with an env field beside its messages, as a dataset of agent runs is kept.
  writeFileSync(
    jsonl,
    `${envs.map((e) => JSON.stringify({ env: e.replace('-shifted', ''), messages: JSON.parse(readFileSync(`examples/${e}.json`, 'utf8')).messages ?? JSON.parse(readFileSync(`examples/${e}.json`, 'utf8')) })).join('\n')}\n`,
  );
  const csv = join(dir, 'results.csv');

  it('writes the Table 13 layout, the Fig. 2 curve and the Fig. 6 changes, each equal to a direct computation from the rows', async () => {
    const b = await cli([
      'batch',
      jsonl,
      '--model',
      'models/inertia-demo',
      '--model',
      'models/inertia-demo-cpl',
      '--policy',
      'full',
      '--policy',
      'clip:2:1',
      '--sweep',
      '--out',
      csv,
    ]);
    expect(b.code).toBe(0);
    const out = join(dir, 'report');
    const r = await cli(['report', csv, '--group-field', 'env', '--input', jsonl, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('| model | policy | env | n | diagonal | prior assistant | user | system | sink | current |');
    const rows = csvParse(readFileSync(csv, 'utf8'));
    const envOf = new Map(
      readFileSync(jsonl, 'utf8')
        .trim()
        .split('\n')
        .map((l, i) => [String(i + 1), JSON.parse(l).env as string]),
    );
    // Table: each group's mean of the last turn's rows, computed here from the CSV.
    const table = csvParse(readFileSync(join(out, 'table.csv'), 'utf8'));
    expect(table.length).toBe(2 * 2 * 3); // models × policies × envs (maze twice)
    for (const g of table) {
      const mine = rows.filter((x) => x.model === g.model && x.policy === g.policy && envOf.get(x.line!) === g.env);
      const last = mine.filter((x) => Number(x.turn) === Math.max(...mine.filter((y) => y.line === x.line).map((y) => Number(y.turn))));
      expect(Number(g.n)).toBe(last.length);
      const mean = last.reduce((s, x) => s + Number(x.diagonal), 0) / last.length;
      expect(Number(g.diagonal)).toBeCloseTo(mean, 4);
      expect(Number(g.diagonal_lo95)).toBeLessThanOrEqual(Number(g.diagonal) + 1e-4);
      expect(Number(g.diagonal_hi95)).toBeGreaterThanOrEqual(Number(g.diagonal) - 1e-4);
    }
    // Fig. 2: the mean prior share at each turn, over the conversations that reach it.
    const turns = csvParse(readFileSync(join(out, 'turns.csv'), 'utf8'));
    for (const p of turns) {
      const at = rows.filter((x) => x.model === p.model && x.policy === p.policy && envOf.get(x.line!) === p.env && x.turn === p.turn);
      expect(Number(p.n)).toBe(at.length);
      expect(Number(p.prior)).toBeCloseTo(at.reduce((s, x) => s + Number(x.prior), 0) / at.length, 4);
    }
    expect(new Set(turns.map((p) => p.turn)).size).toBeGreaterThan(3);
    // Fig. 6: Clip against Full, per model and env.
    const change = csvParse(readFileSync(join(out, 'policy-change.csv'), 'utf8'));
    expect(change.map((c) => c.policy)).toEqual(Array(6).fill('clip:2:1'));
    for (const c of change) {
      const last = (pol: string) => {
        const mine = rows.filter((x) => x.model === c.model && x.policy === pol && envOf.get(x.line!) === c.env);
        return new Map(
          mine
            .filter((x) => Number(x.turn) === Math.max(...mine.filter((y) => y.line === x.line).map((y) => Number(y.turn))))
            .map((x) => [x.line, Number(x.diagonal)]),
        );
      };
      const [clip, full] = [last('clip:2:1'), last('full')];
      const d = [...clip].map(([line, v]) => v - full.get(line)!);
      expect(Number(c.diagonal_change)).toBeCloseTo(d.reduce((s, x) => s + x, 0) / d.length, 4);
    }
    for (const svg of ['turns.svg', 'policy-change.svg']) {
      const text = readFileSync(join(out, svg), 'utf8');
      expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(text).toContain('paper 2, Fig.');
      expect(text).not.toMatch(/NaN|undefined/);
    }
    expect(readFileSync(join(out, 'turns.svg'), 'utf8')).toContain('models/inertia-demo-cpl · Clip-2→1 · arithmetic');
    // Seeded: a second report is the same bytes.
    const again = join(dir, 'report2');
    await cli(['report', csv, '--group-field', 'env', '--input', jsonl, '--out', again]);
    for (const f of ['table.csv', 'turns.csv', 'policy-change.csv', 'turns.svg'])
      expect(readFileSync(join(again, f), 'utf8')).toBe(readFileSync(join(out, f), 'utf8'));
    // Table 13 itself: by model alone, Full only.
    const t13 = join(dir, 't13');
    writeFileSync(
      join(dir, 'full.csv'),
      readFileSync(csv, 'utf8')
        .split('\n')
        .filter((l, i) => i === 0 || l.includes(',full,'))
        .join('\n'),
    );
    const r13 = await cli(['report', join(dir, 'full.csv'), '--by', 'model', '--out', t13]);
    expect(r13.stdout).toMatch(/^\| model \| n \| diagonal \| prior assistant .*\n.*\n\| models\/inertia-demo \| 4 \| 0\.\d{4} \[0\.\d{4}, 0\.\d{4}\] \|/);
    expect(existsSync(join(t13, 'policy-change.csv'))).toBe(false);
  });

  it('refuses what it cannot read, saying what is wrong', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'a,b\n1,2\n');
    expect((await cli(['report', bad, '--out', join(dir, 'x')])).stderr).toContain('not a batch CSV (no line, policy, turn, sink');
    expect((await cli(['report', csv, '--group-field', 'env', '--out', join(dir, 'y')])).stderr).toContain(
      "--group-field env reads the field from the batch's input: give it with --input file.jsonl",
    );
    expect((await cli(['report', csv, '--by', 'env', '--out', join(dir, 'z')])).stderr).toContain('--by env: the rows have policy, model to group by');
    expect((await cli(['report', csv])).stderr).toContain('report needs --out DIR');
  });
});

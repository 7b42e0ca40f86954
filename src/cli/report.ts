import { csvParse } from 'd3-dsv';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { groupTable, METRICS, policyChange, turnsCurve, type Interval, type Metric, type ReportRow } from '../analysis/report';
import { csvField } from '../export/figures';
import { policyChangeSvg, turnsSvg } from '../export/report-svg';
import { parsePolicy, policyLabel } from '../context/policy';
import { InputError } from './analysis-commands';

/** A policy by the papers' name in the figures (Clip-2→1), its spec in the CSVs. */
const shown = (spec: string) => {
  try {
    return policyLabel(parsePolicy(spec));
  } catch {
    return spec;
  }
};
const named = <T extends { key: Record<string, string> }>(x: T): T => ({ ...x, key: 'policy' in x.key ? { ...x.key, policy: shown(x.key.policy!) } : x.key });

export interface ReportArgs {
  /** Grouping columns (default: model when the CSV has one, and policy, and the group field). */
  by?: string[];
  /** A field of each JSONL line to group by, read from `input` (e.g. env). */
  groupField?: string;
  input?: string;
  out: string;
}

const f = (v: number) => v.toFixed(4);
const cell = (i: Interval) => `${f(i.mean)} [${f(i.lo)}, ${f(i.hi)}]`;

/** The batch CSV's rows, checked: every number a number, the columns batch writes. */
function readRows(file: string, groupField?: string, input?: string): { rows: ReportRow[]; hasModel: boolean } {
  const table = csvParse(readFileSync(file, 'utf8'));
  const need = ['line', 'policy', 'turn', ...METRICS];
  const missing = need.filter((c) => !table.columns.includes(c));
  if (missing.length) throw new InputError(`${file}: not a batch CSV (no ${missing.join(', ')} column${missing.length > 1 ? 's' : ''})`);
  const extra = groupField ? fieldOf(groupField, input) : null;
  const rows = table.map((r, i) => {
    const num = (c: string) => {
      const v = Number(r[c]);
      if (r[c] === '' || !Number.isFinite(v)) throw new InputError(`${file}: row ${i + 2}, column ${c}: "${r[c]}" is not a number`);
      return v;
    };
    const line = num('line');
    const fields: Record<string, string> = { policy: r.policy!, ...(r.model !== undefined && { model: r.model }) };
    if (extra && groupField) fields[groupField] = extra.get(line) ?? '(none)';
    return { line, turn: num('turn'), fields, values: Object.fromEntries(METRICS.map((m) => [m, num(m)])) as Record<Metric, number> };
  });
  return { rows, hasModel: table.columns.includes('model') };
}

/** A top-level field of each JSONL line (`{"env": "maze", "messages": [...]}`), by line number. */
function fieldOf(field: string, input?: string): Map<number, string> {
  if (!input) throw new InputError(`--group-field ${field} reads the field from the batch's input: give it with --input file.jsonl`);
  const out = new Map<number, string>();
  readFileSync(input, 'utf8')
    .split(/\r?\n/)
    .forEach((l, i) => {
      if (!l.trim()) return;
      try {
        const v = (JSON.parse(l) as Record<string, unknown>)?.[field];
        if (v !== undefined && v !== null && typeof v !== 'object') out.set(i + 1, String(v));
      } catch {
        /* batch skipped this line too: it has no rows */
      }
    });
  return out;
}

/** `inertia-lens report results.csv --out DIR`: the tables and figures, written to DIR and printed. */
export function reportCommand(file: string, a: ReportArgs): void {
  const parent = dirname(resolve(a.out));
  if (!existsSync(parent)) throw new InputError(`--out ${a.out}: the folder ${parent} does not exist`);
  if (existsSync(a.out) && !statSync(a.out).isDirectory()) throw new InputError(`--out ${a.out} is a file: report writes a folder of tables and figures`);
  const { rows, hasModel } = readRows(file, a.groupField, a.input);
  if (!rows.length) throw new InputError(`${file}: no rows`);
  const by = a.by ?? [...(hasModel ? ['model'] : []), 'policy', ...(a.groupField ? [a.groupField] : [])];
  const unknown = by.filter((k) => !(k in rows[0]!.fields));
  if (unknown.length)
    throw new InputError(
      `--by ${unknown.join(',')}: the rows have ${Object.keys(rows[0]!.fields).join(', ')} to group by${a.groupField ? '' : ' (a field of the input: --group-field NAME --input file.jsonl)'}`,
    );
  mkdirSync(a.out, { recursive: true });
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(a.out, name), text);
    written.push(name);
  };

  const table = groupTable(rows, by);
  write(
    'table.csv',
    `${[...by, 'n', ...METRICS.flatMap((m) => [m, `${m}_lo95`, `${m}_hi95`])].join(',')}\n${table.map((g) => [...by.map((k) => csvField(g.key[k]!)), g.n, ...METRICS.flatMap((m) => [g.stats[m].mean, g.stats[m].lo, g.stats[m].hi].map(f))].join(',')).join('\n')}\n`,
  );
  const head = `| ${by.join(' | ')} | n | diagonal | prior assistant | user | system | sink | current |`;
  const md = [
    head,
    `|${' --- |'.repeat(by.length + 7)}`,
    ...table.map(
      (g) =>
        `| ${by.map((k) => g.key[k]).join(' | ')} | ${g.n} | ${(['diagonal', 'prior', 'user', 'system', 'sink', 'current'] as Metric[]).map((m) => cell(g.stats[m])).join(' | ')} |`,
    ),
  ];
  write(
    'table.md',
    `Means over the scored answers, with bootstrap 95 % intervals (paper 2, Table 13: "Diag. Attn" is the diagonal ratio, "Asst. Attn" the prior-assistant share).\n\n${md.join('\n')}\n`,
  );
  process.stdout.write(`${md.join('\n')}\n`);

  if (rows.some((r) => r.turn !== rows[0]!.turn) && rows.length > new Set(rows.map((r) => `${r.line}:${r.fields.model}:${r.fields.policy}`)).size) {
    const curves = turnsCurve(rows, by);
    write(
      'turns.csv',
      `${[...by, 'turn', 'n', ...METRICS].join(',')}\n${curves.flatMap((c) => c.turns.map((t) => [...by.map((k) => csvField(c.key[k]!)), t.turn, t.n, ...METRICS.map((m) => f(t.means[m]))].join(','))).join('\n')}\n`,
    );
    write('turns.svg', turnsSvg(curves.map(named), 'Attention shares of the answer at each turn (paper 2, Fig. 2)'));
  }
  const changes = by.includes('policy') ? policyChange(rows, by) : [];
  if (changes.length) {
    const keys = by.filter((k) => k !== 'policy');
    write(
      'policy-change.csv',
      `${[...keys, 'policy', 'n', ...METRICS.flatMap((m) => [`${m}_change`, `${m}_lo95`, `${m}_hi95`])].join(',')}\n${changes.map((c) => [...keys.map((k) => csvField(c.key[k]!)), c.policy, c.n, ...METRICS.flatMap((m) => [c.change[m].mean, c.change[m].lo, c.change[m].hi].map(f))].join(',')).join('\n')}\n`,
    );
    write(
      'policy-change.svg',
      policyChangeSvg(
        changes.map((c) => ({ ...c, policy: shown(c.policy) })),
        ['prior', 'diagonal'],
        'Each policy against Full (paper 2, Fig. 6)',
      ),
    );
  }
  process.stderr.write(`report: ${rows.length} rows in ${table.length} groups (by ${by.join(', ')}) → ${written.map((w) => join(a.out, w)).join(', ')}\n`);
}

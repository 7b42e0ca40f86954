import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One name per concept in what a person reads (README glossary): the category is "prior assistant", and
 * a user message with its answer is a "turn". This reads every string literal and JSX text of the views,
 * the exports and the CLI, and fails on the other names.
 */
const OTHER_NAMES: [RegExp, string][] = [
  [/earlier answers?/i, 'prior assistant answer'],
  [/(?<![-\w])rounds?(?![-\w])/i, 'turn'],
];
const DIRS = ['src/views', 'src/export', 'src/cli', 'src/state'];
/** Strings that are code, not text: the watchdog's worker, written as JavaScript source. */
const CODE_STRINGS = ['src/cli/watchdog.ts'];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));

/**
 * The texts a person can read in a source file: string literals (a template's `${…}` left out) and JSX
 * text; not comments, regular expressions, identifiers or module paths. A small scanner: enough for this
 * code base's TypeScript (a `/` after an operator, a bracket or `return` starts a regular expression).
 */
function uiStrings(source: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const code = source.split('');
  const lineAt = (i: number) => source.slice(0, i).split('\n').length;
  const blank = (a: number, b: number) => {
    for (let k = a; k < b; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  /** Template literals open, each with the depth of `{` inside its current `${…}`. */
  const templates: { start: number; text: string; depth: number }[] = [];
  let last = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const inExpr = templates.length > 0 && templates[templates.length - 1]!.depth > 0;
    const inTemplateText = templates.length > 0 && !inExpr;
    if (inTemplateText) {
      const t = templates[templates.length - 1]!;
      if (c === '\\') {
        t.text += source.slice(i, i + 2);
        i++;
        continue;
      }
      if (c === '`') {
        templates.pop();
        out.push({ text: t.text, line: lineAt(t.start) });
        blank(t.start, i + 1);
        last = 'x';
        continue;
      }
      if (c === '$' && source[i + 1] === '{') {
        t.depth = 1;
        t.text += ' ';
        i++;
        continue;
      }
      t.text += c;
      continue;
    }
    if (inExpr && (c === '{' || c === '}')) {
      const t = templates[templates.length - 1]!;
      t.depth += c === '{' ? 1 : -1;
      last = c;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const e = source.indexOf('\n', i);
      const end = e < 0 ? source.length : e;
      blank(i, end);
      i = end - 1;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2) + 2;
      blank(i, end);
      i = end - 1;
      continue;
    }
    if (c === '/' && (last === '' || /[(,=:[!&|?{};]/.test(last) || /\breturn$/.test(source.slice(Math.max(0, i - 7), i).trimEnd()))) {
      let k = i + 1;
      let cls = false;
      for (; k < source.length && source[k] !== '\n'; k++) {
        if (source[k] === '\\') {
          k++;
          continue;
        }
        if (source[k] === '[') cls = true;
        else if (source[k] === ']') cls = false;
        else if (source[k] === '/' && !cls) break;
      }
      blank(i, k + 1);
      i = k;
      last = 'x';
      continue;
    }
    if (c === "'" || c === '"') {
      let k = i + 1;
      for (; k < source.length && source[k] !== c && source[k] !== '\n'; k++) if (source[k] === '\\') k++;
      const text = source.slice(i + 1, k);
      if (!/^\.{1,2}\//.test(text)) out.push({ text, line: lineAt(i) });
      blank(i, k + 1);
      i = k;
      last = 'x';
      continue;
    }
    if (c === '`') {
      templates.push({ start: i, text: '', depth: 0 });
      continue;
    }
    if (!/\s/.test(c)) last = c;
  }
  // JSX text: between a tag's `>` and the next `<`, in what is left of the code.
  const rest = code.join('');
  for (const m of rest.matchAll(/>([^<>{}=;()]+)</g)) if (m[1]!.trim()) out.push({ text: m[1]!, line: lineAt(m.index!) });
  return out;
}

describe('one name per concept', () => {
  it('reads string literals and JSX text, not comments, identifiers or module paths', () => {
    const sample = [
      '// earlier answers',
      "import { x } from '../conversation/rounds';",
      'const rounds = 3; /* round */',
      'const a = `per ${rounds} round`;',
      `const r = /["round']/.test(s) ? 'x' : 'y';`,
      'const b = <p>the earlier answer</p>;',
    ].join('\n');
    const found = uiStrings(sample).map((s) => s.text.trim());
    expect(found).toEqual(['per   round', 'x', 'y', 'the earlier answer']);
  });

  it('the views, exports and CLI say "prior assistant" and "turn"', () => {
    const hits: string[] = [];
    for (const f of DIRS.flatMap(files).filter((x) => !CODE_STRINGS.includes(x))) {
      for (const { text, line } of uiStrings(readFileSync(f, 'utf8'))) {
        for (const [re, name] of OTHER_NAMES) if (re.test(text)) hits.push(`${f}:${line}: "${text.trim().slice(0, 80)}" (say "${name}")`);
      }
    }
    expect(hits).toEqual([]);
  });

  it('the code, and so the JSON, names a turn a turn: no identifier or field spells "round" (rounding aside)', () => {
    const hits: string[] = [];
    for (const f of files('src')) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((text, k) => {
          // Code only: comments and strings are prose; Math.round, Math.fround and roundTo (a dtype's nearest value) are rounding.
          if (/^\s*(\/\/|\*|\/\*)/.test(text)) return;
          const code = text
            .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, "''")
            .replace(/\/\/.*$/, '')
            .replace(/\b(Math\.f?round|roundTo)\b/g, '');
          for (const m of code.matchAll(/(?<![A-Za-z])rounds?(?![a-z])\w*|Rounds?(?![a-z])\w*/g)) hits.push(`${f}:${k + 1}: ${m[0]}`);
        });
    }
    expect(hits).toEqual([]);
  });
});

import type { ConversationFormat, InputIssue, Message, ParseResult, Role } from './types';
import { jsonErrorOffset } from './json-offset';
import { validateConversation } from './validate';

const SHAREGPT_ROLES: ReadonlyMap<string, Role> = new Map([
  ['human', 'user'],
  ['user', 'user'],
  ['gpt', 'assistant'],
  ['assistant', 'assistant'],
  ['system', 'system'],
  ['chatgpt', 'assistant'],
  ['bing', 'assistant'],
]);
const ROLES: ReadonlySet<string> = new Set(['system', 'user', 'assistant']);
// dotAll: a U+2028 or U+2029 inside a line is text of that line, not the end of the marker's match.
const TEXT_MARKER = /^(system|user|assistant)\s*:\s?(.*)$/is;

/** What a conversation may hold: deeper, longer or larger input is refused with these numbers. */
export const CONVERSATION_LIMITS = { depth: 32, messages: 10_000, chars: 4_000_000 } as const;

/** A value as an issue names it: short, whatever was pasted (a 5 MB role is not printed in full). */
export function describeValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : String(v);
}

/**
 * The offset where JSON text nests deeper than `max` arrays and objects, or -1: checked before
 * parsing, so a 5,000-deep value is refused by a linear scan, not by a stack overflow further on.
 */
export function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

function jsonError(text: string, e: Error, lineOffset = 0): InputIssue {
  // The engine's position where it gives one, else our own reading of the grammar (Node 20 often gives none).
  const m = /position (\d+)/.exec(e.message);
  const at = m ? Number(m[1]) : jsonErrorOffset(text);
  // V8 quotes the whole text in some messages: a 5 MB paste is not repeated in the error.
  const what = e.message.replace(/ in JSON at position \d+.*$/, '').replace(/, ".*" is not valid JSON$/s, '');
  if (at >= 0) {
    const { line, column } = lineColumn(text, at);
    return { severity: 'error', line: line + lineOffset, column, text: `invalid JSON (${what})` };
  }
  return { severity: 'error', ...(lineOffset && { line: lineOffset + 1 }), text: `invalid JSON (${what})` };
}

/** Turns one parsed JSON value into messages, naming the message and field of each problem. */
function fromJson(value: unknown, line?: number): { format: ConversationFormat | null; messages: Message[]; issues: InputIssue[] } {
  const issues: InputIssue[] = [];
  const at = (message: number) => ({ message, ...(line !== undefined && { line }) });
  let raw: unknown[];
  let format: ConversationFormat;
  let roleKey = 'role';
  let contentKey = 'content';
  if (Array.isArray(value)) {
    raw = value;
    format = 'openai';
  } else if (value && typeof value === 'object' && Array.isArray((value as { messages?: unknown }).messages)) {
    raw = (value as { messages: unknown[] }).messages;
    format = 'messages';
  } else if (value && typeof value === 'object' && Array.isArray((value as { conversations?: unknown }).conversations)) {
    raw = (value as { conversations: unknown[] }).conversations;
    format = 'sharegpt';
    roleKey = 'from';
    contentKey = 'value';
  } else {
    issues.push({
      severity: 'error',
      ...(line !== undefined && { line }),
      text: 'expected a JSON array of {role, content} messages, {"messages": [...]}, or ShareGPT {"conversations": [{from, value}]}',
    });
    return { format: null, messages: [], issues };
  }
  const messages: Message[] = [];
  raw.forEach((item, i) => {
    const n = i + 1;
    if (!item || typeof item !== 'object') {
      issues.push({ severity: 'error', ...at(n), text: `must be an object with "${roleKey}" and "${contentKey}"` });
      return;
    }
    const o = item as Record<string, unknown>;
    // Own properties only, and a role must be a string: "constructor", "__proto__" or ["gpt"] are no roles.
    const own = (k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);
    const rawRole = own(roleKey);
    const role =
      typeof rawRole !== 'string'
        ? undefined
        : format === 'sharegpt'
          ? SHAREGPT_ROLES.get(rawRole.toLowerCase())
          : ROLES.has(rawRole)
            ? (rawRole as Role)
            : undefined;
    if (!role) {
      issues.push({
        severity: 'error',
        ...at(n),
        text: `${rawRole === undefined ? `no "${roleKey}"` : `unknown role ${describeValue(rawRole)}`} (${format === 'sharegpt' ? 'human, gpt, system' : 'system, user, assistant'} are known)`,
      });
      return;
    }
    const content = own(contentKey);
    if (typeof content !== 'string') {
      issues.push({ severity: 'error', ...at(n), text: `"${contentKey}" must be a string` });
      return;
    }
    const summary = own('summary');
    if (summary !== undefined && typeof summary !== 'string') issues.push({ severity: 'error', ...at(n), text: '"summary" must be a string' });
    // An answer the model wrote in the app ("answer the last message") keeps that mark when saved and pasted again.
    const generated = role === 'assistant' && own('generated') === true;
    messages.push({ role, content, ...(typeof summary === 'string' && { summary }), ...(generated && { generated }), ...(line !== undefined && { line }) });
  });
  return { format, messages, issues };
}

/** Plain text: lines starting with "System:", "User:" or "Assistant:" (any case) open a message; other lines continue it. */
function fromText(text: string): { messages: Message[]; issues: InputIssue[] } {
  const messages: Message[] = [];
  const issues: InputIssue[] = [];
  const lines = text.split(/\r?\n/);
  let current: { role: Role; line: number; parts: string[] } | null = null;
  const close = () => {
    if (current) messages.push({ role: current.role, content: current.parts.join('\n').trim(), line: current.line });
  };
  let orphans = 0;
  lines.forEach((l, i) => {
    const m = TEXT_MARKER.exec(l);
    if (m) {
      close();
      current = { role: m[1]!.toLowerCase() as Role, line: i + 1, parts: [m[2]!] };
    } else if (current) {
      current.parts.push(l);
    } else if (l.trim() && orphans++ === 0) {
      // Said once, at its first line: a binary file or a stray document would give one error per line.
      issues.push({ severity: 'error', line: i + 1, text: 'text before the first "System:", "User:" or "Assistant:" line belongs to no message' });
    }
  });
  if (orphans > 1) issues[0]!.text += ` (and ${orphans - 1} more such line${orphans > 2 ? 's' : ''})`;
  close();
  return { messages, issues };
}

/** Reads a pasted conversation in any of the supported formats and validates it. */
export function parseConversation(pasted: string): ParseResult {
  const text = pasted.replace(/^\uFEFF/, ''); // a byte-order mark from a saved file is not content
  const trimmed = text.trim();
  if (!trimmed) return { format: null, conversation: null, issues: [{ severity: 'error', text: 'the conversation is empty' }] };
  const limit = limitIssue(text, 0, trimmed.startsWith('[') || trimmed.startsWith('{'));
  if (limit) return { format: null, conversation: null, issues: [limit] };
  let format: ConversationFormat | null;
  let messages: Message[];
  let issues: InputIssue[];
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { format: null, conversation: null, issues: [jsonError(text, e as Error)] };
    }
    ({ format, messages, issues } = fromJson(value));
  } else {
    format = 'text';
    ({ messages, issues } = fromText(text));
  }
  return finish(format, messages, issues);
}

/** A conversation larger or deeper than CONVERSATION_LIMITS, named with where it went too far. */
function limitIssue(text: string, lineOffset: number, json: boolean): InputIssue | null {
  const L = CONVERSATION_LIMITS;
  if (text.length > L.chars)
    return {
      severity: 'error',
      ...(lineOffset && { line: lineOffset + 1 }),
      text: `${text.length.toLocaleString('en-US')} characters, more than the ${L.chars.toLocaleString('en-US')} a conversation may have`,
    };
  const deep = json ? tooDeepAt(text, L.depth) : -1;
  if (deep < 0) return null;
  const { line, column } = lineColumn(text, deep);
  return { severity: 'error', line: line + lineOffset, column, text: `nested more than ${L.depth} levels deep (a message is one object with string fields)` };
}

function finish(format: ConversationFormat | null, messages: Message[], issues: InputIssue[]): ParseResult {
  if (messages.length > CONVERSATION_LIMITS.messages) {
    issues = [
      ...issues,
      {
        severity: 'error',
        text: `${messages.length.toLocaleString('en-US')} messages, more than the ${CONVERSATION_LIMITS.messages.toLocaleString('en-US')} a conversation may have`,
      },
    ];
  }
  const all = [...issues, ...(issues.some((i) => i.severity === 'error') ? [] : validateConversation(messages))];
  return { format, conversation: all.some((i) => i.severity === 'error') ? null : { messages }, issues: all };
}

/** JSONL: one conversation (any JSON format) per line; each line parsed and validated on its own. */
export function parseJsonl(text: string): { line: number; result: ParseResult }[] {
  const out: { line: number; result: ParseResult }[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (!l.trim()) return;
    const line = i + 1;
    const limit = limitIssue(l, i, true);
    if (limit) {
      out.push({ line, result: { format: null, conversation: null, issues: [limit] } });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(l.replace(/^\uFEFF/, ''));
    } catch (e) {
      out.push({ line, result: { format: null, conversation: null, issues: [jsonError(l, e as Error, i)] } });
      return;
    }
    const { format, messages, issues } = fromJson(value, line);
    out.push({ line, result: finish(format, messages, issues) });
  });
  return out;
}

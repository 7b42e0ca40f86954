import type { ConversationFormat, InputIssue, Message, ParseResult, Role } from './types';
import { validateConversation } from './validate';

const SHAREGPT_ROLES: Record<string, Role> = { human: 'user', user: 'user', gpt: 'assistant', assistant: 'assistant', system: 'system', chatgpt: 'assistant', bing: 'assistant' };
const TEXT_MARKER = /^(system|user|assistant)\s*:\s?(.*)$/i;

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

function jsonError(text: string, e: Error, lineOffset = 0): InputIssue {
  const m = /position (\d+)/.exec(e.message);
  if (m) {
    const { line, column } = lineColumn(text, Number(m[1]));
    return { severity: 'error', line: line + lineOffset, column, text: `invalid JSON (${e.message.replace(/ in JSON at position \d+.*$/, '')})` };
  }
  return { severity: 'error', ...(lineOffset && { line: lineOffset + 1 }), text: `invalid JSON (${e.message})` };
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
    issues.push({ severity: 'error', ...(line !== undefined && { line }), text: 'expected a JSON array of {role, content} messages, {"messages": [...]}, or ShareGPT {"conversations": [{from, value}]}' });
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
    const rawRole = o[roleKey];
    const role = format === 'sharegpt' ? SHAREGPT_ROLES[String(rawRole).toLowerCase()] : (['system', 'user', 'assistant'].includes(String(rawRole)) ? (rawRole as Role) : undefined);
    if (!role) {
      issues.push({ severity: 'error', ...at(n), text: `unknown role ${JSON.stringify(rawRole)} (${format === 'sharegpt' ? 'human, gpt, system' : 'system, user, assistant'} are known)` });
      return;
    }
    const content = o[contentKey];
    if (typeof content !== 'string') {
      issues.push({ severity: 'error', ...at(n), text: `"${contentKey}" must be a string` });
      return;
    }
    const summary = o.summary;
    if (summary !== undefined && typeof summary !== 'string') issues.push({ severity: 'error', ...at(n), text: '"summary" must be a string' });
    messages.push({ role, content, ...(typeof summary === 'string' && { summary }), ...(line !== undefined && { line }) });
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
  lines.forEach((l, i) => {
    const m = TEXT_MARKER.exec(l);
    if (m) {
      close();
      current = { role: m[1]!.toLowerCase() as Role, line: i + 1, parts: [m[2]!] };
    } else if (current) {
      current.parts.push(l);
    } else if (l.trim()) {
      issues.push({ severity: 'error', line: i + 1, text: 'text before the first "System:", "User:" or "Assistant:" line belongs to no message' });
    }
  });
  close();
  return { messages, issues };
}

/** Reads a pasted conversation in any of the supported formats and validates it. */
export function parseConversation(text: string): ParseResult {
  const trimmed = text.trim();
  if (!trimmed) return { format: null, conversation: null, issues: [{ severity: 'error', text: 'the conversation is empty' }] };
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

function finish(format: ConversationFormat | null, messages: Message[], issues: InputIssue[]): ParseResult {
  const all = [...issues, ...(issues.some((i) => i.severity === 'error') ? [] : validateConversation(messages))];
  return { format, conversation: all.some((i) => i.severity === 'error') ? null : { messages }, issues: all };
}

/** JSONL: one conversation (any JSON format) per line; each line parsed and validated on its own. */
export function parseJsonl(text: string): { line: number; result: ParseResult }[] {
  const out: { line: number; result: ParseResult }[] = [];
  text.split(/\r?\n/).forEach((l, i) => {
    if (!l.trim()) return;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(l);
    } catch (e) {
      out.push({ line, result: { format: null, conversation: null, issues: [jsonError(l, e as Error, i)] } });
      return;
    }
    const { format, messages, issues } = fromJson(value, line);
    out.push({ line, result: finish(format, messages, issues) });
  });
  return out;
}

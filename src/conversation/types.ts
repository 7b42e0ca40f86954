export type Role = 'system' | 'user' | 'assistant';

export interface Message {
  role: Role;
  content: string;
  /** Optional one-sentence summary of an assistant message (used by the SUM and Summary policies). */
  summary?: string;
  /** 1-based line in the pasted text where the message starts (text and JSONL formats). */
  line?: number;
  /** Written by the model in this page ("Generate"), in place of the conversation's own answer. */
  generated?: boolean;
}

export interface Conversation {
  messages: Message[];
}

/** A problem found in pasted input, located as precisely as the format allows. */
export interface InputIssue {
  severity: 'error' | 'warning';
  /** 1-based message number, when the problem belongs to a message. */
  message?: number;
  /** 1-based line (and column) in the pasted text, when known. */
  line?: number;
  column?: number;
  text: string;
}

export type ConversationFormat = 'openai' | 'messages' | 'sharegpt' | 'text';

export interface ParseResult {
  format: ConversationFormat | null;
  /** Null when there are errors: nothing is scored from an invalid conversation. */
  conversation: Conversation | null;
  issues: InputIssue[];
}

/** "message 3 (line 7): text" — how an issue reads in the CLI and the app. */
export function describeIssue(i: InputIssue): string {
  const where = [
    i.message !== undefined && `message ${i.message}`,
    i.line !== undefined && `line ${i.line}${i.column !== undefined ? `:${i.column}` : ''}`,
  ].filter(Boolean);
  return `${i.severity}${where.length ? ` at ${where.join(', ')}` : ''}: ${i.text}`;
}

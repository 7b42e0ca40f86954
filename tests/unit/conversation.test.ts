import { describe, expect, it } from 'vitest';
import { parseConversation, parseJsonl } from '../../src/conversation/parse';
import { selectTurn, splitRounds } from '../../src/conversation/rounds';
import { describeIssue } from '../../src/conversation/types';

const openai = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi' },
  { role: 'assistant', content: 'Hello.', summary: 'Greets.' },
  { role: 'user', content: 'Bye' },
  { role: 'assistant', content: 'Goodbye.' },
];

describe('reading conversations', () => {
  it('reads OpenAI arrays, {messages}, ShareGPT and plain text to the same messages', () => {
    const want = openai.map(({ role, content }) => ({ role, content }));
    const strip = (r: ReturnType<typeof parseConversation>) => r.conversation!.messages.map(({ role, content }) => ({ role, content }));
    expect(strip(parseConversation(JSON.stringify(openai)))).toEqual(want);
    expect(parseConversation(JSON.stringify(openai)).conversation!.messages[2]!.summary).toBe('Greets.');
    expect(parseConversation(JSON.stringify({ messages: openai })).format).toBe('messages');
    const share = { conversations: openai.map((m) => ({ from: { system: 'system', user: 'human', assistant: 'gpt' }[m.role], value: m.content })) };
    const s = parseConversation(JSON.stringify(share));
    expect(s.format).toBe('sharegpt');
    expect(strip(s)).toEqual(want);
    const text = 'System: Be brief.\nuser: Hi\nASSISTANT: Hello.\nUser:Bye\nAssistant: Goodbye.\n';
    const t = parseConversation(text);
    expect(t.format).toBe('text');
    expect(strip(t)).toEqual(want);
    expect(t.conversation!.messages.map((m) => m.line)).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps continuation lines of plain text in the message', () => {
    const t = parseConversation('User: line one\nline two\n\nAssistant: a\n  b\n\n');
    expect(t.conversation!.messages.map((m) => m.content)).toEqual(['line one\nline two', 'a\n  b']);
  });

  it('names the problem and where it is', () => {
    const bad = (s: string) => parseConversation(s).issues.map(describeIssue);
    expect(bad('[{"role": "user", "content": "hi"},\n {"role": "assistant" "content": "x"}]')[0]).toMatch(/^error at line 2:\d+: invalid JSON/);
    expect(bad(JSON.stringify([{ role: 'bot', content: 'x' }, { role: 'assistant', content: 'y' }]))).toEqual([
      'error at message 1: unknown role "bot" (system, user, assistant are known)',
    ]);
    expect(bad('User: hi\nAssistant:   \n')).toEqual(['error at message 2, line 2: the assistant message is empty']);
    expect(bad('System: a\nSystem: b\nUser: c\nAssistant: d')).toEqual(['error at message 2, line 2: a second system message (only one is allowed, first)']);
    expect(bad('User: only a question')).toEqual(['error: there is no assistant message to score']);
    expect(bad('hello\nUser: hi\nAssistant: x')).toEqual(['error at line 1: text before the first "System:", "User:" or "Assistant:" line belongs to no message']);
    expect(bad('{"foo": 1}')[0]).toContain('expected a JSON array of {role, content} messages');
    expect(parseConversation('   ').issues.map(describeIssue)).toEqual(['error: the conversation is empty']);
  });

  it('accepts odd but valid conversations with a warning', () => {
    const r = parseConversation('User: a\nUser: b\nAssistant: c');
    expect(r.conversation).not.toBeNull();
    expect(r.issues.map(describeIssue)).toEqual(['warning at message 2, line 2: two user messages in a row']);
  });

  it('reads JSONL line by line, reporting bad lines by number without losing the others', () => {
    const lines = [JSON.stringify(openai), '{"messages": [', '', JSON.stringify({ conversations: [{ from: 'human', value: 'q' }, { from: 'gpt', value: 'a' }] })];
    const out = parseJsonl(lines.join('\n'));
    expect(out.map((o) => o.line)).toEqual([1, 2, 4]);
    expect(out[0]!.result.conversation).not.toBeNull();
    expect(out[1]!.result.conversation).toBeNull();
    expect(describeIssue(out[1]!.result.issues[0]!)).toMatch(/^error at line 2: invalid JSON \(Unexpected end of JSON input/); // no position to give
    expect(out[2]!.result.conversation!.messages).toHaveLength(2);
  });
});

describe('rounds and the scored turn', () => {
  const conv = parseConversation('System: s\nUser: u1\nAssistant: a1\nUser: u2a\nUser: u2b\nAssistant: a2\nUser: u3\nAssistant: a3\nUser: trailing').conversation!;
  it('groups user messages with the answer that closes them', () => {
    const { system, rounds } = splitRounds(conv.messages);
    expect(system).toBe(0);
    expect(rounds).toEqual([
      { index: 1, users: [1], assistant: 2 },
      { index: 2, users: [3, 4], assistant: 5 },
      { index: 3, users: [6], assistant: 7 },
    ]);
  });
  it('scores the last answer by default, any turn on request, and refuses a turn that does not exist', () => {
    expect(selectTurn(conv).current.assistant).toBe(7);
    const t2 = selectTurn(conv, 2);
    expect(t2.rounds).toHaveLength(2);
    expect(t2.current.assistant).toBe(5);
    expect(() => selectTurn(conv, 4)).toThrow('turn 4 does not exist: the conversation has assistant turns 1..3');
  });
});

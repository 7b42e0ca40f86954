import { describe, expect, it } from 'vitest';
import { CONVERSATION_LIMITS, parseConversation, parseJsonl, tooDeepAt } from '../../src/conversation/parse';
import { selectTurn, splitTurns } from '../../src/conversation/turns';
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
    expect(
      bad(
        JSON.stringify([
          { role: 'bot', content: 'x' },
          { role: 'assistant', content: 'y' },
        ]),
      ),
    ).toEqual(['error at message 1: unknown role "bot" (system, user, assistant are known)']);
    expect(bad('User: hi\nAssistant:   \n')).toEqual(['error at message 2, line 2: the assistant message is empty']);
    expect(bad('System: a\nSystem: b\nUser: c\nAssistant: d')).toEqual(['error at message 2, line 2: a second system message (only one is allowed, first)']);
    expect(bad('User: only a question')).toEqual(['error: there is no assistant message to score']);
    expect(bad('hello\nUser: hi\nAssistant: x')).toEqual([
      'error at line 1: text before the first "System:", "User:" or "Assistant:" line belongs to no message',
    ]);
    expect(bad('{"foo": 1}')[0]).toContain('expected a JSON array of {role, content} messages');
    expect(parseConversation('   ').issues.map(describeIssue)).toEqual(['error: the conversation is empty']);
  });

  it('accepts odd but valid conversations with a warning', () => {
    const r = parseConversation('User: a\nUser: b\nAssistant: c');
    expect(r.conversation).not.toBeNull();
    expect(r.issues.map(describeIssue)).toEqual(['warning at message 2, line 2: two user messages in a row']);
  });

  it('reads JSONL line by line, reporting bad lines by number without losing the others', () => {
    const lines = [
      JSON.stringify(openai),
      '{"messages": [',
      '',
      JSON.stringify({
        conversations: [
          { from: 'human', value: 'q' },
          { from: 'gpt', value: 'a' },
        ],
      }),
    ];
    const out = parseJsonl(lines.join('\n'));
    expect(out.map((o) => o.line)).toEqual([1, 2, 4]);
    expect(out[0]!.result.conversation).not.toBeNull();
    expect(out[1]!.result.conversation).toBeNull();
    // The engine gives no position for a truncated line: the problem is at its end.
    expect(describeIssue(out[1]!.result.issues[0]!)).toMatch(/^error at line 2:15: invalid JSON \(Unexpected end of JSON input/);
    expect(out[2]!.result.conversation!.messages).toHaveLength(2);
  });
});

describe('hostile and careless input', () => {
  const bad = (s: string) => parseConversation(s).issues.map(describeIssue);
  it('refuses deep nesting by a scan, before anything recurses (no stack overflow)', () => {
    const deep = `[{"role": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}, "content": "x"}]`;
    // The array and its object are 2 levels; the 31st {"a": (at 10 + 30 × 5 characters) is the 33rd.
    expect(CONVERSATION_LIMITS.depth).toBe(32);
    expect(bad(deep)).toEqual([`error at line 1:161: nested more than ${CONVERSATION_LIMITS.depth} levels deep (a message is one object with string fields)`]);
    expect(tooDeepAt('[{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[["}]', 3)).toBe(-1); // brackets inside strings do not count
    const lines = parseJsonl([JSON.stringify(openai), '['.repeat(100_000), JSON.stringify(openai)].join('\n'));
    expect(lines.map((l) => l.result.conversation !== null)).toEqual([true, false, true]);
    expect(describeIssue(lines[1]!.result.issues[0]!)).toMatch(/^error at line 2:33: nested more than/);
    // Plain text may hold any brackets.
    expect(parseConversation(`User: ${'['.repeat(100)}\nAssistant: ok`).conversation).not.toBeNull();
  });
  it('looks roles up as the conversation’s own string fields', () => {
    for (const from of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(
        bad(
          JSON.stringify({
            conversations: [
              { from: 'human', value: 'q' },
              { from, value: 'a' },
            ],
          }),
        ),
      ).toEqual([`error at message 2: unknown role "${from}" (human, gpt, system are known)`]);
    }
    expect(bad('{"conversations": [{"from": "human", "value": "q"}, {"from": ["gpt"], "value": "a"}]}')).toEqual([
      'error at message 2: unknown role an array (human, gpt, system are known)',
    ]);
    expect(bad('[{"content": "q"}, {"role": "assistant", "content": "a"}]')).toEqual(['error at message 1: no "role" (system, user, assistant are known)']);
    // An inherited "content" is no content.
    expect(bad('[{"role": "user", "content": "q"}, {"role": "assistant", "__proto__": {"content": "a"}}]')).toEqual([
      'error at message 2: "content" must be a string',
    ]);
  });
  it('names a huge value briefly, and refuses what is over the stated limits', () => {
    const role = 'x'.repeat(5_000_000 / 10);
    expect(
      bad(
        JSON.stringify([
          { role, content: 'q' },
          { role: 'assistant', content: 'a' },
        ]),
      )[0],
    ).toBe(`error at message 1: unknown role "${'x'.repeat(40)}…" (system, user, assistant are known)`);
    expect(bad('x'.repeat(CONVERSATION_LIMITS.chars + 1))[0]).toMatch(/^error: 4,000,001 characters, more than the 4,000,000/);
    const many = Array.from({ length: CONVERSATION_LIMITS.messages + 1 }, (_, i) => `${i % 2 ? 'Assistant' : 'User'}: ${i}`).join('\n');
    expect(bad(many)).toContain('error: 10,001 messages, more than the 10,000 a conversation may have');
  });
  it('reads a byte-order mark as nothing and a line separator as text of its line', () => {
    expect(parseConversation(`\uFEFF${JSON.stringify(openai)}`).conversation!.messages).toHaveLength(5);
    const t = parseConversation('User: q\nAssistant: one\u2028two');
    expect(t.conversation!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'q'],
      ['assistant', 'one\u2028two'],
    ]);
  });
  it('names text outside any message once, with a count (a binary file is not 787 errors)', () => {
    expect(bad('\u0000\u0001\n\u00ff\u00fe\nmore\nUser: q\nAssistant: a')).toEqual([
      'error at line 1: text before the first "System:", "User:" or "Assistant:" line belongs to no message (and 2 more such lines)',
    ]);
  });
  it('says when messages after the last answer are not scored', () => {
    expect(bad('User: q\nAssistant: a\nUser: and then?')).toEqual([
      'warning at message 3: the conversation ends with a user message after the last answer: it is not scored (the last answer is)',
    ]);
  });
});

describe('turns and the scored turn', () => {
  const conv = parseConversation('System: s\nUser: u1\nAssistant: a1\nUser: u2a\nUser: u2b\nAssistant: a2\nUser: u3\nAssistant: a3\nUser: trailing')
    .conversation!;
  it('groups user messages with the answer that closes them', () => {
    const { system, all } = splitTurns(conv.messages);
    expect(system).toBe(0);
    expect(all).toEqual([
      { index: 1, users: [1], assistant: 2 },
      { index: 2, users: [3, 4], assistant: 5 },
      { index: 3, users: [6], assistant: 7 },
    ]);
  });
  it('scores the last answer by default, any turn on request, and refuses a turn that does not exist', () => {
    expect(selectTurn(conv).current.assistant).toBe(7);
    const t2 = selectTurn(conv, 2);
    expect(t2.all).toHaveLength(2);
    expect(t2.current.assistant).toBe(5);
    expect(() => selectTurn(conv, 4)).toThrow('turn 4 does not exist: the conversation has assistant turns 1..3');
  });
});

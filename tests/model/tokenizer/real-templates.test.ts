import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConversation } from '../../../src/conversation/parse';
import { selectTurn } from '../../../src/conversation/turns';
import type { Conversation } from '../../../src/conversation/types';
import { applyPolicy, CATEGORY_OF, type PolicyInputs } from '../../../src/context/apply';
import { fillerText } from '../../../src/context/filler';
import { parsePolicy } from '../../../src/context/policy';
import { asRenderer, renderContext } from '../../../src/context/render';
import type { ChatTokenizer } from '../../../src/model/tokenizer/tokenizer';
import { NEMO_TEMPLATE, SYSTEM_MOVING_TEMPLATE, SYSTEM_REJECTING_TEMPLATE } from '../../fixtures/templates';
import { nemoStyleTokenizer, phi3StyleTokenizer, REAL_TEMPLATES, realTemplateTokenizer, shippedTokenizer } from '../../helpers/real-tokenizers';

/**
 * Rendering through real templates and tokenizers: every shipped tokenizer with its own template, each
 * rehearsal model's real template, and our own templates for what no shipped one does (rejecting or
 * moving the system prompt). On all three examples (and the maze without its system prompt, for the
 * templates that add one of their own) and every policy: every token in exactly one message and of its
 * category, the sink the first 3 tokens, the current answer's content span exact.
 */
const TOKENIZERS: [string, () => ChatTokenizer][] = [
  ...(['qwen3', 'qwen2_5', 'llama3_1', 'llama3', 'gemma3'] as const).map((s): [string, () => ChatTokenizer] => [
    `${s} (shipped template)`,
    () => shippedTokenizer(s),
  ]),
  ...REAL_TEMPLATES.map((t): [string, () => ChatTokenizer] => [
    `${t.model} template on ${t.tokenizer}${t.own ? '' : ' (stand-in tokenizer)'}`,
    () => realTemplateTokenizer(t.model, t.tokenizer),
  ]),
  ['Gemma 2-style system-rejecting template on gemma2', () => shippedTokenizer('gemma2', { text: SYSTEM_REJECTING_TEMPLATE })],
  ['Mistral-style system-moving template on llama2', () => shippedTokenizer('llama2', { text: SYSTEM_MOVING_TEMPLATE })],
  [
    'Mistral-Nemo-style template (system prompt in the last [INST] only when it is the last message) on llama2 with [INST] tokens',
    () => nemoStyleTokenizer(NEMO_TEMPLATE),
  ],
  ['Phi-3.5 template on llama2 with Phi-3\'s role tokens added as they ship (rstrip: they take the "\\n" after them)', () => phi3StyleTokenizer()],
];

const read = (f: string) => parseConversation(readFileSync(`examples/${f}.json`, 'utf8')).conversation!;
const maze = read('maze');
const CONVERSATIONS: [string, Conversation][] = [
  ['maze', maze],
  ['arithmetic', read('arithmetic')],
  ['mixed-chat', read('mixed-chat')],
  ['maze without its system prompt', { ...maze, messages: maze.messages.slice(1) }],
];
const POLICIES = ['full', 'window:2', 'clip:6:1', 'summary:6:1', 'ao', 'lt', 'sum', 'de', 'filler'];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('rendering through real chat templates and tokenizers', () => {
  for (const [name, make] of TOKENIZERS) {
    it(name, () => {
      const tok = make();
      const r = asRenderer(tok);
      const notes = new Set<string>();
      for (const [cname, conv] of CONVERSATIONS) {
        const inputs: PolicyInputs = {
          summaryOf: (m) => ({ text: `Summary of message ${m + 1}: the answer moved on.`, generated: false }),
          fillerOf: (m) => fillerText(tok, tok.encode(conv.messages[m]!.content).length, m + 1),
        };
        for (const spec of POLICIES) {
          const where = `${cname}, ${spec}`;
          const rc = renderContext(r, applyPolicy(conv, selectTurn(conv), parsePolicy(spec), inputs));
          rc.notes.forEach((n) => notes.add(n));
          expect(rc.ids, where).toEqual(tok.encode(rc.text)); // one encoding of the whole text
          // Token texts (the token view, the heatmap's read-out, every export) join to the rendered text: no lost ▁ spaces.
          expect(rc.tokenTexts.join(''), where).toBe(rc.text);
          expect(rc.messageOf, where).toHaveLength(rc.ids.length);
          // Every token in exactly one message, contiguous, of that message's category; the first 3 the sink.
          const seen = new Array<number>(rc.ids.length).fill(0);
          rc.messageSpans.forEach((s, k) => {
            for (let t = s.start; t < s.start + s.length; t++) {
              seen[t]!++;
              expect(rc.messageOf[t], where).toBe(k);
              expect(rc.categories[t], where).toBe(t < 3 ? 'sink' : CATEGORY_OF[rc.messages[k]!.kind]);
            }
          });
          expect(
            seen.every((n) => n === 1),
            `${where}: every token once`,
          ).toBe(true);
          // Each message's content tokens hold its text and little else (a token joining content and template may add a character).
          rc.messages.forEach((m, k) => {
            const c = rc.contentSpans[k]!;
            if (c.length === 0) return; // dropped by the template (noted) or empty
            const text = squash(tok.decode(rc.ids.slice(c.start, c.start + c.length)));
            expect(text, `${where}: message ${k + 1}`).toContain(squash(tok.normalize(m.content)));
            expect(text.length, `${where}: message ${k + 1}`).toBeLessThanOrEqual(squash(m.content).length + 4);
          });
          // The scored answer: exactly its own text, or with the start of the template text after it where one
          // token joins both (stand-in tokenizers lack the template's special tokens: ".<" in "stamps.<|im_end|>").
          const last = rc.messages.length - 1;
          const cur = rc.contentSpans[last]!;
          expect(rc.messages[last]!.kind).toBe('current');
          const answer = squash(tok.normalize(rc.messages[last]!.content));
          const got = squash(tok.decode(rc.ids.slice(cur.start, cur.start + cur.length)));
          const after = rc.text.slice(rc.text.lastIndexOf(rc.messages[last]!.content.trim()) + rc.messages[last]!.content.trim().length);
          expect(
            got === answer || (got.startsWith(answer) && after.startsWith(got.slice(answer.length)) && got.length - answer.length <= 2),
            `${where}: current answer ${JSON.stringify(got)}`,
          ).toBe(true);
          // A system prompt of the template's own appears only when the conversation has none.
          const injected = rc.messages.filter((m) => m.kind === 'template-system').length;
          if (conv.messages[0]!.role === 'system') expect(injected, where).toBe(0);
        }
      }
      console.log(`${name}: ${notes.size ? [...notes].join(' | ') : 'no notes'}`);
    });
  }

  it('names what the templates do: add, merge, move, drop the system prompt', () => {
    const noSystem = { ...maze, messages: maze.messages.slice(1) };
    const notesOf = (tok: ChatTokenizer, conv: Conversation) =>
      renderContext(asRenderer(tok), applyPolicy(conv, selectTurn(conv), parsePolicy('full'))).notes.join(' | ');
    const qwen25 = renderContext(asRenderer(shippedTokenizer('qwen2_5')), applyPolicy(noSystem, selectTurn(noSystem), parsePolicy('full')));
    expect(qwen25.messages[0]).toMatchObject({ kind: 'template-system', content: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' });
    expect(new Set(qwen25.categories.slice(3, qwen25.messageSpans[0]!.length))).toEqual(new Set(['system']));
    expect(notesOf(realTemplateTokenizer('meta-llama--Llama-3.2-1B-Instruct', 'llama3_1'), noSystem)).toContain(
      'writes a system turn of its own (a date header)',
    );
    expect(notesOf(shippedTokenizer('gemma3'), maze)).toContain('it writes the system prompt at the start of the first user message');
    expect(notesOf(shippedTokenizer('gemma2', { text: SYSTEM_REJECTING_TEMPLATE }), maze)).toContain(
      'this template has no system role: the system prompt was merged into the first user message',
    );
    const moving = notesOf(shippedTokenizer('llama2', { text: SYSTEM_MOVING_TEMPLATE }), maze);
    expect(moving).toContain('this template moves the system message (it renders it after later messages)');
    expect(moving).toContain('it writes the system prompt at the start of the last user message');
    expect(notesOf(realTemplateTokenizer('mistralai--Mistral-7B-Instruct-v0.3', 'llama2'), maze)).toContain('this template drops the system message');
    const padded = { ...maze, messages: maze.messages.map((m, i) => (i === 2 ? { ...m, content: `  ${m.content}\n` } : m)) };
    expect(notesOf(shippedTokenizer('llama3'), padded)).toContain('trims the whitespace');
    expect(notesOf(shippedTokenizer('llama3'), maze)).not.toContain('trims');
  });

  it('scores an answer in the context its model had when writing it (Mistral-Nemo: the system prompt it saw)', () => {
    const tok = nemoStyleTokenizer(NEMO_TEMPLATE);
    const r = asRenderer(tok);
    for (const spec of ['full', 'ao']) {
      const msgs = applyPolicy(maze, selectTurn(maze), parsePolicy(spec));
      const rc = renderContext(r, msgs);
      const system = msgs[0]!.content;
      // The whole conversation's rendering drops the system prompt; the prompt the answer was written to had it.
      expect(
        tok.render(
          msgs.map(({ role, content }) => ({ role, content })),
          false,
        ),
      ).not.toContain(system.slice(0, 40));
      expect(rc.text).toContain(system.slice(0, 40));
      expect(rc.text.endsWith(msgs[msgs.length - 1]!.content)).toBe(true);
      expect(rc.notes.join(' ')).toContain('scored as its model saw it when writing it');
      expect(rc.categories.filter((c) => c === 'system').length).toBeGreaterThan(10);
      expect(rc.notes.join(' ')).not.toContain('never sees the system prompt');
    }
    // Where the whole rendering starts with the prompt (Qwen3's empty think block follows it), nothing changes.
    const qwen = renderContext(asRenderer(shippedTokenizer('qwen3')), applyPolicy(maze, selectTurn(maze), parsePolicy('full')));
    expect(qwen.notes.join(' ')).not.toContain('scored as its model saw it');
  });

  it('gives strftime_now a fixed date, changeable', () => {
    const tok = realTemplateTokenizer('meta-llama--Llama-3.2-1B-Instruct', 'llama3_1');
    expect(tok.usesDate).toBe(true);
    expect(tok.render([{ role: 'user', content: 'hi' }], true)).toContain('Today Date: 26 Jul 2024');
    tok.templateDate = '2026-12-01';
    expect(tok.render([{ role: 'user', content: 'hi' }], true)).toContain('Today Date: 01 Dec 2026');
  });
});

/**
 * Seeded fuzzing of every input a person or a model folder hands us: conversations, links, configs,
 * safetensors headers, tokenizer files. Bounded in count (a few seconds here); each case asserts no
 * uncaught error, no stack trace in a message, every refusal naming its file/line/field, and nothing
 * accepted that breaks the invariants the rest of the code relies on.
 */
import { describe, expect, it } from 'vitest';
import { parseConversation, parseJsonl } from '../../src/conversation/parse';
import { jsonErrorOffset } from '../../src/conversation/json-offset';
import { describeIssue } from '../../src/conversation/types';
import { normalizeConfig } from '../../src/model/config/config';
import { ModelError } from '../../src/model/errors';
import { readSafetensorsHeader } from '../../src/model/checkpoint/safetensors';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';
import { linkOffer } from '../../src/state/hub-access';
import { decodeView } from '../../src/state/url-state';
import {
  brokenInvariant,
  configCase,
  CONVERSATION_SEEDS,
  CRAFTED_CONVERSATIONS,
  ENGINE_WORDS,
  linkCase,
  mutate,
  rng,
  safetensorsCase,
  tokenizerCase,
  unsafeLinkModel,
} from '../helpers/fuzz';

const noStack = (m: string) => expect(m).not.toMatch(ENGINE_WORDS);

describe('fuzz: conversations', () => {
  const seeds = CONVERSATION_SEEDS;
  it('the crafted hostile ones: each refused, naming the message or line, in a short message', () => {
    for (const [, text] of CRAFTED_CONVERSATIONS) {
      const out = parseConversation(text);
      expect(out.conversation).toBeNull();
      const e = out.issues.find((i) => i.severity === 'error')!;
      expect(e.message ?? e.line).toBeDefined();
      expect(describeIssue(e).length).toBeLessThan(200);
    }
  });
  it('3,000 mutations: never a throw; every issue named and located; JSON errors have a line', () => {
    const r = rng(1);
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      const text = mutate(r.pick(seeds), r);
      const out = parseConversation(text);
      for (const i of out.issues) {
        noStack(i.text);
        if (i.text.startsWith('invalid JSON')) expect(i.line).toBeGreaterThan(0);
        expect(describeIssue(i).length).toBeLessThan(400);
      }
      if (out.conversation) {
        accepted++;
        // Accepted means scoreable: known roles, string content, an answer to score.
        for (const m of out.conversation.messages) {
          expect(['system', 'user', 'assistant']).toContain(m.role);
          expect(typeof m.content).toBe('string');
        }
        expect(out.conversation.messages.some((m) => m.role === 'assistant')).toBe(true);
      } else expect(out.issues.some((i) => i.severity === 'error')).toBe(true);
    }
    expect(accepted).toBeGreaterThan(100); // the mutations are not all fatal: the accepting path is exercised too
  });
  it('our JSON reading agrees with JSON.parse on every mutated text (so its positions can be trusted)', () => {
    const r = rng(2);
    for (let n = 0; n < 3000; n++) {
      const text = mutate(r.pick(seeds.slice(1)), r);
      let ok = true;
      try {
        JSON.parse(text);
      } catch {
        ok = false;
      }
      expect(jsonErrorOffset(text) === -1).toBe(ok);
    }
  });
  it('JSONL: a bad line never costs the good ones', () => {
    const r = rng(3);
    const good = JSON.stringify([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
    for (let n = 0; n < 200; n++) {
      const lines = Array.from({ length: 5 }, (_, k) => (k % 2 ? mutate(good, r).replace(/[\r\n]/g, ' ') : good));
      const out = parseJsonl(lines.join('\n'));
      expect(out.filter((o) => o.line % 2 === 1).every((o) => o.result.conversation !== null)).toBe(true);
    }
  });
});

describe('fuzz: links', () => {
  it('2,000 crafted query strings and fragments: never a throw; a model offered only with a checked id, revision and host', () => {
    const r = rng(4);
    for (let n = 0; n < 2000; n++) {
      const link = linkCase(r);
      const { view, problems } = decodeView(link.search, link.hash);
      for (const p of problems) noStack(p);
      const offer = linkOffer({ model: view.model, revision: view.revision, hub: view.hub });
      if (offer.problem === null) expect(unsafeLinkModel(view)).toBeNull();
    }
  });
});

describe('fuzz: model files', () => {
  it('2,000 mutated configs: a spec that keeps its invariants, or a ModelError naming config.json and the field', () => {
    const r = rng(5);
    let accepted = 0;
    for (let n = 0; n < 2000; n++) {
      const cfg = configCase(r);
      try {
        const s = normalizeConfig(cfg);
        accepted++;
        expect(brokenInvariant(s)).toBeNull();
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as ModelError).file).toBe('config.json');
        noStack((e as Error).message);
      }
    }
    expect(accepted).toBeGreaterThan(50);
  });

  it('1,000 mutated safetensors headers: read, or refused as a ModelError naming the file', async () => {
    const r = rng(6);
    for (let n = 0; n < 1000; n++) {
      const bytes = safetensorsCase(r);
      try {
        const tensors = await readSafetensorsHeader('model.safetensors', { size: bytes.byteLength, read: async (a, b) => bytes.slice(a, b) });
        for (const t of tensors.values()) expect(t.end).toBeLessThanOrEqual(bytes.byteLength);
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as Error).message).toMatch(/^model\.safetensors/);
        noStack((e as Error).message);
      }
    }
  });

  it('300 mutated tokenizer files: loaded, or a ModelError naming tokenizer.json or tokenizer_config.json', () => {
    const r = rng(7);
    for (let n = 0; n < 300; n++) {
      const files = tokenizerCase(r);
      if (!files) continue; // not JSON: refused before it reaches the tokenizer (model-errors.test.ts)
      try {
        const tok = ChatTokenizer.fromJson(files.json, files.config);
        tok.encode(
          tok.render(
            [
              { role: 'user', content: 'hello' },
              { role: 'assistant', content: 'hi' },
            ],
            false,
          ),
        );
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as Error).message).toMatch(/^(tokenizer\.json|tokenizer_config\.json)/);
        noStack((e as Error).message);
      }
    }
  });
});

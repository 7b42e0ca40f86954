/**
 * Seeded fuzzing of every input a person or a model folder hands us: conversations, links, configs,
 * safetensors headers, tokenizer files. Bounded in count (a few seconds here); each case asserts no
 * uncaught error, no stack trace in a message, every refusal naming its file/line/field, and nothing
 * accepted that breaks the invariants the rest of the code relies on.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConversation, parseJsonl } from '../../src/conversation/parse';
import { jsonErrorOffset } from '../../src/conversation/json-offset';
import { describeIssue } from '../../src/conversation/types';
import { normalizeConfig } from '../../src/model/config';
import { ModelError } from '../../src/model/errors';
import { readSafetensorsHeader, writeSafetensors } from '../../src/model/safetensors';
import { ChatTokenizer } from '../../src/model/tokenizer';
import { linkOffer } from '../../src/state/hub-access';
import { decodeView } from '../../src/state/url-state';
import { MAZE_TEXT } from '../helpers/maze';
import { tinyConfig } from '../helpers/tiny-model';
import { tinyTokenizerConfig, tinyTokenizerJson } from '../helpers/tiny-tokenizer';

/** mulberry32: the same cases on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T,>(xs: readonly T[]): T => xs[int(xs.length)]! };
}

const NASTY = ['', '{', '}', '[', ']', '"', '\\', ',', ':', '\u0000', '\u2028', '\uFEFF', '\uD800', 'null', '-1', '1e999', '__proto__', 'constructor', '<|im_end|>', '\n', 'Assistant:', 'User: '];

function mutate(text: string, r: ReturnType<typeof rng>): string {
  let s = text;
  for (let k = 1 + r.int(4); k > 0; k--) {
    const at = r.int(s.length + 1);
    const op = r.int(3);
    if (op === 0) s = s.slice(0, at) + r.pick(NASTY) + s.slice(at);
    else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + r.int(8));
    else s = s.slice(0, at) + String.fromCharCode(r.int(0x3000)) + s.slice(at + 1);
  }
  return s;
}

const noStack = (m: string) => expect(m).not.toMatch(/\n\s+at |TypeError|Cannot read prop|undefined is not/);

describe('fuzz: conversations', () => {
  const seeds = [
    MAZE_TEXT,
    readFileSync('examples/maze.json', 'utf8'),
    JSON.stringify({ conversations: [{ from: 'human', value: 'q' }, { from: 'gpt', value: 'a', summary: 's' }] }),
    JSON.stringify({ messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }] }),
  ];
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
    const good = JSON.stringify([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }]);
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
    const parts = ['model=a/b', 'model=../../x', 'model=a/b?c', 'rev=main/../../../admin%3Fq%3D', 'rev=v1', 'hub=http://192.168.1.1', 'hub=javascript:alert(1)', 'hub=https://u:p@h', 'policy=clip:3:1', 'policy=%%%', 'turn=-1', 'head=1e9', 'r=inf', 'layer=NaN', 'backend=tpu', 'example=nope', 'conv=%%%', 'conv=AAAA', 'compare=1'];
    for (let n = 0; n < 2000; n++) {
      const q = Array.from({ length: 1 + r.int(5) }, () => (r.next() < 0.3 ? mutate(r.pick(parts), r) : r.pick(parts))).join('&');
      const { view, problems } = decodeView(`?${q}`, r.next() < 0.5 ? `#${mutate('conv=SGVsbG8', r)}` : '');
      for (const p of problems) noStack(p);
      const offer = linkOffer({ model: view.model, revision: view.revision, hub: view.hub });
      if (offer.problem === null) {
        expect(view.model).toMatch(/^[\w.-]+\/[\w.-]+$/);
        expect(view.model.split('/')).not.toContain('..');
        expect(view.revision).not.toMatch(/\.\.|[?#%]/);
        if (view.hub !== null) expect(view.hub).toMatch(/^https?:\/\//);
      }
    }
  });
});

describe('fuzz: model files', () => {
  const base = tinyConfig({ family: 'qwen3', layers: 2 });
  const VALUES: unknown[] = [-1, 0, 0.5, 7, 1e308, -1e-9, NaN, 'x', '', null, true, [], [1, 2], {}, { rope_type: 'yarn', factor: -2 }, 2 ** 53];
  it('2,000 mutated configs: a spec that keeps its invariants, or a ModelError naming config.json and the field', () => {
    const r = rng(5);
    const fields = Object.keys(base);
    let accepted = 0;
    for (let n = 0; n < 2000; n++) {
      const cfg: Record<string, unknown> = structuredClone(base);
      for (let k = 1 + r.int(3); k > 0; k--) cfg[r.pick([...fields, 'head_dim', 'rope_parameters', 'sliding_window', 'partial_rotary_factor'])] = r.pick(VALUES);
      try {
        const s = normalizeConfig(cfg);
        accepted++;
        expect(s.rmsNormEps).toBeGreaterThan(0);
        expect(s.numHeads % s.numKvHeads).toBe(0);
        expect(s.headDim % 2).toBe(0);
        for (const rope of s.ropes) expect(rope.theta).toBeGreaterThan(0);
        for (const v of [s.attentionScale, s.embeddingScale, s.residualScale, s.logitScale]) expect(Number.isFinite(v) && v > 0).toBe(true);
        expect(s.layers).toHaveLength(s.numLayers);
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
    const file = writeSafetensors([{ name: 'w', dtype: 'F32', shape: [2, 3], bytes: new Uint8Array(24) }, { name: 'b', dtype: 'F16', shape: [4], bytes: new Uint8Array(8) }]);
    const len = Number(new DataView(file.buffer).getBigUint64(0, true));
    const header = new TextDecoder().decode(file.subarray(8, 8 + len));
    for (let n = 0; n < 1000; n++) {
      const h = new TextEncoder().encode(r.next() < 0.1 ? r.pick(['null', '[]', '{"w": null}', '{"w": {"dtype": "F32", "shape": null}}', '"x"']) : mutate(header, r));
      const bytes = new Uint8Array(8 + h.byteLength + 32);
      new DataView(bytes.buffer).setBigUint64(0, BigInt(r.next() < 0.05 ? r.int(1e9) : h.byteLength), true);
      bytes.set(h, 8);
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
    const tj = JSON.stringify(tinyTokenizerJson());
    const tc = JSON.stringify(tinyTokenizerConfig());
    for (let n = 0; n < 300; n++) {
      const which = r.int(2);
      let tokJson: unknown;
      let tokCfg: unknown;
      try {
        tokJson = JSON.parse(which === 0 ? mutate(tj, r) : tj);
        tokCfg = JSON.parse(which === 1 ? mutate(tc, r) : tc);
      } catch {
        continue; // not JSON: refused before it reaches the tokenizer (model-errors.test.ts)
      }
      if (typeof tokJson !== 'object' || tokJson === null || typeof tokCfg !== 'object' || tokCfg === null) continue;
      try {
        const tok = ChatTokenizer.fromJson(tokJson as Record<string, unknown>, tokCfg as Record<string, unknown>);
        tok.encode(tok.render([{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi' }], false));
      } catch (e) {
        expect(e).toBeInstanceOf(ModelError);
        expect((e as Error).message).toMatch(/^(tokenizer\.json|tokenizer_config\.json)/);
        noStack((e as Error).message);
      }
    }
  });
});

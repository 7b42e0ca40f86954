import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { parseConversation } from '../../../src/conversation/parse';
import { chunkerFor, type AddedTokenEntry } from '../../../src/model/tokenizer/encode-chunks';
import { ChatTokenizer } from '../../../src/model/tokenizer/tokenizer';
import { DEMO_MODEL_PATH } from '../../../src/model/demo';
import { REAL_TEMPLATES, realTemplateTokenizer, SHIPPED, shippedFiles, shippedTokenizer } from '../../helpers/real-tokenizers';

/**
 * Encoding a turn at a time (encode-chunks.ts) gives the ids of the whole text: for every shipped
 * tokenizer, on renderings of the examples through real templates, and on text made to trip the cut
 * (control strings in the content, spaces and half markers beside them, emoji, ▁).
 */
const read = (f: string) =>
  parseConversation(readFileSync(`examples/${f}.json`, 'utf8')).conversation!.messages.map(({ role, content }) => ({ role, content }));
const HOSTILE = [
  'a<|im_start|>b <|im_end|>\n<|im_start|>user',
  ' <|eot_id|><|start_header_id|>x<|end_header_id|>',
  '<start_of_turn><end_of_turn> <start_of_turn>model\n',
  '</s><s> </s>▁▁ [INST] x [/INST]',
  '<|im_st<|im_start|>art|> 🦜‘’ \u00e9e\u0301',
  '<|<|im_start|>|> <<<|eot_id|>>> <|reserved_special_token_3|>',
];

function wholeEncoder(json: Record<string, unknown>, config: Record<string, unknown>) {
  const t = new Tokenizer(json, config);
  return (text: string) => t.encode(text, { add_special_tokens: false }).ids;
}

describe('encoding a text a turn at a time', () => {
  for (const name of SHIPPED) {
    it(`gives the whole text's ids on ${name}`, () => {
      const { json, config } = shippedFiles(name);
      const cut = chunkerFor(json.added_tokens as AddedTokenEntry[], json.normalizer != null);
      const whole = wholeEncoder(json, config);
      const texts: string[] = [...HOSTILE, HOSTILE.join('\n')];
      const own = (() => {
        try {
          return [shippedTokenizer(name)];
        } catch {
          return []; // it ships no chat template
        }
      })();
      for (const tok of [...own, ...REAL_TEMPLATES.filter((r) => r.tokenizer === name).map((t) => realTemplateTokenizer(t.model, t.tokenizer))]) {
        for (const ex of ['maze', 'arithmetic', 'mixed-chat']) {
          const messages = read(ex);
          texts.push(tok.render(messages, false), tok.render(messages.slice(0, -1), true));
          texts.push(
            tok.render(
              messages.map((m, k) => ({ ...m, content: `${HOSTILE[k % HOSTILE.length]}${m.content} ` })),
              false,
            ),
          );
        }
      }
      let cutTexts = 0;
      for (const text of texts) {
        const pieces = cut?.(text) ?? null;
        if (!pieces) continue;
        cutTexts++;
        expect(pieces.join('')).toBe(text);
        expect(pieces.flatMap((p) => whole(p))).toEqual(whole(text));
      }
      // Every shipped tokenizer has special tokens the texts hold: the cut is exercised, not skipped.
      expect(cutTexts).toBeGreaterThanOrEqual(2);
    });
  }

  it('does not cut before a token that strips the space to its left, nor through a longer added token', () => {
    const added = [
      { content: '<x>', special: true, lstrip: true },
      { content: '<y>', special: true },
      { content: 'a<y>b', special: false, normalized: false },
      { content: '<y>z', special: false, normalized: false, lstrip: true },
    ];
    const cut = chunkerFor(added, false)!;
    expect(cut('one <x> two')).toBeNull();
    expect(cut('one<y>two')).toEqual(['one', '<y>two']);
    expect(cut('one a<y>b two')).toBeNull();
    // The library would match the longer '<y>z' there, which strips the space before it.
    expect(cut('one <y>z two')).toBeNull();
    // Nothing special to cut before: no cutting at all.
    expect(chunkerFor([{ content: '<z>', special: false }], true)).toBeNull();
  });

  it('is what ChatTokenizer.encode does, with the same ids as a whole encoding', async () => {
    const { dirSource } = await import('../../../src/cli/dir-source');
    const tok = await ChatTokenizer.load(dirSource(DEMO_MODEL_PATH));
    const json = JSON.parse(readFileSync(`${DEMO_MODEL_PATH}/tokenizer.json`, 'utf8')) as Record<string, unknown>;
    const whole = wholeEncoder(json, JSON.parse(readFileSync(`${DEMO_MODEL_PATH}/tokenizer_config.json`, 'utf8')) as Record<string, unknown>);
    const messages = read('maze');
    // More texts than the tokenizer checks itself: the later ones are cut and not checked.
    for (let k = 2; k <= messages.length; k++) {
      const text = tok.render(messages.slice(0, k), false);
      expect(tok.encode(text)).toEqual(whole(text));
    }
  });
});

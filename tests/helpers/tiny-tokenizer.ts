/**
 * A tiny byte-level BPE tokenizer (256 byte tokens, no merges) plus ChatML special tokens, in the
 * tokenizer.json format @huggingface/tokenizers loads: tests get a real tokenizer without a download.
 */
export const SPECIAL_TOKENS = ['<|im_start|>', '<|im_end|>', '<|endoftext|>'];
export const TINY_VOCAB = 256 + SPECIAL_TOKENS.length;

export const CHATML_TEMPLATE =
  "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}" +
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

/** GPT-2's bytes_to_unicode: printable stand-ins for every byte. */
function byteChars(): string[] {
  const keep: number[] = [];
  for (let b = 33; b <= 126; b++) keep.push(b);
  for (let b = 161; b <= 172; b++) keep.push(b);
  for (let b = 174; b <= 255; b++) keep.push(b);
  const chars: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) chars[b] = String.fromCharCode(keep.includes(b) ? b : 256 + extra++);
  return chars;
}

export function tinyTokenizerJson(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  byteChars().forEach((c, i) => (vocab[c] = i));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, i) => ({
      id: 256 + i, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null, fuse_unk: false, byte_fallback: false, vocab, merges: [] },
  };
}

export function tinyTokenizerConfig(withTemplate = true): Record<string, unknown> {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    bos_token: null,
    eos_token: '<|im_end|>',
    pad_token: '<|endoftext|>',
    ...(withTemplate && { chat_template: CHATML_TEMPLATE }),
  };
}

import { byteChars, CHATML_TEMPLATE } from '../../src/model/tokenizer/chatml';

/**
 * A tiny byte-level BPE tokenizer (256 byte tokens, no merges) plus ChatML special tokens, in the
 * tokenizer.json format @huggingface/tokenizers loads: tests get a real tokenizer without a download.
 */
export { CHATML_TEMPLATE };
export const SPECIAL_TOKENS = ['<|im_start|>', '<|im_end|>', '<|endoftext|>'];
export const TINY_VOCAB = 256 + SPECIAL_TOKENS.length;

export function tinyTokenizerJson(): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  byteChars().forEach((c, i) => (vocab[c] = i));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content, i) => ({
      id: 256 + i,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges: [],
    },
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

/**
 * A small byte-level BPE trainer (GPT-2 style). Deterministic: ties between equally frequent pairs
 * break by the pair's text. Writes a tokenizer.json that @huggingface/tokenizers loads.
 */

import { byteChars } from '../src/model/tokenizer/chatml';

/** GPT-2's pre-tokenization pattern, as the ByteLevel pre-tokenizer applies it (use_regex: true). */
const GPT2_SPLIT = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export interface TrainedBpe {
  vocab: Record<string, number>;
  merges: [string, string][];
}

export function trainBpe(texts: Iterable<string>, vocabSize: number): TrainedBpe {
  const chars = byteChars();
  const enc = new TextEncoder();
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.matchAll(GPT2_SPLIT)) {
      const w = Array.from(enc.encode(m[0]), (b) => chars[b]!).join('\u0000');
      counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const words = [...counts].map(([w, n]) => ({ syms: w.split('\u0000'), n }));
  const vocab: Record<string, number> = {};
  chars.forEach((c, i) => (vocab[c] = i));
  const merges: [string, string][] = [];
  while (Object.keys(vocab).length < vocabSize) {
    const pairs = new Map<string, number>();
    for (const { syms, n } of words) {
      for (let i = 0; i + 1 < syms.length; i++) {
        const k = `${syms[i]}\u0000${syms[i + 1]}`;
        pairs.set(k, (pairs.get(k) ?? 0) + n);
      }
    }
    let best: string | null = null;
    let bestN = 1;
    for (const [k, n] of pairs) if (n > bestN || (n === bestN && best !== null && k < best)) [best, bestN] = [k, n];
    if (best === null) break; // no pair occurs twice: nothing left worth merging
    const [a, b] = best.split('\u0000') as [string, string];
    merges.push([a, b]);
    vocab[a + b] = Object.keys(vocab).length;
    for (const w of words) {
      const out: string[] = [];
      for (let i = 0; i < w.syms.length; i++) {
        if (i + 1 < w.syms.length && w.syms[i] === a && w.syms[i + 1] === b) {
          out.push(a + b);
          i++;
        } else out.push(w.syms[i]!);
      }
      w.syms = out;
    }
  }
  return { vocab, merges };
}

export function tokenizerJson(bpe: TrainedBpe, specials: string[]): Record<string, unknown> {
  const base = Object.keys(bpe.vocab).length;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((content, i) => ({ id: base + i, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
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
      ignore_merges: false,
      vocab: bpe.vocab,
      merges: bpe.merges,
    },
  };
}

import { byteChars } from './chatml';

/**
 * The bytes of the text each token stands for, read from tokenizer.json's own model and decoder: the
 * inverse of GPT-2's byte table for byte-level BPE (Qwen, Llama 3, SmolLM, OLMo, Phi-4, Granite), '▁'
 * as a space and `<0xNN>` byte-fallback pieces for SentencePiece-style vocabularies (Llama 2, TinyLlama,
 * Mistral, Gemma, Phi-3.5), and an added token's content as it is. Rendering aligns these bytes with
 * the rendered text to place every token of one whole-text encoding (context/render.ts), so message
 * boundaries never depend on tokenizing pieces separately.
 */
export type TokenBytesOf = (id: number, token: string | undefined) => Uint8Array;

const utf8 = new TextEncoder();

/** Reads the tokenizer.json fields that decide how a token maps back to text. */
export function tokenBytesFor(tokenizerJson: Record<string, unknown>): {
  bytesOf: TokenBytesOf;
  normalization: 'NFC' | 'NFKC' | null;
  vocabSize: number;
  modelVocabSize: number;
} {
  const added = new Map<number, string>();
  for (const t of (tokenizerJson.added_tokens as { id: number; content: string }[] | undefined) ?? []) added.set(t.id, t.content);
  const types = (node: unknown): string[] => {
    if (!node || typeof node !== 'object') return [];
    const n = node as { type?: string; decoders?: unknown[]; pretokenizers?: unknown[]; normalizers?: unknown[] };
    return [n.type ?? '', ...(n.decoders ?? n.pretokenizers ?? n.normalizers ?? []).flatMap(types)];
  };
  const decoders = types(tokenizerJson.decoder);
  const byteLevel = decoders.includes('ByteLevel') || types(tokenizerJson.pre_tokenizer).includes('ByteLevel');
  const normalizers = types(tokenizerJson.normalizer);
  const normalization = normalizers.includes('NFKC') ? 'NFKC' : normalizers.includes('NFC') ? 'NFC' : null;
  const inverse = new Map(byteChars().map((c, b) => [c, b]));
  const bytesOf: TokenBytesOf = (id, token) => {
    const a = added.get(id);
    if (a !== undefined) return utf8.encode(a);
    if (token === undefined) return new Uint8Array(0);
    if (byteLevel) {
      const out: number[] = [];
      for (const c of token) {
        const b = inverse.get(c);
        if (b === undefined) return utf8.encode(token); // not a byte-table string: take it as text
        out.push(b);
      }
      return Uint8Array.from(out);
    }
    const fallback = /^<0x([0-9A-Fa-f]{2})>$/.exec(token);
    if (fallback) return Uint8Array.of(parseInt(fallback[1]!, 16));
    return utf8.encode(token.replaceAll('▁', ' '));
  };
  // Ids the tokenizer can produce: its vocabulary's and its added tokens' (the model's embedding must have a row for each).
  const vocab = (tokenizerJson.model as { vocab?: unknown } | undefined)?.vocab;
  let modelVocabSize = Array.isArray(vocab) ? vocab.length : 0; // Unigram: [piece, score] pairs
  if (vocab && typeof vocab === 'object' && !Array.isArray(vocab))
    for (const id of Object.values(vocab as Record<string, number>)) modelVocabSize = Math.max(modelVocabSize, id + 1);
  let vocabSize = modelVocabSize;
  for (const id of added.keys()) vocabSize = Math.max(vocabSize, id + 1);
  return { bytesOf, normalization, vocabSize, modelVocabSize };
}

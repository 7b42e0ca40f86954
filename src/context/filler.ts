import { mulberry32 } from '../util/random';

/**
 * Paper 1 §4.2's control: each earlier answer replaced by neutral text of the same token length, so a
 * person can see whether attention to earlier answers follows their content or only their length.
 * Deterministic (seeded per message). Exact length whenever the tokenizer round-trips the text,
 * which tests check for the shipped tokenizers; otherwise the closest length found is used.
 */
const WORDS = (
  'the river stone valley morning window garden paper field light table quiet road cloud water ' +
  'green small open early simple round north evening station bridge market forest letter chair ' +
  'summer winter wooden yellow village harbor meadow lantern pebble orchard kettle blanket'
).split(' ');

export interface TextCodec {
  encode(text: string): number[];
  decode(ids: number[]): string;
}

/** Neutral text whose token count equals `targetTokens` (or is as close as the tokenizer allows). */
export function fillerText(codec: TextCodec, targetTokens: number, seed: number): string {
  if (targetTokens <= 0) return '';
  let best = '';
  let bestGap = Infinity;
  for (let attempt = 0; attempt < 8; attempt++) {
    const next = mulberry32(seed * 7919 + attempt);
    let text = '';
    while (codec.encode(text).length < targetTokens) text += (text ? ' ' : '') + WORDS[Math.floor(next() * WORDS.length)];
    const ids = codec.encode(text);
    const candidate = ids.length === targetTokens ? text : codec.decode(ids.slice(0, targetTokens));
    const gap = Math.abs(codec.encode(candidate).length - targetTokens);
    if (gap === 0) return candidate;
    if (gap < bestGap) [best, bestGap] = [candidate, gap];
  }
  return best;
}

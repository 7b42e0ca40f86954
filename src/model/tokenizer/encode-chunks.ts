/**
 * Encoding a text a turn at a time. @huggingface/tokenizers splits a text at its added tokens before it
 * normalizes or pre-tokenizes anything (Tokenizer.encode_text), and encodes each piece on its own. So a
 * text cut just before an added token gives, piece by piece, the ids of the whole, provided that token
 * strips nothing to its left (lstrip), starts with no space, and no added token spans the cut. A
 * conversation's renderings of ever longer prefixes (the cost series, the sweep over turns) then encode only
 * their new turns. ChatTokenizer checks the first cut encodings against whole ones all the same.
 */

/** An entry of tokenizer.json's `added_tokens`. */
export interface AddedTokenEntry {
  id?: unknown;
  content?: unknown;
  lstrip?: unknown;
  rstrip?: unknown;
  normalized?: unknown;
  special?: unknown;
}

/** The pieces of a text (joined, the text) that encode to its ids one by one; null when there is no cut. */
export type ChunkText = (text: string) => string[] | null;

/**
 * Where texts may be cut, for a tokenizer with these added tokens: before a special added token the
 * library matches in the raw text (not normalized first), or never when there is none.
 */
export function chunkerFor(added: readonly AddedTokenEntry[], hasNormalizer: boolean): ChunkText | null {
  const tokens = added.filter((t): t is AddedTokenEntry & { content: string } => typeof t?.content === 'string' && t.content.length > 0);
  // The library's rule: an added token is matched in the raw text unless it is normalized (default: when not special) and there is a normalizer.
  const raw = tokens.filter((t) => !(hasNormalizer && (typeof t.normalized === 'boolean' ? t.normalized : t.special !== true)));
  const cutBefore = raw.filter((t) => t.special === true && t.lstrip !== true && !/^\s/.test(t.content)).map((t) => t.content);
  if (!cutBefore.length) return null;
  // Every added token counts in `all`, normalized or not: a cut is given up on any doubt. Tries, as the
  // library's own splitter: Gemma 3 has thousands of added tokens, Llama 3 hundreds of special ones.
  const all = trieOf(tokens.map((t) => t.content));
  const cutAt = trieOf(cutBefore);
  const strippingLeft = new Set(tokens.filter((t) => t.lstrip === true).map((t) => t.content));
  // Whether an added token starts before `at` and ends after it (the library would match it there).
  const spanned = (text: string, at: number) => {
    for (let i = Math.max(0, at - all.longest + 1); i < at; i++) if (matchEnds(all.root, text, i).some((end) => end > at)) return true;
    return false;
  };
  return (text) => {
    const cuts: number[] = [];
    for (let i = 1; i < text.length; i++) if (cutAt.root.has(text[i]!) && matchEnds(cutAt.root, text, i).length) cuts.push(i);
    if (!cuts.length) return null;
    const pieces: string[] = [];
    let start = 0;
    for (const at of cuts) {
      // The library matches the longest token at the cut: none of those starting there may strip to its left.
      if (at <= start || spanned(text, at) || matchEnds(all.root, text, at).some((end) => strippingLeft.has(text.slice(at, end)))) continue;
      pieces.push(text.slice(start, at));
      start = at;
    }
    if (!pieces.length) return null;
    pieces.push(text.slice(start));
    return pieces;
  };
}

type Node = Map<string, Node> & { end?: true };

/** A trie over UTF-16 units, as the library's DictionarySplitter. */
function trieOf(words: string[]): { root: Node; longest: number } {
  const root: Node = new Map();
  let longest = 1;
  for (const w of words) {
    let node = root;
    for (let k = 0; k < w.length; k++) node = node.get(w[k]!) ?? (node.set(w[k]!, new Map()), node.get(w[k]!)!);
    node.end = true;
    longest = Math.max(longest, w.length);
  }
  return { root, longest };
}

/** The ends of the trie's words that start at `i`. */
function matchEnds(root: Node, text: string, i: number): number[] {
  const ends: number[] = [];
  let node: Node | undefined = root;
  for (let j = i; j < text.length && node; j++) {
    node = node.get(text[j]!);
    if (node?.end) ends.push(j + 1);
  }
  return ends;
}

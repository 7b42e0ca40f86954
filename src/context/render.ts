import type { Role } from '../conversation/types';
import type { Category, Span } from '../metrics/categories';
import { CATEGORY_OF, type ContextMessage } from './apply';

/** What rendering needs from a tokenizer: the model's chat template and its encoder. */
export interface ChatRenderer {
  render(messages: { role: Role; content: string }[], addGenerationPrompt: boolean): string;
  encode(text: string): number[];
  /** End-of-turn strings of the template (e.g. "<|im_end|>", "<|eot_id|>"): a turn's frame ends after them. */
  endMarkers: string[];
}

export const SINK_TOKENS = 3;

export interface RenderedContext {
  text: string;
  ids: number[];
  /** Per token: index into the context messages. */
  messageOf: number[];
  /** Per token: sink (first 3 tokens) or its message's category. */
  categories: Category[];
  /** Per message: its content tokens (template tokens excluded). */
  contentSpans: Span[];
  /** Per message: all its tokens, template included. */
  messageSpans: Span[];
}

export class RenderError extends Error {
  override name = 'RenderError';
}

/**
 * Message boundaries in the rendered text. A boundary is exact where rendering the first k messages
 * gives a prefix of the whole; otherwise (templates that change a message when it is last, like
 * Qwen3's think block) it falls right after the first end-of-turn marker and the newlines after it.
 */
function boundaries(r: ChatRenderer, msgs: { role: Role; content: string }[], full: string): { bounds: number[]; content: [number, number][] } {
  const content: [number, number][] = [];
  const bounds: number[] = [];
  let cursor = 0;
  const prefixEnds = msgs.map((_, k) => {
    if (k === msgs.length - 1) return full.length;
    const p = r.render(msgs.slice(0, k + 1), false);
    return full.startsWith(p) ? p.length : null;
  });
  msgs.forEach((m, k) => {
    const end = prefixEnds[k];
    // Search the content inside the message's own segment, from its end, so content equal to a role name is not found in the header.
    const at = end != null ? full.lastIndexOf(m.content, end - m.content.length) : full.indexOf(m.content, cursor);
    if (at < cursor || at < 0) throw new RenderError(`the chat template changes the text of message ${k + 1} (${m.role}): its tokens cannot be located`);
    content.push([at, at + m.content.length]);
    cursor = at + m.content.length;
  });
  msgs.forEach((_, k) => {
    const known = prefixEnds[k];
    if (known != null) return bounds.push(known);
    const gapStart = content[k]![1];
    const gap = full.slice(gapStart, content[k + 1]![0]);
    const marks = r.endMarkers.map((m) => ({ m, i: gap.indexOf(m) })).filter((x) => x.i >= 0).sort((a, b) => a.i - b.i);
    if (!marks.length) return bounds.push(gapStart);
    let b = marks[0]!.i + marks[0]!.m.length;
    while (gap[b] === '\n') b++;
    bounds.push(gapStart + b);
  });
  return { bounds, content };
}

/** Renders the policy's messages through the template, tokenizes, and assigns every token. */
export function renderContext(r: ChatRenderer, messages: ContextMessage[]): RenderedContext {
  const plain = messages.map(({ role, content }) => ({ role, content }));
  const text = r.render(plain, false);
  const { bounds, content } = boundaries(r, plain, text);
  const ids: number[] = [];
  const messageOf: number[] = [];
  const categories: Category[] = [];
  const contentSpans: Span[] = [];
  const messageSpans: Span[] = [];
  messages.forEach((m, k) => {
    const start = k === 0 ? 0 : bounds[k - 1]!;
    const [cs, ce] = content[k]!;
    const head = r.encode(text.slice(start, cs));
    const body = r.encode(text.slice(cs, ce));
    const tail = r.encode(text.slice(ce, bounds[k]!));
    messageSpans.push({ start: ids.length, length: head.length + body.length + tail.length });
    contentSpans.push({ start: ids.length + head.length, length: body.length });
    for (const id of [...head, ...body, ...tail]) {
      ids.push(id);
      messageOf.push(k);
      categories.push(ids.length <= SINK_TOKENS ? 'sink' : CATEGORY_OF[m.kind]);
    }
  });
  const whole = r.encode(text);
  if (whole.length !== ids.length || whole.some((id, i) => id !== ids[i])) {
    const i = whole.findIndex((id, j) => id !== ids[j]);
    throw new RenderError(`message boundaries are not token boundaries for this tokenizer (first difference at token ${i}, message ${messageOf[i]! + 1}): tokens cannot be split by message`);
  }
  return { text, ids, messageOf, categories, contentSpans, messageSpans };
}

/** End-of-turn markers to try: the tokenizer's eos token and those of common templates. */
export function endMarkersFor(eosToken: string | null): string[] {
  return [...new Set([...(eosToken ? [eosToken] : []), '<|im_end|>', '<|eot_id|>', '<end_of_turn>', '<|end|>', '</s>'])];
}

/** A ChatRenderer over the model's tokenizer (model/tokenizer.ts ChatTokenizer or anything shaped like it). */
export function asRenderer(tok: { render: ChatRenderer['render']; encode: ChatRenderer['encode']; eosToken: string | null }): ChatRenderer {
  return { render: (m, g) => tok.render(m, g), encode: (t) => tok.encode(t), endMarkers: endMarkersFor(tok.eosToken) };
}

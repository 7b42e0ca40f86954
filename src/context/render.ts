import type { Role } from '../conversation/types';
import type { Category, Span } from '../metrics/categories';
import { CATEGORY_OF, type ContextMessage } from './apply';
import { acceptedPlan, generationTimeLayout, layoutConversation, RenderError, toMessages, type TemplateRenderer } from './layout';

export { RenderError };

/** What rendering needs from a tokenizer: the model's chat template, its encoder, and each token's bytes. */
export interface ChatRenderer extends TemplateRenderer {
  encode(text: string): number[];
  /** The bytes of text each token stands for (model/tokenizer/token-bytes.ts). */
  tokenBytes(ids: number[]): Uint8Array[];
  /** The text as the tokenizer's normalizer sees it (NFC for Qwen). */
  normalize(text: string): string;
  /** The tokenizer's special tokens ("<|im_end|>", "[INST]"): in pasted text they are read as the real ones. */
  controlTokens?: readonly string[];
  /**
   * Added tokens that take the whitespace beside them (tokenizer.json's `lstrip` / `rstrip`: Phi-3's
   * `<|assistant|>` eats the "\n" its template writes after it); undefined for the others.
   */
  tokenStrip?(id: number): { lstrip: boolean; rstrip: boolean } | undefined;
  /** The file tokens come from, for messages (tokenizer.json). */
  tokenizerFile?: string;
}

/** Per set of control strings, what each message text holds: the sweep renders every turn, and its texts repeat. */
const controlsSeen = new Map<string, Map<string, string[]>>();

function controlsFinder(r: ChatRenderer): (content: string) => string[] {
  const controls = [...new Set([...(r.controlTokens ?? []), ...r.startMarkers, ...r.endMarkers])].filter((c) => c.length >= 3);
  const key = controls.join('\u0000');
  let seen = controlsSeen.get(key);
  if (!seen) {
    if (controlsSeen.size >= 8) controlsSeen.clear();
    controlsSeen.set(key, (seen = new Map()));
  }
  return (content) => {
    let found = seen.get(content);
    if (!found) {
      if (seen.size >= 20_000) seen.clear();
      seen.set(content, (found = controls.filter((c) => content.includes(c))));
    }
    return found;
  };
}

/**
 * Where the conversation's own text holds a control string of this model (its special tokens, its
 * template's markers): the tokenizer reads it as the real one, so the model sees turns the person did
 * not write. Said, not silently escaped: a researcher may paste them on purpose.
 */
export function controlTokenNotes(r: ChatRenderer, messages: readonly { content: string; source?: number | null }[]): string[] {
  const foundIn = controlsFinder(r);
  const notes: string[] = [];
  messages.forEach((m, k) => {
    const found = foundIn(m.content);
    if (found.length)
      notes.push(
        `message ${(m.source ?? k) + 1} holds ${found
          .slice(0, 3)
          .map((c) => JSON.stringify(c))
          .join(
            ', ',
          )}, ${found.length > 1 ? 'control strings' : 'a control string'} of this model: the tokenizer reads ${found.length > 1 ? 'them' : 'it'} as the real thing, so the model sees a structure the text does not show`,
      );
  });
  return notes;
}

export const SINK_TOKENS = 3;

export interface RenderedContext {
  text: string;
  ids: number[];
  /**
   * The messages as the model sees them: the policy's, plus a system prompt the template adds of its own
   * (kind 'template-system'), first. Every index below refers to this list.
   */
  messages: ContextMessage[];
  /** Per token: index into messages. */
  messageOf: number[];
  /** Per token: sink (first 3 tokens) or its message's category. */
  categories: Category[];
  /** Per message: its content tokens (template tokens excluded); length 0 when the template drops it. */
  contentSpans: Span[];
  /** Per message: all its tokens, template included. */
  messageSpans: Span[];
  /** What the template did (merged, moved, dropped, trimmed, added), for the figures. */
  notes: string[];
  /** Per token: its text, cut from the rendered text, so that joined they are the rendered text. */
  tokenTexts: string[];
}

/** A token that cannot be placed in the rendered text: which, and where (renderContextOnce names the message). */
class PlacementError extends RenderError {
  constructor(
    readonly token: number,
    readonly char: number,
    what: string,
  ) {
    super(what);
  }
}

const isSpaceByte = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x09 || b === 0x0d || b === 0x0b || b === 0x0c;

/**
 * Each token's [start, end) in the text, in UTF-16 units: its bytes aligned with the text's UTF-8 bytes.
 * A tokenizer may insert spaces the text does not have (SentencePiece's ▁ at the start of a piece): those
 * bytes stand for no character. Anything else that differs is an error naming the place.
 */
function tokenChars(text: string, tokenBytes: Uint8Array[], strips: ({ lstrip: boolean; rstrip: boolean } | undefined)[] = []): [number, number][] {
  const bytes = new TextEncoder().encode(text);
  const charAt = new Int32Array(bytes.byteLength + 1); // byte index → UTF-16 index of the character it belongs to
  let b = 0;
  for (let c = 0; c < text.length; c++) {
    const cp = text.codePointAt(c)!;
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let i = 0; i < n; i++) charAt[b++] = c;
    if (cp >= 0x10000) c++;
  }
  charAt[bytes.byteLength] = text.length;
  const out: [number, number][] = [];
  let i = 0;
  tokenBytes.forEach((tb, t) => {
    let first = -1;
    let last = -1;
    const strip = strips[t];
    // lstrip / rstrip: the whitespace beside the token is part of it, with no bytes of its own.
    if (strip?.lstrip && tb.length && tb[0] !== bytes[i]) {
      let j = i;
      while (isSpaceByte(bytes[j])) j++;
      if (j > i && bytes[j] === tb[0]) [first, i] = [i, j];
    }
    for (const byte of tb) {
      if (i < bytes.byteLength && byte === bytes[i]) {
        if (first < 0) first = i;
        last = i++;
      } else if (byte !== 0x20) {
        throw new PlacementError(
          t,
          charAt[Math.min(i, bytes.byteLength)]!,
          `token ${t} does not match the rendered text at character ${charAt[Math.min(i, bytes.byteLength)]}`,
        );
      }
    }
    if (strip?.rstrip) while (isSpaceByte(bytes[i])) last = i++;
    const start = charAt[first >= 0 ? first : i]!;
    out.push([start, last >= 0 ? charAt[last]! + (text.codePointAt(charAt[last]!)! >= 0x10000 ? 2 : 1) : start]);
  });
  if (i !== bytes.byteLength) throw new PlacementError(tokenBytes.length, charAt[i]!, `the tokens cover the rendered text only up to character ${charAt[i]}`);
  return out;
}

/**
 * Renders the policy's messages through the model's template once, tokenizes the whole text once, and
 * gives every token to one message: the message whose text (template included) holds its first
 * character. A message's content tokens are its tokens that overlap its content, so a token that joins
 * content and template ("." with "\n\n") stays with the content. Boundaries come from the one encoding:
 * tokenizing pieces separately differs from the whole for SentencePiece tokenizers.
 */
export function renderContext(r: ChatRenderer, policyMessages: ContextMessage[]): RenderedContext {
  const control = controlTokenNotes(r, policyMessages);
  try {
    const rendered = renderContextOnce(r, policyMessages);
    return control.length ? { ...rendered, notes: [...rendered.notes, ...control] } : rendered;
  } catch (e) {
    // A control string in the text is the likely reason the rendering cannot be split by message: say so.
    if (e instanceof RenderError && control.length) throw new RenderError(`${e.message} (${control.join('; ')})`);
    throw e;
  }
}

function renderContextOnce(r: ChatRenderer, policyMessages: ContextMessage[]): RenderedContext {
  const contents = policyMessages.map((m) => r.normalize(m.content));
  const roles = policyMessages.map((m) => m.role);
  const whole = layoutConversation(r, roles, contents);
  const scored = policyMessages[policyMessages.length - 1]?.kind === 'current';
  const layout = (scored && generationTimeLayout(r, roles, contents, whole.text)) || whole;
  const messages = [...policyMessages];
  const spans = [...layout.spans];
  const content = [...layout.content];
  if (layout.injected) {
    messages.unshift({ role: 'system', content: layout.injected.content, kind: 'template-system', source: null, turn: null });
    spans.unshift(layout.injected.span);
    content.unshift(layout.injected.contentSpan);
  }
  const { text } = layout;
  const ids = r.encode(text);
  // The message owning each character: spans partition the text.
  const owner = new Int32Array(text.length + 1).fill(-1);
  spans.forEach((s, k) => {
    if (s) owner.fill(k, s[0], s[1]);
  });
  const tokenBytes = r.tokenBytes(ids);
  let chars: [number, number][];
  try {
    chars = tokenChars(text, tokenBytes, r.tokenStrip ? ids.map((id) => r.tokenStrip!(id)) : []);
  } catch (e) {
    if (!(e instanceof PlacementError)) throw e;
    throw new RenderError(placementMessage(e, text, ids, tokenBytes, owner, messages, r.tokenizerFile ?? 'tokenizer.json'));
  }
  const messageOf = chars.map(([a]) => owner[Math.min(a, text.length - 1)] ?? -1);
  const unowned = messageOf.indexOf(-1);
  if (unowned >= 0) throw new RenderError(`token ${unowned} falls outside every message: tokens cannot be split by message`);
  // Each message's tokens in one walk over them (first, count, and the same for those inside its content).
  const first = new Int32Array(messages.length).fill(-1);
  const count = new Int32Array(messages.length);
  const firstIn = new Int32Array(messages.length).fill(-1);
  const countIn = new Int32Array(messages.length);
  messageOf.forEach((k, t) => {
    if (first[k] === -1) first[k] = t;
    else if (first[k]! + count[k]! !== t) throw new RenderError(`the tokens of message ${k + 1} are not contiguous: tokens cannot be split by message`);
    count[k]!++;
    const c = content[k];
    const [a, b] = chars[t]!;
    if (c && ((b > c[0] && a < c[1]) || (a === b && a >= c[0] && a < c[1]))) {
      if (firstIn[k] === -1) firstIn[k] = t;
      countIn[k]!++;
    }
  });
  const messageSpans: Span[] = messages.map((_, k) => ({ start: first[k] === -1 ? ids.length : first[k]!, length: count[k]! }));
  const contentSpans: Span[] = messages.map((_, k) => ({ start: firstIn[k] === -1 ? messageSpans[k]!.start : firstIn[k]!, length: countIn[k]! }));
  const categories = messageOf.map((k, t): Category => (t < SINK_TOKENS ? 'sink' : CATEGORY_OF[messages[k]!.kind]));
  // Each token's text runs from its start to the next token's: joined, they are the rendered text.
  const starts = chars.map(([a], t) => (t === 0 ? 0 : a));
  const tokenTexts = starts.map((a, t) => text.slice(a, t + 1 < starts.length ? starts[t + 1] : text.length));
  return { text, ids, messages, messageOf, categories, contentSpans, messageSpans, notes: layout.notes, tokenTexts };
}

/** A placement failure said with the token, the message it falls in and the tokenizer file. */
function placementMessage(
  e: PlacementError,
  text: string,
  ids: number[],
  tokenBytes: Uint8Array[],
  owner: Int32Array,
  messages: ContextMessage[],
  file: string,
): string {
  const k = owner[Math.min(e.char, text.length - 1)] ?? -1;
  const m = messages[k];
  const where = m ? ` in message ${(m.source ?? k) + 1} (${m.role}${m.kind === 'template-system' ? ', added by the template' : ''})` : '';
  const token = e.token < ids.length ? ` ${JSON.stringify(new TextDecoder().decode(tokenBytes[e.token]))} (id ${ids[e.token]})` : '';
  const near = JSON.stringify(text.slice(Math.max(0, e.char - 12), e.char + 12));
  return `${e.message}${where}: ${file} encodes the text as tokens that do not spell it (token${token}, near ${near}), so tokens cannot be placed in the text`;
}

/**
 * Renders and tokenizes messages as the model's template accepts them (folding a rejected system role), for
 * costs and prompts. The messages as they are first, with the generation prompt asked for: what almost every
 * template accepts, in one render instead of a check and a render (the cost series makes two per turn).
 */
export function encodeChat(r: ChatRenderer, messages: { role: Role; content: string }[], addGenerationPrompt: boolean): number[] {
  const contents = messages.map((m) => r.normalize(m.content));
  const roles = messages.map((m) => m.role);
  let text: string;
  try {
    text = r.render(
      roles.map((role, k) => ({ role, content: contents[k]! })),
      addGenerationPrompt,
    );
  } catch {
    const { plan } = acceptedPlan(r, roles, contents);
    text = r.render(
      toMessages(plan, (k) => contents[k]!),
      addGenerationPrompt,
    );
  }
  return r.encode(text);
}

/** End-of-turn markers to try: the tokenizer's eos token and those of common templates. */
export function endMarkersFor(eosToken: string | null): string[] {
  return [
    ...new Set([
      ...(eosToken ? [eosToken] : []),
      '<|im_end|>',
      '<|eot_id|>',
      '<end_of_turn>',
      '<|end|>',
      '</s>',
      '<|endoftext|>',
      '<|end_of_text|>',
      '[/INST]',
    ]),
  ];
}

/** Start-of-turn markers of common templates. */
export const START_MARKERS = [
  '<|im_start|>',
  '<|start_header_id|>',
  '<start_of_turn>',
  '<|system|>',
  '<|user|>',
  '<|assistant|>',
  '<|start_of_role|>',
  '[INST]',
];

/** A ChatRenderer over the model's tokenizer (model/tokenizer/tokenizer.ts ChatTokenizer or anything shaped like it). */
export function asRenderer(tok: {
  render: ChatRenderer['render'];
  encode: ChatRenderer['encode'];
  tokenBytes: ChatRenderer['tokenBytes'];
  normalize: ChatRenderer['normalize'];
  eosToken: string | null;
  specialTokens?: readonly string[];
  tokenStrip?: ChatRenderer['tokenStrip'];
}): ChatRenderer {
  return {
    render: (m, g) => tok.render(m, g),
    encode: (t) => tok.encode(t),
    tokenBytes: (ids) => tok.tokenBytes(ids),
    normalize: (s) => tok.normalize(s),
    endMarkers: endMarkersFor(tok.eosToken),
    startMarkers: START_MARKERS,
    ...(tok.specialTokens && { controlTokens: tok.specialTokens }),
    ...(tok.tokenStrip && { tokenStrip: (id: number) => tok.tokenStrip!(id) }),
  };
}

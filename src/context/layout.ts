import type { Role } from '../conversation/types';

/** What layout needs from the model: its chat template, and the strings that end and start its turns. */
export interface TemplateRenderer {
  render(messages: { role: Role; content: string }[], addGenerationPrompt: boolean): string;
  /** End-of-turn strings of the template (e.g. "<|im_end|>", "<|eot_id|>"): a turn's frame ends after them. */
  endMarkers: string[];
  /** Start-of-turn strings (e.g. "<|im_start|>", "<|user|>"): where a turn with no end marker gives way to the next. */
  startMarkers: string[];
}

export class RenderError extends Error {
  override name = 'RenderError';
}

/** A message of the plan the template renders: its role and its text, made of conversation messages and literal joins. */
export interface PlanMessage {
  role: Role;
  parts: (number | string)[];
}

/** Where each message's text is in the rendered conversation, in characters. */
export interface Layout {
  text: string;
  /** Per message: [start, end) of all its text, template included, or null when the template dropped it. */
  spans: ([number, number] | null)[];
  /** Per message: [start, end) of its content. */
  content: ([number, number] | null)[];
  /** A system prompt the template writes of its own accord (Qwen2.5's "You are Qwen…", Llama 3's date header). */
  injected: { content: string; span: [number, number]; contentSpan: [number, number] } | null;
  /** What the template did to the conversation, said in the figures. */
  notes: string[];
}

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const mark = (k: number) => `${MARK_OPEN}${k}${MARK_CLOSE}`;

export function toMessages(plan: PlanMessage[], contentOf: (k: number) => string) {
  return plan.map((m) => ({ role: m.role, content: m.parts.map((p) => (typeof p === 'number' ? contentOf(p) : p)).join('') }));
}

/**
 * The plan that the model's own template accepts: the messages as they are; else, when the template
 * rejects a system message (Gemma's raises), the system prompt folded into the first user message
 * as Gemma's own template does; else consecutive messages of one role joined. Each fold is noted.
 */
export function acceptedPlan(r: TemplateRenderer, roles: Role[], contents: string[]): { plan: PlanMessage[]; notes: string[] } {
  const plain: PlanMessage[] = roles.map((role, k) => ({ role, parts: [k] }));
  const tries: { plan: PlanMessage[]; note: string | null }[] = [{ plan: plain, note: null }];
  const sys = roles[0] === 'system' && roles[1] === 'user';
  const folded = sys ? [{ role: 'user' as Role, parts: [0, '\n\n', 1] }, ...plain.slice(2)] : plain;
  if (sys)
    tries.push({
      plan: folded,
      note: 'this template has no system role: the system prompt was merged into the first user message, as Gemma’s own template does',
    });
  const joined: PlanMessage[] = [];
  for (const m of folded) {
    const last = joined[joined.length - 1];
    if (last && last.role === m.role) last.parts.push('\n\n', ...m.parts);
    else joined.push({ role: m.role, parts: [...m.parts] });
  }
  if (joined.length < folded.length)
    tries.push({
      plan: joined,
      note: `this template needs roles to alternate: consecutive messages of one role were joined${sys ? ', and the system prompt merged into the first user message' : ''}`,
    });
  let first: Error | null = null;
  for (const t of tries) {
    try {
      r.render(
        toMessages(t.plan, (k) => contents[k]!),
        false,
      );
      return { plan: t.plan, notes: t.note ? [t.note] : [] };
    } catch (e) {
      first ??= e as Error;
    }
  }
  throw first!;
}

/**
 * Where a turn's frame ends inside the text between two messages: after its first end-of-turn marker and
 * the newlines after it; in a template that writes none (SmolLM3's system turn, OLMo 2's user turn),
 * before the next turn's start marker; null when the gap has neither (one turn holds both messages).
 */
function frameEnd(gap: string, r: TemplateRenderer): number | null {
  const first = (markers: string[]) =>
    markers
      .map((m) => ({ m, i: gap.indexOf(m) }))
      .filter((x) => x.i >= 0)
      .sort((a, b) => a.i - b.i)[0];
  const end = first(r.endMarkers);
  if (end) {
    let b = end.i + end.m.length;
    while (gap[b] === '\n') b++;
    return b;
  }
  return first(r.startMarkers)?.i ?? null;
}

/**
 * Lays the conversation out as the template renders it, with two renders (and one probe), never one
 * per message: the real one, and one with each message's content replaced by a marker. The text
 * between markers is the template's own; each content is then found between those texts in the real
 * render (as given, or trimmed where the template trims). The template text between two contents
 * goes to the first message up to its first end-of-turn marker (and newlines), the rest to the next.
 */
export function layoutConversation(r: TemplateRenderer, roles: Role[], contents: string[], addGenerationPrompt = false): Layout {
  const { plan, notes } = acceptedPlan(r, roles, contents);
  const text = r.render(
    toMessages(plan, (k) => contents[k]!),
    addGenerationPrompt,
  );
  const marked = r.render(toMessages(plan, mark), addGenerationPrompt);
  const markers = markerOrder(marked, roles);
  const content = locateContents(text, markers, roles, contents, notes);
  orderNotes(roles, markers.order, notes);
  // Template text: the preamble to the first message shown (or a prompt of the template's own), each gap split at a frame's end, the tail to the last.
  const injected = roles[0] === 'system' ? null : injectedSystem(r, plan, markers.literal[0] ?? marked);
  const spans = messageSpans(r, text, markers.order, content, roles, plan.length, injected ? injected.span[1] : 0, notes);
  if (injected)
    notes.push(
      injected.content
        ? `the chat template adds a system prompt of its own (“${injected.content.slice(0, 60)}${injected.content.length > 60 ? '…' : ''}”): counted as system`
        : 'the chat template writes a system turn of its own (a date header): counted as system',
    );
  return { text, spans, content, injected, notes };
}

/** The markers in order of appearance in the marked render, with the template text before each, and the text after the last. */
function markerOrder(marked: string, roles: Role[]): { order: number[]; literal: string[]; tail: string } {
  const order: number[] = [];
  const literal: string[] = [];
  let at = 0;
  for (;;) {
    const open = marked.indexOf(MARK_OPEN, at);
    if (open < 0) break;
    const close = marked.indexOf(MARK_CLOSE, open);
    if (close < 0) throw new RenderError('the chat template cut a message in two: its tokens cannot be located');
    literal.push(marked.slice(at, open));
    const k = Number(marked.slice(open + 1, close));
    if (order.includes(k)) throw new RenderError(`the chat template writes message ${k + 1} (${roles[k]}) twice: its tokens cannot be located`);
    order.push(k);
    at = close + 1;
  }
  return { order, literal, tail: marked.slice(at) };
}

/** Each content between the template texts around it, in the real render (as given, trimmed, or as the template rewrote it). */
function locateContents(
  text: string,
  { order, literal, tail }: { order: number[]; literal: string[]; tail: string },
  roles: Role[],
  contents: string[],
  notes: string[],
): ([number, number] | null)[] {
  const content: ([number, number] | null)[] = roles.map(() => null);
  let pos = 0;
  let trimmed = false;
  for (let i = 0; i < order.length; i++) {
    const before = literal[i]!;
    const which = `message ${order[i]! + 1} (${roles[order[i]!]})`;
    if (!text.startsWith(before, pos))
      throw new RenderError(`the chat template writes different text around ${which} when its content changes: its tokens cannot be located`);
    pos += before.length;
    const last = i + 1 >= order.length;
    const next = last ? tail : literal[i + 1]!;
    const c = contents[order[i]!]!;
    const fits = (cand: string) => text.startsWith(cand, pos) && (last ? text.slice(pos + cand.length) === next : text.startsWith(next, pos + cand.length));
    const cand = [c, c.trim(), c.trimEnd(), c.trimStart()].find(fits);
    let len: number;
    if (cand !== undefined) {
      len = cand.length;
      trimmed ||= cand !== c;
    } else {
      // The template rewrote this content (Qwen3 drops earlier reasoning): what lies up to the next template text is it.
      const end = last ? text.length - next.length : text.indexOf(next, pos);
      if (end < pos || (last && !text.endsWith(next))) throw new RenderError(`the chat template changes the text of ${which}: its tokens cannot be located`);
      len = end - pos;
      notes.push(`the chat template rewrote ${which}; its rendered text is scored as that message`);
    }
    content[order[i]!] = [pos, pos + len];
    pos += len;
  }
  if (trimmed) notes.push('this template trims the whitespace around message text');
  return content;
}

/** What the template did to the messages' order: dropped or moved. */
function orderNotes(roles: Role[], order: number[], notes: string[]): void {
  const dropped = roles.map((_, k) => k).filter((k) => !order.includes(k));
  for (const k of dropped)
    notes.push(`this template drops the ${roles[k]} message${roles[k] === 'system' ? ': the model never sees the system prompt' : ` ${k + 1}`}`);
  if (order.some((k, i) => i > 0 && k < order[i - 1]!)) {
    // The one message whose removal leaves the rest in order is the one the template moved.
    const moved = order.find((_, i) => order.filter((__, j) => j !== i).every((k, j, rest) => j === 0 || k > rest[j - 1]!));
    notes.push(
      moved !== undefined
        ? `this template moves the ${roles[moved]} message${moved === 0 ? '' : ` ${moved + 1}`} (it renders it after later messages)`
        : 'this template renders messages out of their order',
    );
  }
}

/** Each message's span: from where the one before ended, through its content, to its frame's end in the gap before the next. */
function messageSpans(
  r: TemplateRenderer,
  text: string,
  order: number[],
  content: ([number, number] | null)[],
  roles: Role[],
  planned: number,
  from: number,
  notes: string[],
): ([number, number] | null)[] {
  const spans: ([number, number] | null)[] = roles.map(() => null);
  let start = from;
  order.forEach((k, i) => {
    const [, ce] = content[k]!;
    let end = text.length;
    if (i + 1 < order.length) {
      const nextStart = content[order[i + 1]!]![0];
      const cut = frameEnd(text.slice(ce, nextStart), r);
      const next = order[i + 1]!;
      if (cut === null && roles[k] === 'system' && roles[next] === 'user' && planned === roles.length) {
        const users = roles.map((x, j) => (x === 'user' ? j : -1)).filter((j) => j >= 0);
        const which = next === users[0] ? 'the first' : next === users[users.length - 1] ? 'the last' : 'a';
        notes.push(`this template has no system role: it writes the system prompt at the start of ${which} user message (still counted as system)`);
      }
      end = ce + (cut ?? 0);
    }
    spans[k] = [start, end];
    start = end;
  });
  return spans;
}

/**
 * The answer (the last message) in the context its model had when it wrote it: the messages before it
 * rendered with the generation prompt, then the answer's text. Null when the whole conversation's rendering
 * begins with that same prompt (almost every template): the whole rendering is then what the model saw,
 * and what it holds between the prompt and the answer (Qwen3's empty think block) is the answer's own frame.
 * Some templates render the turns before the last differently once an answer follows: Mistral-Nemo's writes
 * the system prompt into the last [INST] only when that user message is the conversation's last message.
 */
export function generationTimeLayout(r: TemplateRenderer, roles: Role[], contents: string[], whole: string): Layout | null {
  if (roles.length < 2 || roles[roles.length - 1] !== 'assistant') return null;
  const before = layoutConversation(r, roles.slice(0, -1), contents.slice(0, -1), true);
  if (whole.startsWith(before.text)) return null;
  const answer = contents[contents.length - 1]!;
  // The last message before the answer keeps its frame up to its end marker; the generation prompt after it is the answer's.
  const lastShown = before.spans.reduce<number>((best, s, k) => (s && (best < 0 || s[1] > before.spans[best]![1]) ? k : best), -1);
  const contentEnd = before.content[lastShown]![1];
  const cut = contentEnd + (frameEnd(before.text.slice(contentEnd), r) ?? 0);
  const spans = [...before.spans];
  spans[lastShown] = [spans[lastShown]![0], cut];
  return {
    text: before.text + answer,
    spans: [...spans, [cut, before.text.length + answer.length]],
    content: [...before.content, [before.text.length, before.text.length + answer.length]],
    injected: before.injected,
    notes: [
      ...before.notes,
      'this template renders the conversation differently once the answer follows it (as Mistral-Nemo moves its system prompt): the answer is scored as its model saw it when writing it, the conversation before it rendered with the generation prompt, then the answer',
    ],
  };
}

/**
 * A system turn the template writes when the conversation has none (Qwen2.5's default prompt, Llama 3's
 * date header): the preamble without a system message is the preamble with one, around a text of the
 * template's own. Found by rendering once more with a marked system message.
 */
function injectedSystem(r: TemplateRenderer, plan: PlanMessage[], preamble: string): Layout['injected'] {
  let probe: string;
  try {
    probe = r.render(toMessages([{ role: 'system', parts: [-1] }, ...plan], mark), false);
  } catch {
    return null; // the template rejects a system message: it cannot add one of its own either
  }
  const sys = mark(-1);
  const at = probe.indexOf(sys);
  const after = probe.indexOf(MARK_OPEN, at + sys.length);
  if (at < 0 || after < 0) return null;
  const head = probe.slice(0, at);
  const frame = probe.slice(at + sys.length, after);
  if (!preamble.startsWith(head) || !preamble.endsWith(frame) || preamble.length < head.length + frame.length) return null;
  const cut = frameEnd(frame, r);
  if (cut === null) return null;
  const contentEnd = preamble.length - frame.length;
  return { content: preamble.slice(head.length, contentEnd), span: [0, contentEnd + cut], contentSpan: [head.length, contentEnd] };
}

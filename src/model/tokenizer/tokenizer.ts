import { Template } from '@huggingface/jinja';
import { Tokenizer } from '@huggingface/tokenizers';
import { ModelError } from '../errors';
import { guarded } from './guard';
import { KeptByText } from '../../util/kept-by-text';
import { commonPrefix } from '../../util/common-prefix';
import { FALLBACK_TEMPLATES, type FallbackTemplate } from './chatml';
import { chunkerFor, type AddedTokenEntry, type ChunkText } from './encode-chunks';
import { parseJsonFile, readRequired, readWhole, type ModelSource } from '../source/source';
import { DEFAULT_TEMPLATE_DATE, strftimeAt } from './template-date';
import { tokenBytesFor, type TokenBytesOf } from './token-bytes';

export type Role = 'system' | 'user' | 'assistant';
export interface ChatMessage {
  role: Role;
  content: string;
}

const CONFIG = 'tokenizer_config.json';
const DATE_FUNCTION = 'inertia_lens_strftime_now';
const RANGE_FUNCTION = 'inertia_lens_range';
/** Items every range() of one render may make together: loops over a conversation need thousands, not billions. */
export const TEMPLATE_RANGE_ITEMS = 1_000_000;

/** bos/eos in tokenizer_config.json are strings or AddedToken objects `{content}`. */
function tokenText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string') return (v as { content: string }).content;
  return null;
}

/**
 * The model's tokenizer and chat template (tokenizer.json + tokenizer_config.json, the template from
 * its `chat_template` or from chat_template.jinja), built on @huggingface/tokenizers and @huggingface/jinja.
 */
/** What a chat template may add beyond 4× the conversation's text: role markers, a dated system prompt, tool instructions. */
export const TEMPLATE_OVERHEAD_CHARS = 200_000;

/**
 * Texts encoded and conversations rendered lately, up to this many characters each: the analysis, the
 * cost series and the sweep over turns render and encode the same turns (a turn's context is the next
 * turn's prompt; a layout's first render is the plan check's), so each is done once.
 */
const KEPT_CHARS = 2_000_000;

export class ChatTokenizer {
  private readonly encoded = new KeptByText<number[]>(KEPT_CHARS);
  private readonly rendered = new KeptByText<string>(2 * KEPT_CHARS, (text) => text.length);
  private readonly pieceIds = new KeptByText<number[]>(KEPT_CHARS);
  /** Cut texts still to check against a whole encoding. */
  private chunkChecks = 4;
  /** The date `strftime_now` gives the template (template-date.ts): fixed, so figures are reproducible. */
  templateDate = DEFAULT_TEMPLATE_DATE;

  private constructor(
    private readonly tokenizer: Tokenizer,
    private readonly template: Template,
    readonly bosToken: string | null,
    readonly eosToken: string | null,
    private readonly bytesOf: TokenBytesOf,
    /** The Unicode normalization the tokenizer applies first (Qwen: NFC), applied to pasted text before rendering. */
    readonly normalization: 'NFC' | 'NFKC' | null,
    /** Whether the template asks for today's date. */
    readonly usesDate: boolean,
    /** Where the template came from, for messages: tokenizer_config.json's chat_template or chat_template.jinja. */
    readonly templateFile: { file: string; field?: string },
    /** One more than the largest id the tokenizer can produce, added tokens included. */
    readonly vocabSize: number,
    /** The same for its vocabulary alone (without added tokens): every id of ordinary text is below it. */
    readonly modelVocabSize: number,
    /** tokenizer.json's special added tokens ("<|im_end|>", "<start_of_turn>"), as text. */
    readonly specialTokens: readonly string[],
    /** How texts are cut to be encoded a turn at a time (encode-chunks.ts); null: whole. */
    private chunks: ChunkText | null,
    /** Added tokens with lstrip / rstrip, by id: they take the whitespace beside them. */
    private readonly strips: ReadonlyMap<number, { lstrip: boolean; rstrip: boolean }> = new Map(),
  ) {}

  /** Whether an added token takes the whitespace beside it (tokenizer.json's lstrip / rstrip). */
  tokenStrip(id: number): { lstrip: boolean; rstrip: boolean } | undefined {
    return this.strips.get(id);
  }

  /** The named template used because the model has none of its own (a base model), or null. */
  fallbackTemplate: FallbackTemplate | null = null;

  static fromJson(tokenizerJson: Record<string, unknown>, config: Record<string, unknown>, templateText?: string, fallback?: FallbackTemplate): ChatTokenizer {
    let tokenizer: Tokenizer;
    try {
      tokenizer = guarded('tokenizer-load', 'tokenizer.json', () => new Tokenizer(tokenizerJson, config));
    } catch (e) {
      throw new ModelError('tokenizer.json', `cannot be loaded: ${(e as Error).message}`);
    }
    let text = templateText;
    let field = 'chat_template';
    if (text === undefined) {
      const raw = config.chat_template;
      if (typeof raw === 'string') text = raw;
      else if (Array.isArray(raw)) {
        // Named templates: [{name, template}], "default" is the chat one.
        const named = raw.find((t) => t?.name === 'default') ?? raw[0];
        text = typeof named?.template === 'string' ? named.template : undefined;
        field = 'chat_template[default]';
      }
    }
    let usedFallback: FallbackTemplate | null = null;
    if (!text && fallback) {
      text = FALLBACK_TEMPLATES[fallback];
      usedFallback = fallback;
    }
    if (!text) {
      throw new ModelError(
        CONFIG,
        'has no chat template, and there is no chat_template.jinja: the conversation cannot be rendered as this model expects (a base model has none). To go on, render it with a named fallback template, marked on every figure: ChatML or plain "User: …" turns (command line: --template chatml or --template plain); or load the model\'s instruction-tuned sibling',
        'chat_template',
      );
    }
    let template: Template;
    try {
      // strftime_now is a global of the Jinja runtime that render() cannot override: the template calls ours by another name.
      // range too: ours counts what it makes, so `range(1000000000)` is refused instead of running for minutes.
      const source = text.replace(/\bstrftime_now\b/g, DATE_FUNCTION).replace(/\brange(?=\s*\()/g, RANGE_FUNCTION);
      template = guarded('template', templateText !== undefined ? 'chat_template.jinja' : CONFIG, () => new Template(source));
    } catch (e) {
      // A TypeError is the Jinja parser tripping over malformed input (a tag cut short): its own words mean nothing here.
      const why = e instanceof TypeError ? 'a tag or expression is cut short or malformed' : (e as Error).message;
      throw new ModelError(
        templateText !== undefined ? 'chat_template.jinja' : CONFIG,
        `the chat template does not parse: ${why}`,
        templateText !== undefined ? undefined : field,
      );
    }
    const { bytesOf, normalization, vocabSize, modelVocabSize } = tokenBytesFor(tokenizerJson);
    const templateFile = templateText !== undefined ? { file: 'chat_template.jinja' } : { file: CONFIG, field };
    const added = Array.isArray(tokenizerJson.added_tokens) ? (tokenizerJson.added_tokens as AddedTokenEntry[]) : [];
    const specials = added.filter((t) => t?.special === true && typeof t.content === 'string').map((t) => t.content as string);
    const chunks = chunkerFor(added, tokenizerJson.normalizer != null);
    const strips = new Map(
      added
        .filter((t) => typeof t?.id === 'number' && (t.lstrip === true || t.rstrip === true))
        .map((t) => [t.id as number, { lstrip: t.lstrip === true, rstrip: t.rstrip === true }]),
    );
    const made = new ChatTokenizer(
      tokenizer,
      template,
      tokenText(config.bos_token),
      tokenText(config.eos_token),
      bytesOf,
      normalization,
      text.includes('strftime_now'),
      usedFallback ? { file: `the fallback ${usedFallback} template` } : templateFile,
      vocabSize,
      modelVocabSize,
      specials,
      chunks,
      strips,
    );
    made.fallbackTemplate = usedFallback;
    return made;
  }

  /** `fallback`: the named template to render with when the model has none of its own (never used otherwise). */
  static async load(source: ModelSource, fallback?: FallbackTemplate): Promise<ChatTokenizer> {
    const json = parseJsonFile('tokenizer.json', await readRequired(source, 'tokenizer.json'));
    const config = parseJsonFile(CONFIG, await readRequired(source, CONFIG));
    const jinja = config.chat_template ? null : await readWhole(source, 'chat_template.jinja');
    return ChatTokenizer.fromJson(json, config, jinja ? new TextDecoder().decode(jinja) : undefined, fallback);
  }

  /** Token ids of text, without adding special tokens (the chat template already wrote them). */
  encode(text: string): number[] {
    // A copy either way, so a caller that edits its ids edits its own.
    const kept = this.encoded.get(text);
    if (kept) return kept.slice();
    const pieces = this.chunks?.(text) ?? null;
    let ids = pieces ? pieces.flatMap((p) => this.encodePiece(p)) : this.encodeWhole(text);
    if (pieces && this.chunkChecks > 0) {
      // The cut's premise (encode-chunks.ts), checked on this tokenizer's first cut texts: one that differs ends the cutting.
      this.chunkChecks--;
      const whole = this.encodeWhole(text);
      if (whole.length !== ids.length || commonPrefix(whole, ids) !== whole.length) {
        this.chunks = null;
        ids = whole;
      }
    }
    this.encoded.set(text, ids);
    return ids.slice();
  }

  private encodeWhole(text: string): number[] {
    return guarded('tokenizer', 'tokenizer.json', () => this.tokenizer.encode(text, { add_special_tokens: false }).ids);
  }

  /** A piece's ids, kept apart from whole texts' (the same turn recurs in every later prefix). */
  private encodePiece(piece: string): number[] {
    const kept = this.pieceIds.get(piece);
    if (kept) return kept;
    const ids = this.encodeWhole(piece);
    this.pieceIds.set(piece, ids);
    return ids;
  }

  decode(ids: number[], skipSpecial = false): string {
    return this.tokenizer.decode(ids, { skip_special_tokens: skipSpecial });
  }

  /** Each token decoded alone, kept: every analysis shows every token's text (a decode costs tens of µs). */
  private readonly pieceKept = new Map<number, string>();
  private piece(id: number): string {
    let p = this.pieceKept.get(id);
    if (p === undefined) this.pieceKept.set(id, (p = this.decode([id])));
    return p;
  }

  /**
   * The text of each token, such that joined they give the decoded text. A character split over
   * several byte-level tokens (‘, emoji) is given to the token that completes it, and the tokens
   * before it get '' instead of a lone U+FFFD.
   */
  pieces(ids: number[]): string[] {
    const out = ids.map((id) => this.piece(id));
    for (let i = 0; i < ids.length; i++) {
      if (!out[i]!.includes('\uFFFD')) continue;
      for (let j = i + 1; j < Math.min(ids.length, i + 4); j++) {
        const joined = this.decode(ids.slice(i, j + 1));
        if (joined.includes('\uFFFD')) continue;
        for (let k = i; k < j; k++) out[k] = '';
        out[j] = joined;
        i = j;
        break;
      }
    }
    return out;
  }

  /** The bytes of text each token stands for (token-bytes.ts). */
  tokenBytes(ids: number[]): Uint8Array[] {
    return ids.map((id) => this.bytesOf(id, this.tokenizer.id_to_token(id)));
  }

  /** Text as the tokenizer's normalizer will see it (NFC for Qwen), so rendered text and tokens align. */
  normalize(text: string): string {
    return this.normalization ? text.normalize(this.normalization) : text;
  }

  /** The vocabulary string of one id (e.g. "Ġhello"), or `<id>` when the id has none. */
  tokenString(id: number): string {
    return this.tokenizer.id_to_token(id) ?? `<${id}>`;
  }

  idOf(token: string): number | undefined {
    return this.tokenizer.token_to_id(token);
  }

  /** Renders messages through the model's own chat template. */
  render(messages: ChatMessage[], addGenerationPrompt = false): string {
    // The template is a function of these alone (its date is ours, fixed): the same inputs, the same text.
    const key = JSON.stringify([addGenerationPrompt, this.templateDate, messages.map((m) => [m.role, m.content])]);
    const kept = this.rendered.get(key);
    if (kept !== undefined) return kept;
    const out = this.renderNow(messages, addGenerationPrompt);
    this.rendered.set(key, out);
    return out;
  }

  private renderNow(messages: ChatMessage[], addGenerationPrompt: boolean): string {
    let out: string;
    let made = 0;
    const range = (...args: unknown[]): number[] => {
      const [start, stop, step] = args.length === 1 ? [0, Number(args[0]), 1] : [Number(args[0]), Number(args[1]), args.length > 2 ? Number(args[2]) : 1];
      if (![start, stop, step].every(Number.isInteger) || step === 0)
        throw new Error(`range(${args.map(String).join(', ')}) needs whole numbers and a step other than 0`);
      const n = Math.max(0, Math.ceil((stop - start) / step));
      made += n;
      if (made > TEMPLATE_RANGE_ITEMS)
        throw new Error(
          `range(${args.map(String).join(', ')}) would make ${n.toLocaleString('en-US')} items; one render may make at most ${TEMPLATE_RANGE_ITEMS.toLocaleString('en-US')}`,
        );
      return Array.from({ length: n }, (_, i) => start + i * step);
    };
    try {
      out = guarded('template', this.templateFile.file, () =>
        this.template.render({
          messages: messages.map(({ role, content }) => ({ role, content })), // what the key covers, nothing else
          add_generation_prompt: addGenerationPrompt,
          bos_token: this.bosToken ?? '',
          eos_token: this.eosToken ?? '',
          [DATE_FUNCTION]: (format: unknown) => strftimeAt(this.templateDate, String(format)),
          [RANGE_FUNCTION]: range,
        }),
      );
    } catch (e) {
      throw new ModelError(this.templateFile.file, `the chat template failed on this conversation: ${(e as Error).message}`, this.templateFile.field);
    }
    // A template adds role markers and a system prompt, never a book: far more text than it was given is a template gone wrong.
    const given = messages.reduce((n, m) => n + m.content.length, 0);
    const most = 4 * given + TEMPLATE_OVERHEAD_CHARS;
    if (out.length > most)
      throw new ModelError(
        this.templateFile.file,
        `the chat template wrote ${out.length.toLocaleString('en-US')} characters for ${given.toLocaleString('en-US')} characters of conversation (at most ${most.toLocaleString('en-US')} are accepted)`,
        this.templateFile.field,
      );
    return out;
  }
}

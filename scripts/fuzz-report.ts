/**
 * `npx tsx scripts/fuzz-report.ts [src-folder]`: the fuzz cases of tests/helpers/fuzz.ts run against the
 * input readers of a source tree (this one by default; another checkout's `src` to measure a before),
 * counted per category as the hostile-input table reports them:
 *   crash           an error that is not the reader's own refusal (TypeError, RangeError, stack overflow)
 *                   (a refusal in an engine's words, "undefined is not…", counts as unnamed)
 *   slow            a case that took more than 2 s (a hang, bounded)
 *   wrong-accepted  accepted, but breaking what the code downstream relies on
 *   unnamed         refused without the file, line or field, or with an engine's internal message
 * Only the readers' public functions are used, so an older tree runs as it is.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  brokenInvariant,
  configCase,
  CONVERSATION_SEEDS,
  CRAFTED_CONVERSATIONS,
  ENGINE_WORDS,
  linkCase,
  mutate,
  rng,
  safetensorsCase,
  tokenizerCase,
  unsafeLinkModel,
} from '../tests/helpers/fuzz';

const src = resolve(process.argv[2] ?? 'src');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(src, path)).href)) as T;

type Conv = {
  parseConversation(t: string): {
    conversation: { messages: { role: string; content: unknown }[] } | null;
    issues: { severity: string; text: string; line?: number; message?: number }[];
  };
};
const { parseConversation } = await load<Conv>('conversation/parse.ts');
const { normalizeConfig } = await load<{ normalizeConfig(c: Record<string, unknown>): Parameters<typeof brokenInvariant>[0] }>('model/config/config.ts');
const { ModelError } = await load<{ ModelError: new (...a: never[]) => Error & { file: string; field?: string } }>('model/errors.ts');
const { readSafetensorsHeader } = await load<{
  readSafetensorsHeader(f: string, s: { size: number; read(a: number, b: number): Promise<Uint8Array> }): Promise<Map<string, { end: number }>>;
}>('model/checkpoint/safetensors.ts');
const { ChatTokenizer } = await load<{
  ChatTokenizer: {
    fromJson(
      j: Record<string, unknown>,
      c: Record<string, unknown>,
    ): { render(m: { role: string; content: string }[], g: boolean): string; encode(t: string): number[] };
  };
}>('model/tokenizer/tokenizer.ts');
const { decodeView } = await load<{ decodeView(s: string, h?: string): { view: { model: string; revision: string; hub: string | null } } }>(
  'state/url-state.ts',
);
const { linkOffer } = await load<{ linkOffer(r: { model: string; revision: string; hub: string | null }): { problem: string | null } }>('state/hub-access.ts');

interface Tally {
  tried: number;
  crash: number;
  slow: number;
  wrongAccepted: number;
  unnamed: number;
}
const rows = new Map<string, Tally>();
const internal = ENGINE_WORDS;

async function count(category: string, n: number, one: (k: number) => Promise<'ok' | 'wrong' | 'unnamed'> | 'ok' | 'wrong' | 'unnamed') {
  const t: Tally = rows.get(category) ?? { tried: 0, crash: 0, slow: 0, wrongAccepted: 0, unnamed: 0 };
  for (let k = 0; k < n; k++) {
    const t0 = Date.now();
    try {
      const out = await one(k);
      if (out === 'wrong') t.wrongAccepted++;
      if (out === 'unnamed') t.unnamed++;
    } catch (e) {
      // The reader's own refusal is fine, unless its words are an engine's (then it names nothing).
      if (!(e instanceof ModelError)) t.crash++;
      else if (internal.test((e as Error).message)) t.unnamed++;
    }
    if (Date.now() - t0 > 2000) t.slow++;
    t.tried++;
  }
  rows.set(category, t);
}

const conversationOutcome = (text: string) => {
  const out = parseConversation(text);
  if (out.issues.some((i) => internal.test(i.text) || (i.text.startsWith('invalid JSON') && i.line === undefined) || i.text.length > 400))
    return 'unnamed' as const;
  if (out.conversation) {
    const ok =
      out.conversation.messages.every((m) => ['system', 'user', 'assistant'].includes(m.role) && typeof m.content === 'string') &&
      out.conversation.messages.some((m) => m.role === 'assistant');
    return ok ? ('ok' as const) : ('wrong' as const);
  }
  return 'ok' as const;
};

{
  const r = rng(1);
  await count('conversations, mutated', 3000, () => conversationOutcome(mutate(r.pick(CONVERSATION_SEEDS), r)));
  // A crafted hostile conversation must be refused: accepted is wrong.
  await count('conversations, crafted', CRAFTED_CONVERSATIONS.length, (k) => {
    const out = parseConversation(CRAFTED_CONVERSATIONS[k]![1]);
    if (out.conversation) return 'wrong';
    return out.issues.some((i) => internal.test(i.text) || i.text.length > 400) ? 'unnamed' : 'ok';
  });
}
{
  const r = rng(4);
  await count('links', 2000, () => {
    const { search, hash } = linkCase(r);
    const { view } = decodeView(search, hash);
    const offer = linkOffer(view);
    if (offer.problem !== null && internal.test(offer.problem)) return 'unnamed';
    return offer.problem === null && view.model !== 'demo' && unsafeLinkModel(view) ? 'wrong' : 'ok';
  });
}
{
  const r = rng(5);
  await count('configs', 2000, () => {
    return brokenInvariant(normalizeConfig(configCase(r))) ? 'wrong' : 'ok';
  });
}
{
  const r = rng(6);
  await count('safetensors headers', 1000, async () => {
    const bytes = safetensorsCase(r);
    const tensors = await readSafetensorsHeader('model.safetensors', { size: bytes.byteLength, read: async (a, b) => bytes.slice(a, b) });
    return [...tensors.values()].every((t) => t.end <= bytes.byteLength) ? 'ok' : 'wrong';
  });
}
{
  const r = rng(7);
  await count('tokenizer files', 300, () => {
    const files = tokenizerCase(r);
    if (!files) return 'ok';
    const tok = ChatTokenizer.fromJson(files.json, files.config);
    tok.encode(
      tok.render(
        [
          { role: 'user', content: 'hello' },
          { role: 'assistant', content: 'hi' },
        ],
        false,
      ),
    );
    return 'ok';
  });
}

console.log(`fuzz report for ${src}\n`);
console.log('| category | tried | crashes | slow (> 2 s) | wrong but accepted | unnamed |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [c, t] of rows) console.log(`| ${c} | ${t.tried.toLocaleString('en-US')} | ${t.crash} | ${t.slow} | ${t.wrongAccepted} | ${t.unnamed} |`);

/**
 * Prepares the demo model's training: generates the conversations, trains the tokenizer, writes the
 * tokenizer files into models/inertia-demo/, the token ids for train.py, and the example conversations.
 *   npx tsx training/prepare.ts            (then: /usr/bin/python3 training/train.py)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHATML_TEMPLATE } from '../src/model/tokenizer/chatml';
import { ChatTokenizer } from '../src/model/tokenizer/tokenizer';
import type { Message } from '../src/conversation/types';
import { arithmeticProblem, chatSession, conversation, mazeEpisode, rng } from './data';
import { tokenizerJson, trainBpe } from './bpe';

export const MODEL_DIR = 'models/inertia-demo';
const OUT = 'training/out';
export const TRAIN_SEED = 1;
const CONVERSATIONS = Number(process.env.CONVERSATIONS ?? 12000);
const VOCAB = 1024;
const SPECIALS = ['<|im_start|>', '<|im_end|>', '<|endoftext|>'];

const tokenizerConfig = {
  tokenizer_class: 'PreTrainedTokenizerFast',
  bos_token: null,
  eos_token: '<|im_end|>',
  pad_token: '<|endoftext|>',
  model_max_length: 2048,
  chat_template: CHATML_TEMPLATE,
};

function main() {
  const r = rng(TRAIN_SEED);
  const convs: Message[][] = Array.from({ length: CONVERSATIONS }, () => conversation(r));
  const contents = convs.flatMap((c) => c.map((m) => `${m.role}\n${m.content}`));
  const bpe = trainBpe(contents, VOCAB - SPECIALS.length);
  mkdirSync(MODEL_DIR, { recursive: true });
  const tj = tokenizerJson(bpe, SPECIALS);
  writeFileSync(join(MODEL_DIR, 'tokenizer.json'), JSON.stringify(tj));
  writeFileSync(join(MODEL_DIR, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2));
  const tok = ChatTokenizer.fromJson(tj, tokenizerConfig);
  const vocabSize = Object.keys(bpe.vocab).length + SPECIALS.length;

  // Token ids of every rendered conversation: uint32 count, then per conversation uint32 length + uint16 ids.
  const docs = convs.map((c) => tok.encode(tok.render(c)));
  const total = docs.reduce((n, d) => n + d.length, 0);
  const buf = Buffer.alloc(4 + docs.length * 4 + total * 2);
  let at = buf.writeUInt32LE(docs.length, 0);
  for (const d of docs) {
    at = buf.writeUInt32LE(d.length, at);
    for (const id of d) at = buf.writeUInt16LE(id, at);
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'tokens.bin'), buf);
  const fixtureIds = tok.encode(tok.render(mazeEpisode(rng(424242), 6)));
  writeFileSync(
    join(OUT, 'meta.json'),
    JSON.stringify({ vocab_size: vocabSize, eos_id: tok.idOf('<|im_end|>'), pad_id: tok.idOf('<|endoftext|>'), fixture_ids: fixtureIds }),
  );
  const lengths = docs.map((d) => d.length).sort((a, b) => a - b);
  console.log(`${docs.length} conversations, ${total} tokens (median ${lengths[lengths.length >> 1]}, max ${lengths[lengths.length - 1]}), vocab ${vocabSize}`);
  writeExamples();
}

/** The example conversations (held-out seeds): app start screen, tests, tour. */
function writeExamples() {
  mkdirSync('examples', { recursive: true });
  const find = (make: (r: () => number) => Message[], ok: (c: Message[]) => boolean, seed: number) => {
    for (let s = seed; ; s++) {
      const c = make(rng(s));
      if (ok(c)) return c;
    }
  };
  const turns = (c: Message[]) => c.filter((m) => m.role === 'assistant').length;
  const maze = find(
    (r) => mazeEpisode(r, 14),
    (c) => turns(c) >= 12 && c.some((m) => m.content.includes('You hit a wall')),
    900001,
  );
  const math = find(arithmeticProblem, (c) => turns(c) >= 6, 900101);
  const chat = find(chatSession, (c) => turns(c) >= 7 && c.some((m) => m.content.startsWith('New question')), 900201);
  // The maze with its last answer reordered (thought and move before the path): the lesson's copy at another offset.
  const last = maze[maze.length - 1]!;
  const [path, ...rest] = last.content.split('\n');
  const shifted = [...maze.slice(0, -1), { ...last, content: [...rest, path].join('\n') }];
  for (const [name, c] of [
    ['maze', maze],
    ['maze-shifted', shifted],
    ['arithmetic', math],
    ['mixed-chat', chat],
  ] as const) {
    writeFileSync(join('examples', `${name}.json`), `${JSON.stringify({ messages: c.map(({ role, content }) => ({ role, content })) }, null, 2)}\n`);
  }
}

main();

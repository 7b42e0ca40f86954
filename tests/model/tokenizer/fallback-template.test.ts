import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePolicy } from '../../../src/analysis/analyze';
import { parseConversation } from '../../../src/conversation/parse';
import { openModel } from '../../../src/runtime/open-model';
import { memorySource } from '../../helpers/memory-source';
import { tinyModelFiles, writeTinyModel } from '../../helpers/tiny-model';
import { tinyTokenizerConfig } from '../../helpers/tiny-tokenizer';

/** A base model: the same tiny checkpoint, its tokenizer_config.json without a chat template. */
function baseModelFiles(): Map<string, Uint8Array> {
  const files = tinyModelFiles({ family: 'llama', seed: 3 });
  files.set('tokenizer_config.json', new TextEncoder().encode(JSON.stringify(tinyTokenizerConfig(false))));
  return files;
}
const conv = parseConversation(
  JSON.stringify([
    { role: 'system', content: 'Keep a list.' },
    { role: 'user', content: 'Start with ant.' },
    { role: 'assistant', content: 'ant' },
    { role: 'user', content: 'Add bee.' },
    { role: 'assistant', content: 'ant, bee' },
  ]),
).conversation!;

describe('a model with no chat template', () => {
  it('is refused with the next step named', async () => {
    await expect(openModel(memorySource(baseModelFiles()))).rejects.toThrow(
      /tokenizer_config\.json \(chat_template\): has no chat template.*ChatML.*--template chatml or --template plain/,
    );
  });

  for (const template of ['chatml', 'plain'] as const) {
    it(`renders with the named ${template} fallback, marked on every figure`, async () => {
      const model = await openModel(memorySource(baseModelFiles()), { template });
      expect(model.tokenizer.fallbackTemplate).toBe(template);
      const r = await analyzePolicy(model, conv, 'full');
      expect(r.notes[0]).toContain(`rendered with the fallback ${template === 'chatml' ? 'ChatML' : 'plain'}`);
      // The answer's content tokens are its text; the earlier answer is the prior category.
      expect(
        r.tokens
          .slice(r.query.start, r.query.end)
          .map((t) => t.text)
          .join('')
          .trim(),
      ).toBe('ant, bee');
      expect(
        r.tokens
          .filter((t) => t.category === 'prior')
          .map((t) => t.text)
          .join(''),
      ).toContain('ant');
      expect(r.tokens.map((t) => t.text).join('')).toContain(template === 'plain' ? 'User: Add bee.' : '<|im_start|>user\nAdd bee.');
      await model.session.release();
    });
  }

  it('a model with a template of its own ignores --template', async () => {
    const model = await openModel(memorySource(tinyModelFiles({ family: 'llama', seed: 3 })), { template: 'plain' });
    expect(model.tokenizer.fallbackTemplate).toBeNull();
    await model.session.release();
  });

  it('the CLI takes --template and names it in the JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'base-model-'));
    writeTinyModel(dir, { family: 'llama', seed: 3 });
    writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify(tinyTokenizerConfig(false)));
    const file = join(dir, 'chat.json');
    writeFileSync(file, JSON.stringify(conv.messages));
    const out = JSON.parse(
      execFileSync('node', ['bin/inertia-lens.mjs', 'analyze', file, '--model', dir, '--template', 'plain', '--json'], { encoding: 'utf8' }),
    );
    expect(out.template).toBe('plain');
    expect(out.results[0].notes[0]).toContain('fallback plain');
    let err = '';
    try {
      execFileSync('node', ['bin/inertia-lens.mjs', 'analyze', file, '--model', dir], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      err = String((e as { stderr: string }).stderr);
    }
    expect(err).toContain('--template chatml');
  });
});

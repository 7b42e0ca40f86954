/**
 * The fuzz cases, shared by tests/conversation/fuzz.test.ts (which asserts on them) and scripts/fuzz-report.ts
 * (which counts outcomes, on this tree or another): seeded, so every run tries the same inputs.
 */
import { readFileSync } from 'node:fs';
import { writeSafetensors } from '../../src/model/checkpoint/safetensors';
import { MAZE_TEXT } from './maze';
import { tinyConfig } from './tiny-model';
import { tinyTokenizerConfig, tinyTokenizerJson } from './tiny-tokenizer';

/** mulberry32: the same cases on every run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}
export type Rng = ReturnType<typeof rng>;

const NASTY = [
  '',
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ',',
  ':',
  '\u0000',
  '\u2028',
  '\uFEFF',
  '\uD800',
  'null',
  '-1',
  '1e999',
  '__proto__',
  'constructor',
  '<|im_end|>',
  '\n',
  'Assistant:',
  'User: ',
];

export function mutate(text: string, r: Rng): string {
  let s = text;
  for (let k = 1 + r.int(4); k > 0; k--) {
    const at = r.int(s.length + 1);
    const op = r.int(3);
    if (op === 0) s = s.slice(0, at) + r.pick(NASTY) + s.slice(at);
    else if (op === 1) s = s.slice(0, at) + s.slice(at + 1 + r.int(8));
    else s = s.slice(0, at) + String.fromCharCode(r.int(0x3000)) + s.slice(at + 1);
  }
  return s;
}

export const CONVERSATION_SEEDS = [
  MAZE_TEXT,
  readFileSync('examples/maze.json', 'utf8'),
  JSON.stringify({
    conversations: [
      { from: 'human', value: 'q' },
      { from: 'gpt', value: 'a', summary: 's' },
    ],
  }),
  JSON.stringify({
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ],
  }),
];

/** The hostile conversations a careless or hostile person pastes: each should be refused, by name. */
export const CRAFTED_CONVERSATIONS: [string, string][] = [
  ['role nested 5,000 deep', `[{"role": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}, "content": "x"}, {"role": "assistant", "content": "y"}]`],
  ['content nested 100,000 deep', `[{"role": "user", "content": ${'['.repeat(100_000)}${']'.repeat(100_000)}}, {"role": "assistant", "content": "y"}]`],
  [
    'ShareGPT from "constructor"',
    JSON.stringify({
      conversations: [
        { from: 'human', value: 'q' },
        { from: 'constructor', value: 'a' },
      ],
    }),
  ],
  ['ShareGPT from "__proto__"', '{"conversations": [{"from": "human", "value": "q"}, {"from": "__proto__", "value": "a"}]}'],
  ['ShareGPT from ["gpt"]', '{"conversations": [{"from": "human", "value": "q"}, {"from": ["gpt"], "value": "a"}]}'],
  ['inherited content', '[{"role": "user", "content": "q"}, {"role": "assistant", "__proto__": {"content": "a"}}]'],
  [
    '3 MB role',
    JSON.stringify([
      { role: 'x'.repeat(3_000_000), content: 'q' },
      { role: 'assistant', content: 'a' },
    ]),
  ],
];

export const LINK_PARTS = [
  'model=a/b',
  'model=../../x',
  'model=a/b?c',
  'rev=main/../../../admin%3Fq%3D',
  'rev=v1',
  'hub=http://192.168.1.1',
  'hub=javascript:alert(1)',
  'hub=https://u:p@h',
  'policy=clip:3:1',
  'policy=%%%',
  'turn=-1',
  'head=1e9',
  'r=inf',
  'layer=NaN',
  'backend=tpu',
  'example=nope',
  'conv=%%%',
  'conv=AAAA',
  'compare=1',
];

export function linkCase(r: Rng): { search: string; hash: string } {
  const q = Array.from({ length: 1 + r.int(5) }, () => (r.next() < 0.3 ? mutate(r.pick(LINK_PARTS), r) : r.pick(LINK_PARTS))).join('&');
  return { search: `?${q}`, hash: r.next() < 0.5 ? `#${mutate('conv=SGVsbG8', r)}` : '' };
}

export const CONFIG_BASE = tinyConfig({ family: 'qwen3', layers: 2 });
const VALUES: unknown[] = [-1, 0, 0.5, 7, 1e308, -1e-9, NaN, 'x', '', null, true, [], [1, 2], {}, { rope_type: 'yarn', factor: -2 }, 2 ** 53];

export function configCase(r: Rng): Record<string, unknown> {
  const cfg: Record<string, unknown> = structuredClone(CONFIG_BASE);
  const fields = Object.keys(CONFIG_BASE);
  for (let k = 1 + r.int(3); k > 0; k--) cfg[r.pick([...fields, 'head_dim', 'rope_parameters', 'sliding_window', 'partial_rotary_factor'])] = r.pick(VALUES);
  return cfg;
}

const SAFETENSORS = writeSafetensors([
  { name: 'w', dtype: 'F32', shape: [2, 3], bytes: new Uint8Array(24) },
  { name: 'b', dtype: 'F16', shape: [4], bytes: new Uint8Array(8) },
]);
const HEADER = new TextDecoder().decode(SAFETENSORS.subarray(8, 8 + Number(new DataView(SAFETENSORS.buffer).getBigUint64(0, true))));

/** A safetensors file whose header is mutated (or replaced by a hostile one), with 32 bytes of data. */
export function safetensorsCase(r: Rng): Uint8Array {
  const h = new TextEncoder().encode(
    r.next() < 0.1 ? r.pick(['null', '[]', '{"w": null}', '{"w": {"dtype": "F32", "shape": null}}', '"x"']) : mutate(HEADER, r),
  );
  const bytes = new Uint8Array(8 + h.byteLength + 32);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(r.next() < 0.05 ? r.int(1e9) : h.byteLength), true);
  bytes.set(h, 8);
  return bytes;
}

/** tokenizer.json and tokenizer_config.json as parsed JSON, one of them mutated; null when the mutation is not JSON. */
export function tokenizerCase(r: Rng): { json: Record<string, unknown>; config: Record<string, unknown> } | null {
  const which = r.int(2);
  const tj = JSON.stringify(tinyTokenizerJson());
  const tc = JSON.stringify(tinyTokenizerConfig());
  try {
    const json = JSON.parse(which === 0 ? mutate(tj, r) : tj);
    const config = JSON.parse(which === 1 ? mutate(tc, r) : tc);
    return typeof json === 'object' && json !== null && typeof config === 'object' && config !== null ? { json, config } : null;
  } catch {
    return null;
  }
}

/** An engine's own words in a message (a stack, a TypeError): such a message names nothing a person can act on. */
export const ENGINE_WORDS = /\n\s+at |TypeError|Cannot read prop|undefined is not|Maximum call stack/;

/** What makes a model a link offers (with no problem found) unsafe to fetch, or null. */
export function unsafeLinkModel(view: { model: string; revision: string; hub: string | null }): string | null {
  if (!/^[\w.-]+\/[\w.-]+$/.test(view.model) || view.model.split('/').includes('..')) return `model ${view.model}`;
  if (/\.\.|[?#%]/.test(view.revision)) return `revision ${view.revision}`;
  if (view.hub !== null && !/^https?:\/\//.test(view.hub)) return `hub ${view.hub}`;
  return null;
}

/** The invariant an accepted spec breaks (what the graph, the reference and the plan rely on), or null. */
export function brokenInvariant(s: {
  rmsNormEps: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  numLayers: number;
  layers: unknown[];
  ropes: { theta: number }[];
  attentionScale: number;
  embeddingScale: number;
  residualScale: number;
  logitScale: number;
}): string | null {
  if (!(s.rmsNormEps > 0)) return 'rmsNormEps > 0';
  if (s.numHeads % s.numKvHeads !== 0) return 'heads a multiple of key/value heads';
  if (s.headDim % 2 !== 0) return 'even head_dim';
  if (!s.ropes.every((r) => r.theta > 0)) return 'rope θ > 0';
  if (![s.attentionScale, s.embeddingScale, s.residualScale, s.logitScale].every((v) => Number.isFinite(v) && v > 0)) return 'finite positive scales';
  if (s.layers.length !== s.numLayers) return 'one entry per layer';
  return null;
}

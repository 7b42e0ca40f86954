import { USAGE } from './usage';
import { forward, inspectModel, open, type Common } from './model-commands';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_MODEL_PATH } from '../model/demo';
import { ModelError } from '../model/errors';
import { DEFAULT_TEMPLATE_DATE, parseTemplateDate } from '../model/tokenizer/template-date';
import { QUANTS, type Quant } from '../model/precision/quantize';
import { FALLBACK_TEMPLATES, type FallbackTemplate } from '../model/tokenizer/chatml';
import { BackendError, configureRuntime, MemoryLimitError } from '../runtime/ort-runtime';
import { NumericError } from '../metrics/finite';
import { HubError } from '../model/source/hub-source';
import { analyzeCommand, batchCommand, checkOut, InputError, parsePolicies } from './analysis-commands';
import { shardBatchCommand } from './batch-shard';
import { mergeCommand } from './merge';
import { reportCommand } from './report';
import { folderDigest } from './part-files';
import { parseShard } from './shard';
import { hubModel, parseHubModel } from './hub-cache';
import { policySpec } from '../context/policy';
import { startCliWatchdog } from './watchdog';
import { RenderError } from '../context/render';

const KNOWN = [ModelError, RangeError, InputError, RenderError, MemoryLimitError, NumericError, BackendError, HubError];
const ERRNO: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  ELOOP: 'a symbolic link loop',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on the disk',
};

/** Every failure as one line naming what went wrong: input errors as they are, file errors by path, a bug as a bug (no stack unless asked). */
export function cliMessage(e: unknown): string {
  if (KNOWN.some((K) => e instanceof K)) return (e as Error).message;
  const err = e as NodeJS.ErrnoException;
  if (err?.code && ERRNO[err.code]) return `cannot read ${err.path ?? 'a file'}: ${ERRNO[err.code]}`;
  if (process.env.INERTIA_LENS_DEBUG) return String(err?.stack ?? e);
  return `internal error: ${err?.message ?? String(e)} (a bug; INERTIA_LENS_DEBUG=1 prints where it happened)`;
}

function fail(message: string): never {
  process.stderr.write(`inertia-lens: ${message}\n`);
  process.exit(1);
}

/** Every option of every command (node:util parseArgs). */
const OPTIONS = {
  text: { type: 'string' },
  chat: { type: 'boolean', default: false },
  top: { type: 'string', default: '5' },
  layer: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  dtype: { type: 'string', default: 'auto' },
  model: { type: 'string', multiple: true },
  policy: { type: 'string', multiple: true },
  turn: { type: 'string' },
  radius: { type: 'string' },
  sweep: { type: 'boolean', default: false },
  'dump-attention': { type: 'boolean', default: false },
  'all-layers': { type: 'boolean', default: false },
  ablate: { type: 'string', multiple: true },
  'ablate-top': { type: 'string' },
  generate: { type: 'boolean', default: false },
  'ablate-mean': { type: 'boolean', default: false },
  out: { type: 'string' },
  date: { type: 'string', default: DEFAULT_TEMPLATE_DATE },
  backend: { type: 'string', default: 'wasm' },
  device: { type: 'string', default: 'cpu' },
  quant: { type: 'string', default: 'none' },
  template: { type: 'string' },
  shard: { type: 'string' },
  threads: { type: 'string' },
  by: { type: 'string' },
  'group-field': { type: 'string' },
  input: { type: 'string' },
  shards: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseCli>['values'];

function parseCli(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`);
  }
}

/** --ablate L.H: a layer and a head, 0-based. */
function parseHead(v: string): [number, number] {
  const m = /^(\d+)\.(\d+)$/.exec(v.trim());
  if (!m) fail(`--ablate takes LAYER.HEAD (0-based, e.g. 1.3), got "${v}"`);
  return [Number(m[1]), Number(m[2])];
}

/** A whole number option, at least `min`. */
function whole(name: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) fail(`${name} takes a whole number ≥ ${min}, got "${v}"`);
  return n;
}

/** The options every model-opening command shares, checked. */
function commonOptions(values: Values): Common {
  const layers = values.layer?.map((l) => {
    const n = Number(l);
    if (!Number.isInteger(n)) fail(`--layer takes a whole number, got "${l}"`);
    return n;
  });
  const dtype = values.dtype;
  if (dtype !== 'auto' && dtype !== 'fp32' && dtype !== 'fp16') fail(`--dtype takes auto, fp32 or fp16, got "${dtype}"`);
  if (!parseTemplateDate(values.date)) fail(`--date takes a date as YYYY-MM-DD, got "${values.date}"`);
  const backend = values.backend;
  if (backend !== 'wasm' && backend !== 'native') fail(`--backend takes wasm or native, got "${backend}"`);
  const device = values.device;
  if (device !== 'cpu' && device !== 'cuda') fail(`--device takes cpu or cuda, got "${device}"`);
  if (device === 'cuda' && backend !== 'native') fail('--device cuda needs --backend native');
  const quant = values.quant as Quant;
  if (!QUANTS.includes(quant)) fail(`--quant takes ${QUANTS.join(', ')}, got "${values.quant}"`);
  const template = values.template as FallbackTemplate | undefined;
  if (template !== undefined && !(template in FALLBACK_TEMPLATES))
    fail(`--template takes ${Object.keys(FALLBACK_TEMPLATES).join(' or ')}, got "${values.template}"`);
  // --ablate-top ranks heads by their diagonal ratio: that needs every layer's head figures too.
  const headFigures = values['all-layers'] || values['ablate-top'] !== undefined || values['ablate-mean'];
  return { layers, dtype, json: values.json, date: values.date, backend, device, quant, template, headFigures };
}

/**
 * The models `--model` names, each opened when its turn comes and released before the next (two never share
 * memory). A --model that names no folder but reads as owner/name[@revision] comes from the Hub, through its cache.
 */
async function namedModels(values: Values, common: Common) {
  const dirs = values.model?.length ? values.model : [fileURLToPath(new URL(`../../${DEMO_MODEL_PATH}`, import.meta.url))];
  const models = [];
  for (const [i, d] of dirs.entries()) {
    const label = values.model?.[i] ?? DEMO_MODEL_PATH;
    const ref = values.model?.[i] ? parseHubModel(values.model[i]!) : null;
    if (!ref) {
      models.push({ label, open: () => open(d, common), identity: () => ({ files: folderDigest(d) }) });
      continue;
    }
    const h = await hubModel(ref).catch((e: Error) => {
      throw new InputError(`--model ${label}: no such folder here, and as a Hub model: ${cliMessage(e)}`);
    });
    models.push({ label, open: () => open(h.dir, common, h.storage), identity: () => ({ hub: h.hub, repo: h.repo, revision: h.revision, commit: h.commit }) });
  }
  return models;
}

/** analyze and batch (sharded or not). */
async function analysisCommand(command: string, dir: string, values: Values, common: Common): Promise<void> {
  const policies = parsePolicies(values.policy);
  const args = {
    policies,
    sweep: values.sweep,
    json: values.json,
    dumpAttention: values['dump-attention'],
    allLayers: values['all-layers'],
    ...(values.ablate && { ablate: values.ablate.map(parseHead) }),
    ...(values['ablate-top'] !== undefined && { ablateTop: whole('--ablate-top', values['ablate-top'], 1) }),
    ...(values.generate && { generate: true }),
    ...(values['ablate-mean'] && { ablateMean: true }),
    ...(values.turn !== undefined && { turn: whole('--turn', values.turn, 1) }),
    // r = inf covers whole answers (the diagonal then equals the attention to their content).
    ...(values.radius !== undefined && { radius: values.radius === 'inf' ? Infinity : whole('--radius', values.radius, 0) }),
    ...(common.layers?.[0] !== undefined && { layer: common.layers[0] }),
  };
  const shard =
    values.shard !== undefined ? parseShard(values.shard, process.env, values.shards === undefined ? undefined : whole('--shards', values.shards, 1)) : null;
  if (values.shards !== undefined && !shard) fail('--shards goes with --shard auto');
  if (shard && command !== 'batch') fail('--shard is for batch');
  if (values['all-layers'] && command === 'batch' && values.sweep) fail('batch --all-layers writes every layer and head of the scored turn: leave out --sweep');
  if (values['ablate-top'] && command !== 'analyze')
    fail('--ablate-top is for analyze (it ranks heads per conversation); batch takes --ablate L.H, the same heads for every line');
  if (values.generate && command !== 'analyze') fail('--generate is for analyze');
  if (values['ablate-mean'] && command !== 'analyze') fail('--ablate-mean is for analyze (its mean is per conversation)');
  if (values['ablate-mean'] && !values.ablate && !values['ablate-top'])
    fail('--ablate-mean says how --ablate or --ablate-top switch heads off: name them with those');
  if (shard && values.out === undefined) fail('batch --shard needs --out DIR: the folder each shard writes its part to');
  if (command === 'batch' && !shard) checkOut(values.out);
  const models = await namedModels(values, common);
  if (command === 'analyze') return analyzeCommand(models, dir, args);
  if (!shard) return void (process.exitCode = await batchCommand(models, dir, args, values.out));
  const { quant, backend, device, dtype, date, template } = common;
  const options = {
    policies: policies.map(policySpec),
    sweep: values.sweep,
    turn: args.turn ?? null,
    layer: args.layer ?? null,
    radius: values.radius ?? null,
    quant,
    backend,
    device,
    dtype,
    date,
    template: template ?? null,
    allLayers: values['all-layers'],
    ablate: values.ablate ?? [],
  };
  process.exitCode = await shardBatchCommand(models, dir, args, values.out!, { shard, options });
}

/** merge and report: they read files, not models. */
function filesCommand(command: 'merge' | 'report', dir: string | undefined, values: Values): void {
  if (command === 'merge') {
    if (!dir) fail(`merge needs the folder the shards wrote to\n\n${USAGE}`);
    process.exitCode = mergeCommand(dir, values.out);
    return;
  }
  if (!dir) fail(`report needs the batch's CSV\n\n${USAGE}`);
  if (values.out === undefined) fail('report needs --out DIR: the folder for its tables and figures');
  reportCommand(dir, {
    out: values.out,
    ...(values.by && {
      by: values.by
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    }),
    ...(values['group-field'] && { groupField: values['group-field'] }),
    ...(values.input && { input: values.input }),
  });
}

export async function main(argv: string[]): Promise<void> {
  startCliWatchdog();
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') return void process.stdout.write(USAGE);
  const { values, positionals } = parseCli(rest);
  const dir = positionals[0];
  try {
    if (command === 'merge' || command === 'report') return filesCommand(command, dir, values);
    const analysis = command === 'analyze' || command === 'batch';
    if (!dir) fail(`${command} needs ${analysis ? 'a conversation file' : 'a model folder'}\n\n${USAGE}`);
    const top = Number(values.top);
    if (!Number.isInteger(top) || top < 1) fail(`--top takes a positive whole number, got "${values.top}"`);
    const common = commonOptions(values);
    if (values.threads !== undefined) await configureRuntime({ numThreads: whole('--threads', values.threads, 1) });
    if (analysis) await analysisCommand(command, dir, values, common);
    else if (command === 'inspect-model') await inspectModel(dir, common);
    else if (command === 'forward') {
      if (values.text === undefined) fail('forward needs --text "..."');
      if ((common.layers?.length ?? 0) > 1) fail('forward takes one --layer');
      await forward(dir, values.text, values.chat, top, common);
    } else fail(`unknown command "${command}"\n\n${USAGE}`);
  } catch (e) {
    fail(cliMessage(e));
  }
}

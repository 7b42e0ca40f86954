import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_MODEL_PATH } from '../model/demo';
import { parameterCount } from '../model/checkpoint/weights';
import type { ComputeDtypeOption } from '../model/precision/compute-dtype';
import { ModelError } from '../model/errors';
import { DEFAULT_TEMPLATE_DATE, parseTemplateDate } from '../model/tokenizer/template-date';
import { describePlan } from '../model/memory/load-plan';
import { precisionName, QUANTS, quantLabel, type Quant } from '../model/precision/quantize';
import { FALLBACK_TEMPLATES, type FallbackTemplate } from '../model/tokenizer/chatml';
import { openModel } from '../runtime/open-model';
import { BackendError, configureRuntime, MemoryLimitError } from '../runtime/ort-runtime';
import { NumericError } from '../metrics/finite';
import { HubError } from '../model/source/hub-source';
import { analyzeCommand, batchCommand, checkOut, InputError, parsePolicies } from './analysis-commands';
import { dirSource } from './dir-source';
import { shardBatchCommand } from './batch-shard';
import { mergeCommand } from './merge';
import { reportCommand } from './report';
import { folderDigest } from './part-files';
import { parseShard } from './shard';
import { hubModel, parseHubModel } from './hub-cache';
import { policySpec } from '../context/policy';
import { startCliWatchdog } from './watchdog';
import { RenderError } from '../context/render';
import { forwardProbe } from '../analysis/forward-probe';

const USAGE = `inertia-lens — conversational inertia, measured on a real model's attention

Usage:
  inertia-lens inspect-model <model-dir> [--layer L]... [--dtype D] [--json]
  inertia-lens forward <model-dir> --text "..." [--chat] [--top K] [--layer L] [--dtype D] [--json]
  inertia-lens analyze <conversation-file> [--model <dir>]... [--policy SPEC]... [--turn N] [--layer L]
                       [--radius R] [--sweep] [--json] [--dump-attention]
  inertia-lens batch <file.jsonl> [--model <dir>]... [--policy SPEC]... [--out results.csv] [--sweep]
                       [--turn N] [--layer L] [--radius R] [--shard K/N|auto [--shards N] --out DIR]
  inertia-lens merge <DIR> [--out results.csv]
  inertia-lens report <results.csv> --out DIR [--by model,policy,...] [--group-field F --input file.jsonl]

Commands:
  inspect-model   load a Hugging Face model folder, build its attention graph, print the normalized
                  config, parameter count, weight dtype, and the graph's outputs
  forward         run one forward pass; print the top next tokens and the shape and row sums of the
                  inspected layer's attention (default: the final layer)
  analyze         score one answer of a conversation (default: the last) under each policy: category
                  shares of the final layer's attention, the diagonal inertia ratio, copy measures, cost
  batch           the same over a JSONL file (one conversation per line), one CSV row per
                  conversation × policy (× turn with --sweep); bad lines are reported and skipped.
                  With --shard, one task of a job array: its lines into DIR/part-K-of-N.csv and .json
                  (a manifest); run again, it resumes where it stopped
  merge           the parts of a sharded batch in DIR as one CSV, in line order (the same bytes one
                  unsharded batch writes); exits 2 naming the shards and lines still missing
  report          a batch CSV's tables and figures (paper 2's Table 13, Fig. 2, Fig. 6): per group the mean
                  and a seeded bootstrap 95 % interval of each share and the diagonal ratio (table.csv,
                  table.md), the shares by turn with --sweep rows (turns.csv, turns.svg), and each
                  policy's change against Full (policy-change.csv, policy-change.svg)

Options:
  --text S    the input text, tokenized as is (with --chat: as one user message, through the chat template)
  --layer L   inspect layer L (0-based; repeatable for inspect-model); default the final layer
  --top K     how many next tokens to print (default 5)
  --dtype D   compute dtype: auto (default; fp32 in Node), fp32, or fp16 (norms and softmax stay fp32)
  --template T  for a model with no chat template (a base model): render with the named fallback, chatml or
              plain ("User: …" turns), marked on every figure; a model with a template of its own ignores it
  --quant Q   weight precision: none (default: the checkpoint's own), q8, q4 or q4g128 (every linear layer,
              the head and the embedding quantized as they are read, in blocks of 32; q4g128 in AWQ's groups
              of 128: smaller, coarser; named in every figure)
  --model D   the model for analyze and batch: a folder (default: the embedded demo model, models/inertia-demo)
              or a Hub id, owner/name[@revision], downloaded once into the Hugging Face cache (HF_HOME,
              HF_HUB_CACHE, HF_TOKEN, HF_ENDPOINT, HF_HUB_OFFLINE as the Python tools read them); repeat it to
              compare models: each runs in turn, and analyze prints each against the first
  --policy S  full, window:W, clip:H:L, summary:H:L, ao, lt, sum, de, filler (repeatable; default full)
  --turn N    the assistant turn to score, 1-based (default: the last); later messages are ignored
  --radius R  diagonal radius r (default 5)
  --sweep     also score every turn t ≥ 2 (paper 2's Fig. 2 curve)
  --dump-attention  include the head-mean attention rows of the answer's tokens (analyze --json)
  --out F     batch: write the CSV to F (default: stdout); with --shard, the folder for the parts;
              merge: the merged CSV (default: stdout)
  --shard S   batch: K/N (K from 0) analyses the lines n with (n − 1) mod N = K; auto reads K and N from
              the scheduler: Slurm arrays (SLURM_ARRAY_TASK_ID/COUNT), AWS Batch, Cloud Run, Kubernetes
              Indexed Jobs (JOB_COMPLETION_INDEX, with --shards N)
  --shards N  batch --shard auto: the number of shards, where the scheduler does not say it (Kubernetes) or
              says another (a Slurm task resubmitted alone)
  --backend B wasm (default: onnxruntime-web, as in the browser) or native (onnxruntime-node: the machine's
              own runtime, faster, and not bound by wasm's 4 GiB)
  --device D  with --backend native: cpu (default) or cuda (an NVIDIA GPU, when onnxruntime-node's CUDA
              libraries are installed: ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node)
  --by K,...  report: the columns to group by (default model, policy and the group field)
  --group-field F  report: group by the field F of each JSONL line (e.g. env), read from --input
  --input F   report: the JSONL file the batch read
  --threads T threads per pass (default: every core, at most 8 on wasm); give cores ÷ N to N processes
              sharing a machine (N shards of one batch)
  --date D    the date (YYYY-MM-DD) a chat template that asks for today's date gets (default 2024-07-26,
              fixed so figures are reproducible)
  --json      print one JSON object instead of text
`;

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

interface Common {
  layers: number[] | undefined;
  dtype: ComputeDtypeOption;
  json: boolean;
  date: string;
  backend: 'wasm' | 'native';
  device: 'cpu' | 'cuda';
  quant: Quant;
  template: FallbackTemplate | undefined;
}

async function open(dir: string, c: Common, linksWithin?: string) {
  const m = await openModel(dirSource(dir, { linksWithin }), {
    computeDtype: c.dtype,
    quant: c.quant,
    ...(c.template && { template: c.template }),
    prefer: [c.backend],
    nativeDevices: c.device === 'cuda' ? ['cuda', 'cpu'] : ['cpu'],
    ...(c.layers && { inspectLayers: c.layers }),
  });
  if (c.device === 'cuda' && m.session.report.device !== 'cuda')
    process.stderr.write(`inertia-lens: running on the CPU: ${m.session.report.fallbackReason ?? 'CUDA did not start'}\n`);
  m.tokenizer.templateDate = c.date;
  return m;
}

async function inspectModel(dir: string, c: Common) {
  const m = await open(dir, c);
  const { spec, dtypes } = m.checkpoint;
  const info = {
    model: dir,
    spec,
    parameters: parameterCount(spec),
    weightDtypes: dtypes,
    weightStorage: m.graph.weightStorage,
    precision: m.graph.quant,
    computeDtype: m.graph.computeDtype,
    dtypeReason: m.session.report.dtypeReason,
    backend: m.session.report.backend,
    device: m.session.report.device,
    plan: m.session.report.plan,
    graph: {
      bytes: m.graph.bytes,
      externalFiles: m.graph.externalFiles,
      segments: m.graph.segments,
      inspectLayers: m.graph.inspectLayers,
      outputs: m.graph.outputNames,
    },
  };
  await m.session.release();
  if (c.json) return console.log(JSON.stringify(info, null, 2));
  console.log(`model          ${dir}`);
  console.log(`family         ${spec.family}`);
  console.log(`parameters     ${info.parameters.toLocaleString('en-US')}`);
  console.log(`weights        ${dtypes.join(', ')} (${info.weightStorage})`);
  console.log(`precision      ${quantLabel(m.graph.quant, spec.awq)}`);
  console.log(`runs on        ${info.backend}${info.device ? ` (${info.device})` : ''}, compute ${info.dtypeReason}`);
  if (info.plan) console.log(`memory         ${describePlan(info.plan)}`);
  console.log(`graph          ${info.graph.bytes.toLocaleString('en-US')} bytes + ${info.graph.externalFiles} external weight files`);
  console.log(`outputs        ${info.graph.outputs.join(', ')}`);
  console.log('config');
  for (const [k, v] of Object.entries(spec)) console.log(`  ${k.padEnd(22)} ${JSON.stringify(v)}`);
}

async function forward(dir: string, text: string, chat: boolean, top: number, c: Common) {
  const m = await open(dir, c);
  let probe: Awaited<ReturnType<typeof forwardProbe>>;
  try {
    probe = await forwardProbe(m, text, { chat, top });
  } catch (e) {
    fail((e as Error).message);
  } finally {
    await m.session.release();
  }
  const { next, layer, shape, headMeanRowSums, perHeadRowSumRange } = probe;
  const result = {
    tokens: probe.tokens,
    backend: m.session.report.backend,
    computeDtype: m.graph.computeDtype,
    precision: precisionName(m.graph.quant, m.checkpoint.spec.awq),
    next,
    attention: { layer, shape, headMeanRowSums, perHeadRowSumRange },
  };
  if (c.json) return console.log(JSON.stringify(result, null, 2));
  console.log(
    `${result.tokens} tokens, backend ${result.backend}, compute ${result.computeDtype}${result.precision === 'none' ? '' : `, weights ${result.precision}`}`,
  );
  console.log('next token      prob      logit');
  for (const t of next) console.log(`  ${JSON.stringify(t.text).padEnd(14)} ${t.prob.toFixed(4).padStart(7)} ${t.logit.toFixed(3).padStart(10)}`);
  console.log(`attention of layer ${layer}: shape [heads ${shape[0]}, rows ${shape[1]}, keys ${shape[2]}]`);
  console.log(`  row sums per head in [${perHeadRowSumRange[0].toFixed(7)}, ${perHeadRowSumRange[1].toFixed(7)}]`);
  const shown =
    headMeanRowSums.length <= 16
      ? headMeanRowSums.map((s) => s.toFixed(6)).join(' ')
      : `in [${Math.min(...headMeanRowSums).toFixed(7)}, ${Math.max(...headMeanRowSums).toFixed(7)}]`;
  console.log(`  head-mean row sums: ${shown}`);
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
  return { layers, dtype, json: values.json, date: values.date, backend, device, quant, template };
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
    ...(values.turn !== undefined && { turn: whole('--turn', values.turn, 1) }),
    // r = inf covers whole answers (the diagonal then equals the attention to their content).
    ...(values.radius !== undefined && { radius: values.radius === 'inf' ? Infinity : whole('--radius', values.radius, 0) }),
    ...(common.layers?.[0] !== undefined && { layer: common.layers[0] }),
  };
  const shard =
    values.shard !== undefined ? parseShard(values.shard, process.env, values.shards === undefined ? undefined : whole('--shards', values.shards, 1)) : null;
  if (values.shards !== undefined && !shard) fail('--shards goes with --shard auto');
  if (shard && command !== 'batch') fail('--shard is for batch');
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

/**
 * The commands that open one model folder: inspect-model (what the tool reads and builds) and forward (the
 * raw pass: next tokens, attention shape and row sums), and how every command opens a model.
 */
import { forwardProbe } from '../analysis/forward-probe';
import { parameterCount } from '../model/checkpoint/weights';
import { describePlan } from '../model/memory/load-plan';
import type { ComputeDtypeOption } from '../model/precision/compute-dtype';
import { precisionName, quantLabel, type Quant } from '../model/precision/quantize';
import type { FallbackTemplate } from '../model/tokenizer/chatml';
import { openModel } from '../runtime/open-model';
import { InputError } from './analysis-commands';
import { dirSource } from './dir-source';

/** The options every model-opening command shares. */
export interface Common {
  layers: number[] | undefined;
  dtype: ComputeDtypeOption;
  json: boolean;
  date: string;
  backend: 'wasm' | 'native';
  device: 'cpu' | 'cuda';
  quant: Quant;
  template: FallbackTemplate | undefined;
  /** Every layer's per-head figures as graph outputs (analyze --all-layers). */
  headFigures?: boolean;
}

export async function open(dir: string, c: Common, linksWithin?: string) {
  const m = await openModel(dirSource(dir, { linksWithin }), {
    computeDtype: c.dtype,
    quant: c.quant,
    ...(c.template && { template: c.template }),
    prefer: [c.backend],
    nativeDevices: c.device === 'cuda' ? ['cuda', 'cpu'] : ['cpu'],
    ...(c.layers && { inspectLayers: c.layers }),
    ...(c.headFigures && { headFigures: true }),
  });
  if (c.device === 'cuda' && m.session.report.device !== 'cuda')
    process.stderr.write(`inertia-lens: running on the CPU: ${m.session.report.fallbackReason ?? 'CUDA did not start'}\n`);
  m.tokenizer.templateDate = c.date;
  return m;
}

export async function inspectModel(dir: string, c: Common) {
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

export async function forward(dir: string, text: string, chat: boolean, top: number, c: Common) {
  const m = await open(dir, c);
  let probe: Awaited<ReturnType<typeof forwardProbe>>;
  try {
    probe = await forwardProbe(m, text, { chat, top });
  } catch (e) {
    // Said as it is (main prints it after "inertia-lens: ").
    throw new InputError((e as Error).message);
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

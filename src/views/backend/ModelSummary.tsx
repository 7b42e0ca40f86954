import { useState } from 'react';
import type { ModelSpec } from '../../model/config/config';
import { parseTemplateDate } from '../../model/tokenizer/template-date';
import { useModelStore, type BackendChoice } from '../../state/model-store';
import { quantLabel } from '../../model/precision/quantize';
import { Explain } from '../explain/Explain';
import { PrecisionSelect } from '../model-loader/PrecisionSelect';

/** The chat template writes "today's" date into the conversation: a fixed date keeps figures reproducible. */
function TemplateDate({ date }: { date: string }) {
  const setTemplateDate = useModelStore((s) => s.setTemplateDate);
  const [text, setText] = useState(date);
  const bad = text !== date && !parseTemplateDate(text);
  return (
    <>
      <input
        aria-label="template date"
        value={text}
        size={10}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => void setTemplateDate(text)}
        onKeyDown={(e) => e.key === 'Enter' && void setTemplateDate(text)}
      />{' '}
      <span className={bad ? 'warn' : 'muted'}>
        {bad
          ? 'a date is YYYY-MM-DD'
          : "this template writes today's date into the conversation; it gets this fixed one, so the figures do not change from day to day"}
      </span>
    </>
  );
}

/** Sliding-window and NoPE layers, said once: ", layers 0–4, 6–10 see the last 512 tokens". */
function windowNote(spec: ModelSpec): string {
  const sliding = spec.layers.filter((l) => l.window !== null).length;
  const nope = spec.layers.filter((l) => l.rope === null).length;
  const parts = [];
  if (sliding)
    parts.push(
      `${sliding} of ${spec.numLayers} layers see only the last ${spec.layers.find((l) => l.window !== null)!.window!.toLocaleString('en-US')} tokens`,
    );
  if (nope) parts.push(`${nope} layers use no rotary embedding`);
  return parts.length ? `; ${parts.join('; ')}` : '';
}

/** What is loaded and where it runs: the backend in use always visible, with the reason for a fallback. */
export function ModelSummary() {
  const info = useModelStore((s) => s.info);
  const backend = useModelStore((s) => s.backend);
  const setBackend = useModelStore((s) => s.setBackend);
  const loading = useModelStore((s) => s.load.status === 'loading');
  if (!info)
    return (
      <section className="panel">
        <p className="muted">{loading ? 'Loading the model…' : 'No model loaded yet.'}</p>
      </section>
    );
  const { spec, report } = info;
  return (
    <section className="panel" aria-labelledby="summary-title">
      <h2 id="summary-title">
        Loaded{' '}
        <span className="badge" data-testid="backend">
          {report.backend === 'webgpu' ? 'WebGPU' : 'wasm'}
        </span>
        <Explain id="loaded" />
      </h2>
      {report.fallbackReason && (
        <p className={report.fallbackReason.includes('software one') ? 'muted' : 'warn'} data-testid="fallback">
          Not on WebGPU: {report.fallbackReason}
        </p>
      )}
      <dl className="facts">
        <dt>source</dt>
        <dd>{info.source}</dd>
        <dt>family</dt>
        <dd>{spec.family}</dd>
        <dt>parameters</dt>
        <dd>{info.parameters.toLocaleString('en-US')}</dd>
        <dt>layers × heads</dt>
        <dd>
          {spec.numLayers} × {spec.numHeads} ({spec.numKvHeads} key/value heads, head size {spec.headDim})
        </dd>
        <dt>weights</dt>
        <dd>
          {info.dtypes.join(', ')}: {info.weightStorage}; <span data-testid="weight-reads">{info.weightReads}</span>
        </dd>
        <dt>precision</dt>
        <dd>
          <span data-testid="precision">{quantLabel(info.quant, spec.awq)}</span> <PrecisionSelect />
          <Explain id="precision" />
        </dd>
        {info.fallbackTemplate && (
          <>
            <dt>template</dt>
            <dd className="warn" data-testid="fallback-template">
              the fallback {info.fallbackTemplate === 'chatml' ? 'ChatML' : 'plain “User: …”'} template: this model has none of its own, and was never trained
              on this format
            </dd>
          </>
        )}
        <dt>compute</dt>
        <dd>{report.dtypeReason}</dd>
        {report.threads !== null && (
          <>
            <dt>threads</dt>
            <dd data-testid="threads">
              {report.threads}
              {report.threads === 1 ? ' (this page cannot share memory between threads, or the machine has one core)' : ''}
            </dd>
          </>
        )}
        <dt>attention</dt>
        <dd>
          {info.attention}
          {windowNote(spec)}
        </dd>
        {spec.notes.length > 0 && (
          <>
            <dt>notes</dt>
            <dd>{spec.notes.join('; ')}</dd>
          </>
        )}
        {info.templateDate !== null && (
          <>
            <dt>template date</dt>
            <dd>
              <TemplateDate date={info.templateDate} />
            </dd>
          </>
        )}
        {report.segments > 1 && (
          <>
            <dt>segments</dt>
            <dd data-testid="segments">
              {report.segments} onnxruntime sessions of up to {Math.ceil(spec.numLayers / report.segments)} layer{spec.numLayers === report.segments ? '' : 's'}
              , run one after the other, so the GPU never holds more than one segment's attention buffers
            </dd>
          </>
        )}
        <dt>run on</dt>
        <dd>
          <select aria-label="backend" value={backend} disabled={loading} onChange={(e) => void setBackend(e.target.value as BackendChoice)}>
            <option value="auto">WebGPU on a GPU, else wasm</option>
            <option value="wasm">wasm only</option>
            <option value="webgpu">WebGPU, even a software adapter</option>
          </select>
        </dd>
      </dl>
    </section>
  );
}

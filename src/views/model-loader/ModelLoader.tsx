import { useState, type DragEvent } from 'react';
import { hubSource, resolveHubRepo } from '../../model/hub-source';
import type { ModelSource } from '../../model/source';
import { fileListSource } from '../../model/source';
import { forgetCachedModels, rangeCache } from '../../state/model-cache';
import { useModelStore, type ModelRef } from '../../state/model-store';
import { droppedFiles } from './dropped-files';
import { LoadProgress } from './LoadProgress';

export const HUB = 'https://huggingface.co';

/** A Hub model at its resolved commit, its reads kept in the browser's model cache. */
export async function hubModelSource(ref: ModelRef): Promise<ModelSource> {
  const hubRef = { repo: ref.model, revision: ref.revision, hubUrl: ref.hub };
  const cache = rangeCache();
  return hubSource(await resolveHubRepo(hubRef, { cache }), { cache });
}

/** Loads a model from a Hub id (+ revision), a Hub-style base URL, or a folder picked or dropped. */
export function ModelLoader() {
  const loadModel = useModelStore((s) => s.loadModel);
  const busy = useModelStore((s) => s.load.status === 'loading');
  const [repo, setRepo] = useState('');
  const [revision, setRevision] = useState('main');
  const [base, setBase] = useState(HUB);
  const [dragging, setDragging] = useState(false);

  const fromFiles = (files: File[]) => {
    if (files.length) void loadModel(fileListSource(files, `${files.length} files`));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void droppedFiles(e.dataTransfer).then(fromFiles);
  };

  return (
    <section className="panel" aria-labelledby="loader-title">
      <h2 id="loader-title">Model</h2>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const ref = { model: repo.trim(), revision: revision.trim() || 'main', hub: base.trim() === HUB ? null : base.trim() };
          if (ref.model) void loadModel(hubModelSource(ref), ref);
        }}
      >
        <label>
          Hub id <input name="repo" value={repo} onChange={(e) => setRepo(e.target.value)} placeholder="HuggingFaceTB/SmolLM2-135M-Instruct" size={36} />
        </label>
        <label>
          revision <input name="revision" value={revision} onChange={(e) => setRevision(e.target.value)} size={8} />
        </label>
        <label>
          from <input name="base" value={base} onChange={(e) => setBase(e.target.value)} size={28} />
        </label>
        <button type="submit" disabled={busy || !repo.trim()}>Load</button>
      </form>
      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        Drop a model folder or its files here (config.json, tokenizer.json, tokenizer_config.json, *.safetensors), or pick{' '}
        <label className="linklike">
          the folder
          <input type="file" hidden {...{ webkitdirectory: '' }} onChange={(e) => fromFiles(Array.from(e.target.files ?? []))} />
        </label>{' '}
        or{' '}
        <label className="linklike">
          its files
          <input type="file" multiple hidden data-testid="pick-files" onChange={(e) => fromFiles(Array.from(e.target.files ?? []))} />
        </label>
        .
      </div>
      <p className="muted">
        Downloaded models are kept in this browser (Cache Storage, {`"inertia-lens-models-v1"`}) so a second visit loads offline.{' '}
        <button type="button" className="linkbutton" onClick={() => void forgetCachedModels()}>Forget them</button>
      </p>
      <LoadProgress />
    </section>
  );
}

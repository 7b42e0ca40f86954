import { useState, type DragEvent } from 'react';
import { HUB_URL } from '../../model/source/hub-source';
import { forgetCachedModels, MODEL_CACHE } from '../../model/source/range-cache';
import { useSlot } from './slot';
import { slotName } from '../../state/model-client';
import { droppedFiles, folderOf } from './dropped-files';
import { LinkOfferNote } from './LinkOfferNote';
import { LoadProgress } from './LoadProgress';
import { PendingDownloadNote } from './PendingDownloadNote';
import { Explain } from '../explain/Explain';

export const HUB = HUB_URL;

/** Loads from a Hub id (+ revision, + token for gated repos), a Hub-style base URL, or a folder picked or dropped. */
export function ModelLoader() {
  const { slot, store: useModel } = useSlot();
  const loadModel = useModel((s) => s.loadModel);
  const openHub = useModel((s) => s.openHub);
  const busy = useModel((s) => s.load.status === 'loading');
  const token = useModel((s) => s.accessToken);
  const remember = useModel((s) => s.rememberToken);
  const setAccessToken = useModel((s) => s.setAccessToken);
  const [repo, setRepo] = useState('');
  const [revision, setRevision] = useState('main');
  const [base, setBase] = useState(HUB);
  const [dragging, setDragging] = useState(false);

  // Each file named by its path in what was picked or dropped (a folder's webkitRelativePath), so the worker sees duplicates.
  const fromFiles = (picked: { file: File; path: string }[]) => {
    if (picked.length)
      void loadModel({ kind: 'files', files: picked.map((p) => p.file), names: picked.map((p) => p.path), label: folderOf(picked.map((p) => p.path)) });
  };
  const fromInput = (list: FileList | null) => fromFiles(Array.from(list ?? [], (file) => ({ file, path: file.webkitRelativePath || file.name })));
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void droppedFiles(e.dataTransfer).then(fromFiles);
  };

  return (
    <section className="panel" aria-labelledby={`loader-title-${slot}`}>
      <h2 id={`loader-title-${slot}`}>
        {slot === 0 ? 'Model' : `Model ${slotName(slot)}`}
        <Explain id="model" />
      </h2>
      <LinkOfferNote />
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          const ref = { model: repo.trim(), revision: revision.trim() || 'main', hub: base.trim().replace(/\/+$/, '') === HUB ? null : base.trim() };
          if (ref.model) void openHub(ref);
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
        <button type="submit" disabled={busy || !repo.trim()}>
          Load
        </button>
      </form>
      <div className="row">
        <label>
          access token{' '}
          <input
            name="token"
            type="password"
            autoComplete="off"
            value={token}
            onChange={(e) => setAccessToken(e.target.value, remember)}
            placeholder="hf_… (gated models only)"
            size={24}
          />
        </label>
        <label>
          <input type="checkbox" checked={remember} onChange={(e) => setAccessToken(token, e.target.checked)} /> remember it in this browser
        </label>
        <span className="muted">Sent to the Hub only, never put in a link.</span>
      </div>
      <PendingDownloadNote />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file pickers beside it are the keyboard's way */}
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
          <input type="file" className="sr-only" {...{ webkitdirectory: '' }} onChange={(e) => fromInput(e.target.files)} />
        </label>{' '}
        or{' '}
        <label className="linklike">
          its files
          <input
            type="file"
            multiple
            className="sr-only"
            data-testid={slot === 0 ? 'pick-files' : `pick-files-${slotName(slot).toLowerCase()}`}
            onChange={(e) => fromInput(e.target.files)}
          />
        </label>
        .
      </div>
      <p className="muted">
        Downloads are kept in this browser (Cache Storage, {`"${MODEL_CACHE}"`}, under the commit they came from) so a second visit loads offline.{' '}
        <button type="button" className="linkbutton" onClick={() => void forgetCachedModels()}>
          Forget them
        </button>
      </p>
      <LoadProgress />
    </section>
  );
}

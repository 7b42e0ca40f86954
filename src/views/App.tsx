import { useInspector } from '../state/inspector-store';
import { useModelStore } from '../state/model-store';
import { ModelSummary } from './backend/ModelSummary';
import { ErrorBoundary } from './ErrorBoundary';
import { HeadsPanel } from './heads/HeadsPanel';
import { Region } from './Region';
import { ChartsPanel } from './charts/ChartsPanel';
import { ConversationPanel } from './conversation/ConversationPanel';
import { FiguresPanel } from './figures/FiguresPanel';
import { ForwardPanel } from './forward/ForwardPanel';
import { HeatmapPanel } from './heatmap/HeatmapPanel';
import { ComparePanel } from './model-loader/ComparePanel';
import { ModelLoader } from './model-loader/ModelLoader';
import { PolicyBar } from './policies/PolicyBar';
import { ViewControls } from './policies/ViewControls';
import { ShareBar } from './share/ShareBar';
import { linkNote } from '../state/start';
import { SkipLinks } from './SkipLinks';
import { StatusLine } from './StatusLine';
import { TokenView } from './tokens/TokenView';
import { LessonCard } from './lesson/LessonCard';
import { LESSON } from './lesson/steps';
import { isQuiet, QUIET, useLesson } from '../state/lesson-store';
import { HIDEABLE_NAMES } from '../state/regions';

export function App({ linkProblems = [] }: { linkProblems?: string[] }) {
  const info = useModelStore((s) => s.info);
  const note = useInspector((s) => linkNote(s, info));
  const lessonOpen = useLesson((s) => s.step !== null);
  const hidden = useLesson((s) => s.hidden);
  const openLesson = useLesson((s) => s.open);
  const quiet = useLesson(isQuiet);
  // The model panels, shown first if the lesson had put them out of the way.
  const changeModel = () => {
    useLesson.getState().setQuiet(false);
    requestAnimationFrame(() => document.getElementById('model-panel')?.scrollIntoView({ block: 'start' }));
  };
  // Your own conversation: the text editor opened and focused, ready for a paste.
  const inspect = () => {
    useInspector.getState().showTextEditor(true);
    requestAnimationFrame(() => {
      const panel = document.querySelector<HTMLElement>('[data-lesson="conversation"]');
      panel?.scrollIntoView({ block: 'start' });
      panel?.querySelector<HTMLElement>('textarea')?.focus();
    });
  };
  return (
    <main className={lessonOpen ? 'with-lesson' : undefined}>
      <SkipLinks />
      <header>
        <h1>Inertia Lens</h1>
        <p className="lede">
          See how much a language model's next answer leans on the answers it gave before ("conversational inertia"): in what it writes with and without them,
          and in where its attention goes, live in this page.
        </p>
        <div className="row">
          <button type="button" className="primary" onClick={() => openLesson(0)} disabled={lessonOpen} data-testid="learn">
            Learn: {LESSON.length} short steps on the live model
          </button>
          <button type="button" onClick={inspect}>
            Inspect your own conversation
          </button>
        </div>
        <p className="muted" data-testid="model-line">
          {info
            ? `Model: ${info.source}, on ${info.report.backend === 'webgpu' ? 'WebGPU' : 'wasm'}${info.precision !== 'none' ? `, weights ${info.precision}` : ''}. `
            : 'Loading the model… '}
          <button type="button" className="linkbutton" onClick={changeModel}>
            Change the model
          </button>
          {' · '}It runs in this page, on WebGPU when it can, and nothing you load or type leaves the browser.
        </p>
        {quiet && (
          <p className="muted" data-testid="quiet-note">
            While the lesson is open, {QUIET.map((h) => HIDEABLE_NAMES[h]).join(', ')}, the exports and the researcher's details (such as the tokens-per-turn
            chart) are out of the way.{' '}
            <button type="button" className="link" onClick={() => useLesson.getState().setQuiet(false)}>
              show them
            </button>
          </p>
        )}
        {hidden.length > 0 && (
          <p className="muted" data-testid="hidden-note">
            This exercise hides {hidden.map((h) => HIDEABLE_NAMES[h]).join(', ')}.{' '}
            <button type="button" className="link" onClick={() => useLesson.getState().setHidden([])}>
              show everything
            </button>
          </p>
        )}
        {linkProblems.length > 0 && (
          <p className="warn" role="alert">
            Parts of the link were not used: {linkProblems.join('; ')}
          </p>
        )}
      </header>
      <ErrorBoundary name="lesson">
        <LessonCard />
      </ErrorBoundary>
      <Region name="conversation">
        <ConversationPanel />
      </Region>
      <Region name="policies">
        <PolicyBar />
      </Region>
      <Region name="view">
        <section className="panel" aria-label="view">
          <ViewControls />
          {/* Exports and links are a researcher's and a teacher's: out of the lesson's way while it is open. */}
          {!quiet && <ShareBar linkNote={note} />}
          <StatusLine />
        </section>
      </Region>
      <Region name="figures">
        <FiguresPanel />
      </Region>
      <Region name="heatmap">
        <HeatmapPanel />
      </Region>
      <Region name="tokens">
        <TokenView />
      </Region>
      <Region name="charts">
        <ChartsPanel />
      </Region>
      <Region name="heads">
        <HeadsPanel />
      </Region>
      <Region name="model" id="model-panel" className="columns">
        <ModelSummary />
        <ModelLoader />
      </Region>
      <Region name="compare-models">
        <ComparePanel />
      </Region>
      <Region name="forward">
        <details className="panel">
          <summary>Raw forward pass (next-token probabilities)</summary>
          <ForwardPanel />
        </details>
      </Region>
    </main>
  );
}

import { useInspector } from '../state/inspector-store';
import { useModelStore } from '../state/model-store';
import { ModelSummary } from './backend/ModelSummary';
import { ErrorBoundary } from './ErrorBoundary';
import { ChartsPanel } from './charts/ChartsPanel';
import { ConversationPanel } from './conversation/ConversationPanel';
import { FiguresPanel } from './figures/FiguresPanel';
import { ForwardPanel } from './forward/ForwardPanel';
import { HeatmapPanel } from './heatmap/HeatmapPanel';
import { ModelBPanel } from './model-loader/ModelBPanel';
import { ModelLoader } from './model-loader/ModelLoader';
import { PolicyBar } from './policies/PolicyBar';
import { ViewControls } from './policies/ViewControls';
import { ShareBar } from './share/ShareBar';
import { linkNote } from './share/url-sync';
import { StatusLine } from './StatusLine';
import { TokenView } from './tokens/TokenView';
import { LessonCard } from './lesson/LessonCard';
import { LESSON } from './lesson/steps';
import { useLesson } from '../state/lesson-store';

export function App({ linkProblems = [] }: { linkProblems?: string[] }) {
  const info = useModelStore((s) => s.info);
  const note = useInspector((s) => linkNote(s, info));
  const lessonOpen = useLesson((s) => s.step !== null);
  const openLesson = useLesson((s) => s.open);
  const inspect = () => {
    const editor = document.querySelector<HTMLElement>('[data-lesson="conversation"] textarea, [data-lesson="conversation"] button');
    editor?.scrollIntoView({ block: 'start' });
    editor?.focus();
  };
  return (
    <main className={lessonOpen ? 'with-lesson' : undefined}>
      <header>
        <h1>Inertia Lens</h1>
        <p className="lede">
          See how much a language model's next answer leans on its own earlier answers ("conversational inertia"), read
          from the model's own attention, live in this page.
        </p>
        <div className="row">
          <button type="button" className="primary" onClick={() => openLesson(0)} disabled={lessonOpen}>Learn: {LESSON.length} short steps on the live model</button>
          <button type="button" onClick={inspect}>Inspect your own conversation</button>
        </div>
        <p className="muted">The model runs in this page, on WebGPU when it can, and nothing you load or type leaves the browser.</p>
        {linkProblems.length > 0 && <p className="warn" role="alert">Parts of the link were not used: {linkProblems.join('; ')}</p>}
      </header>
      <div className="columns">
        <ModelSummary />
        <ModelLoader />
      </div>
      <ErrorBoundary name="conversation">
        <div data-lesson="conversation"><ConversationPanel /></div>
      </ErrorBoundary>
      <ErrorBoundary name="policy">
        <div data-lesson="policies"><PolicyBar /></div>
      </ErrorBoundary>
      <ErrorBoundary name="model B">
        <div data-lesson="model-b"><ModelBPanel /></div>
      </ErrorBoundary>
      <section className="panel" aria-label="view" data-lesson="view">
        <ViewControls />
        <ShareBar linkNote={note} />
        <StatusLine />
      </section>
      <ErrorBoundary name="figures">
        <div data-lesson="figures"><FiguresPanel /></div>
      </ErrorBoundary>
      <ErrorBoundary name="heatmap">
        <div data-lesson="heatmap"><HeatmapPanel /></div>
      </ErrorBoundary>
      <ErrorBoundary name="token">
        <div data-lesson="tokens"><TokenView /></div>
      </ErrorBoundary>
      <ErrorBoundary name="charts">
        <div data-lesson="charts"><ChartsPanel /></div>
      </ErrorBoundary>
      <ErrorBoundary name="lesson">
        <LessonCard />
      </ErrorBoundary>
      <details className="panel">
        <summary>Raw forward pass (next-token probabilities)</summary>
        <ForwardPanel />
      </details>
    </main>
  );
}

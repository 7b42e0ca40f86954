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

export function App({ linkProblems = [] }: { linkProblems?: string[] }) {
  const info = useModelStore((s) => s.info);
  const note = useInspector((s) => linkNote(s, info));
  return (
    <main>
      <header>
        <h1>Inertia Lens</h1>
        <p className="muted">
          How much a language model's next answer leans on its own earlier answers, read from its final layer's attention. The
          model runs in this page, on WebGPU when it can, and nothing you load or type leaves the browser.
        </p>
        {linkProblems.length > 0 && <p className="warn" role="alert">Parts of the link were not used: {linkProblems.join('; ')}</p>}
      </header>
      <div className="columns">
        <ModelSummary />
        <ModelLoader />
      </div>
      <ErrorBoundary name="conversation">
        <ConversationPanel />
      </ErrorBoundary>
      <ErrorBoundary name="policy">
        <PolicyBar />
      </ErrorBoundary>
      <ErrorBoundary name="model B">
        <ModelBPanel />
      </ErrorBoundary>
      <section className="panel" aria-label="view">
        <ViewControls />
        <ShareBar linkNote={note} />
        <StatusLine />
      </section>
      <ErrorBoundary name="figures">
        <FiguresPanel />
      </ErrorBoundary>
      <ErrorBoundary name="heatmap">
        <HeatmapPanel />
      </ErrorBoundary>
      <ErrorBoundary name="token">
        <TokenView />
      </ErrorBoundary>
      <ErrorBoundary name="charts">
        <ChartsPanel />
      </ErrorBoundary>
      <details className="panel">
        <summary>Raw forward pass (next-token probabilities)</summary>
        <ForwardPanel />
      </details>
    </main>
  );
}

import { ForwardPanel } from './forward/ForwardPanel';
import { ModelSummary } from './backend/ModelSummary';
import { ModelLoader } from './model-loader/ModelLoader';

export function App() {
  return (
    <main>
      <header>
        <h1>Inertia Lens</h1>
        <p className="muted">
          How much a language model's next answer leans on its own earlier answers, read from its attention. The model runs in
          this page, on WebGPU when it can, and nothing you load or type leaves the browser.
        </p>
      </header>
      <ModelLoader />
      <ModelSummary />
      <ForwardPanel />
    </main>
  );
}

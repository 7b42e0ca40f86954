import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DEMO_MODEL_FILES, DEMO_MODEL_LABEL, DEMO_MODEL_PATH } from './model/demo';
import { folderUrlSource } from './model/source';
import { configureRuntime } from './runtime/ort-runtime';
import { useModelStore } from './state/model-store';
import { App } from './views/App';
import './styles.css';

// ORT's wasm is served by Vite from our own origin (see vite.config.ts), never a CDN.
await configureRuntime({});
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Start on the embedded demo model, served by the app itself.
void useModelStore.getState().loadModel(folderUrlSource(`${import.meta.env.BASE_URL}${DEMO_MODEL_PATH}`, DEMO_MODEL_FILES, DEMO_MODEL_LABEL));

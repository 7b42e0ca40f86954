import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureRuntime } from './runtime/ort-runtime';
import { App } from './views/App';
import { startFromUrl } from './views/share/url-sync';
import './styles.css';

// ORT's wasm is served by Vite from our own origin (see vite.config.ts), never a CDN.
await configureRuntime({});
// The URL names the model (the embedded demo model by default) and the view; both start loading now.
const linkProblems = startFromUrl();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App linkProblems={linkProblems} />
  </StrictMode>,
);

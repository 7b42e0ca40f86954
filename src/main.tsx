import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureRuntime } from './runtime/ort-runtime';
import { App } from './views/App';
import './styles.css';

// ORT's wasm is served by Vite from our own origin (see vite.config.ts), never a CDN.
await configureRuntime({});
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

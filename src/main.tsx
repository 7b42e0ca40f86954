import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureRuntime } from './runtime/ort-runtime';
import { App } from './views/App';
import './styles.css';

// ORT's wasm comes from our own server (vite.config.ts copies it under /ort/), never a CDN.
await configureRuntime({ wasmPaths: `${import.meta.env.BASE_URL}ort/` });
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

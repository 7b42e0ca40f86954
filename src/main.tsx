import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './views/App';
import { startFromUrl } from './views/share/url-sync';
import './styles.css';

// The URL names the model (the embedded demo model by default) and the view; both start loading now.
const linkProblems = startFromUrl();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App linkProblems={linkProblems} />
  </StrictMode>,
);

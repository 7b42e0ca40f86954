import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './views/App';
import { startFromUrl } from './state/start';
import { startOffline } from './deploy/offline';
import { LESSON } from './views/lesson/steps';
import './styles.css';

// The built app: isolation and the offline shell on any static host (the dev server sends the headers itself).
if (import.meta.env.PROD) startOffline(import.meta.env.BASE_URL);
// The URL names the model (the embedded demo model by default) and the view; both start loading now.
const linkProblems = startFromUrl({ lessonSteps: LESSON.length });
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App linkProblems={linkProblems} />
  </StrictMode>,
);

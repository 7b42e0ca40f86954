import { DEMO_MODEL_FILES } from '../model/demo';

/** A committed demo model's folder as the model worker fetches it: an absolute URL (a worker resolves relative ones against its own script). */
export const demoSource = (path: string, label: string) => ({
  kind: 'url' as const,
  base: new URL(`${import.meta.env.BASE_URL}${path}`, location.href).href,
  files: [...DEMO_MODEL_FILES],
  label,
});

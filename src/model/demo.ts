/** The embedded demo model (trained by training/, committed in Hugging Face layout). */
export const DEMO_MODEL_PATH = 'models/inertia-demo';
export const DEMO_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors'] as const;
export const DEMO_MODEL_LABEL = 'Inertia Lens demo model';
/** Its twin after Context Preference Learning (training/cpl-pairs.ts, training/cpl.py): the same files. */
export const CPL_MODEL_PATH = 'models/inertia-demo-cpl';
export const CPL_MODEL_LABEL = 'Inertia Lens demo model, CPL-tuned';

/** The embedded demo model (trained by training/, committed in Hugging Face layout). */
export const DEMO_MODEL_PATH = 'models/inertia-demo';
export const DEMO_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors'] as const;
export const DEMO_MODEL_LABEL = 'Inertia Lens demo model';

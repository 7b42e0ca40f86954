/** The embedded demo model (trained by training/, committed in Hugging Face layout). */
export const DEMO_MODEL_PATH = 'models/inertia-demo';
export const DEMO_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors'] as const;
export const DEMO_MODEL_LABEL = 'Inertia Lens demo model';
/** Its twin after Context Preference Learning (training/cpl-pairs.ts, training/cpl.py): the same files. */
export const CPL_MODEL_PATH = 'models/inertia-demo-cpl';
export const CPL_MODEL_LABEL = 'Inertia Lens demo model, CPL-tuned';
/**
 * A second twin, trained the same way toward the answer written with no earlier turn (DE) instead of the turn
 * before: the lesson's check that the fix, aimed where the pull is absent, can lower the repeats. Counted offline only.
 */
export const CPL_DE_MODEL_PATH = 'models/inertia-demo-cpl-de';

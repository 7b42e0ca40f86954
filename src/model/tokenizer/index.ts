/**
 * model/tokenizer/ — Text to tokens and back: the tokenizer and chat template (run under time and size bounds: guard.ts), the
 * fallback templates for base models, each token's text, and the date a template writes.
 */
export * from './tokenizer';
export * from './chatml';
export * from './encode-chunks';
export * from './template-date';
export * from './token-bytes';
export * from './guard';

/**
 * model/source/ — Where a model's files come from: a folder picked or dropped, a URL (the demo model), or the Hugging Face Hub
 * (resolved to a commit, read by HTTP ranges, kept in the browser's Cache Storage). Everything after reads a ModelSource.
 */
export * from './source';
export * from './hub-source';
export * from './range-cache';

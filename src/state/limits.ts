/** Most tokens for which the full causal matrix (every row, every head) is kept on request. Plain data, so
 *  Node scripts (the browser bench) can read it without loading the store. */
export const FULL_MATRIX_MAX_TOKENS = 2048;

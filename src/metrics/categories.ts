/** Token categories of paper 2 §3.4 (design.md "The measurement"). */
export const CATEGORIES = ['sink', 'system', 'user', 'prior', 'current'] as const;
export type Category = (typeof CATEGORIES)[number];
export type CategoryRatios = Record<Category, number>;

/** A token span [start, start + length) of a message's content. */
export interface Span {
  start: number;
  length: number;
}

/**
 * Attention rows of the query tokens: `rows` is [nRows × seqLen] row-major, row i holds the
 * attention of query position queryStart + i over all keys.
 */
export interface AttentionRows {
  rows: ArrayLike<number>;
  nRows: number;
  seqLen: number;
}

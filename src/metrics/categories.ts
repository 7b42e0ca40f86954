/** Token categories of paper 2 §3.4 (design.md "The measurement"). */
export const CATEGORIES = ['sink', 'system', 'user', 'prior', 'current'] as const;
export type Category = (typeof CATEGORIES)[number];
export type CategoryRatios = Record<Category, number>;

/** A token span [start, start + length) of a message's content. */
export interface Span {
  start: number;
  length: number;
}

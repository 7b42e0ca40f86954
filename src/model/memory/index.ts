/**
 * model/memory/ — Memory, decided before any weight is read: what one pass holds (memory.ts) and, per backend and precision,
 * whether the model fits and for how many tokens (load-plan.ts).
 */
export * from './memory';
export * from './load-plan';

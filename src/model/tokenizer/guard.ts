/**
 * Calls into a model's own files (its chat template, its tokenizer) are untrusted code paths: a template
 * can loop for minutes, a tokenizer regex can backtrack without end. Each such call is marked here, so a
 * watchdog outside the thread (the page, watching the model worker) can stop one that runs past its
 * budget and name the file. Outside the worker nothing watches, and marking costs a function call.
 */
export type GuardedKind = 'template' | 'tokenizer' | 'tokenizer-load';

/** Milliseconds one call may run before the worker is stopped. */
export const GUARD_BUDGET_MS: Record<GuardedKind, number> = {
  template: 5_000,
  tokenizer: 5_000,
  // Building a 150k-token vocabulary and compiling its regexes is one call.
  'tokenizer-load': 30_000,
};

export interface GuardWatcher {
  enter(kind: GuardedKind, file: string): void;
  exit(): void;
}

let watcher: GuardWatcher | null = null;
let depth = 0;

/** Installs the watcher (the model worker does, once). */
export function watchGuards(w: GuardWatcher | null): void {
  watcher = w;
}

/** Runs `fn` marked as a call into `file`; nested calls count as the outermost one. */
export function guarded<T>(kind: GuardedKind, file: string, fn: () => T): T {
  if (!watcher) return fn();
  if (depth++ === 0) watcher.enter(kind, file);
  try {
    return fn();
  } finally {
    if (--depth === 0) watcher.exit();
  }
}

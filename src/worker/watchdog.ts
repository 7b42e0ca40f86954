import { GUARD_BUDGET_MS, type GuardedKind, type GuardWatcher } from '../model/tokenizer/guard';

/**
 * The model worker marks each call into the model's template or tokenizer (model/tokenizer/guard.ts) in a shared
 * word array; the page reads it a few times a second. A call seen running past its budget means the
 * worker is stuck in it: the page ends the worker and names the file. Shared memory, not messages,
 * because a stuck worker sends none, and because a conversation makes thousands of such calls.
 */
export const KINDS: GuardedKind[] = ['template', 'tokenizer', 'tokenizer-load'];
export const FILES = ['a model file', 'tokenizer.json', 'tokenizer_config.json', 'chat_template.jinja'];
// Words: [call counter, active (0/1), kind index, file index].
const SLOTS = 4;

export function guardBuffer(): SharedArrayBuffer | null {
  // Node has SharedArrayBuffer and no crossOriginIsolated: allowed there (the CLI's watchdog thread).
  return typeof SharedArrayBuffer !== 'undefined' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== false
    ? new SharedArrayBuffer(SLOTS * 4)
    : null;
}

/** The worker's side: writes each call's start and end. */
export function sharedWatcher(buffer: SharedArrayBuffer): GuardWatcher {
  const w = new Int32Array(buffer);
  return {
    enter(kind, file) {
      Atomics.store(w, 2, KINDS.indexOf(kind));
      Atomics.store(w, 3, Math.max(0, FILES.indexOf(file)));
      Atomics.add(w, 0, 1);
      Atomics.store(w, 1, 1);
    },
    exit() {
      Atomics.store(w, 1, 0);
    },
  };
}

export interface Stuck {
  kind: GuardedKind;
  file: string;
  ms: number;
}

export const WHAT: Record<GuardedKind, string> = { template: 'the chat template', tokenizer: 'the tokenizer', 'tokenizer-load': 'building the tokenizer' };

export function stuckMessage(s: Stuck): string {
  return `${s.file}: ${WHAT[s.kind]} ran for more than ${(s.ms / 1000).toFixed(0)} s on one call and was stopped. The model was released; the conversation is kept. A template or tokenizer that takes this long is likely looping: check the file, or load another model.`;
}

/**
 * The page's side: `check(now)` returns the call that has run past its budget, if any. Pure over the
 * words and the clock, so it is tested without a worker.
 */
export function guardReader(buffer: SharedArrayBuffer, budgets: Record<GuardedKind, number> = GUARD_BUDGET_MS): { check(now: number): Stuck | null } {
  const w = new Int32Array(buffer);
  let seen = -1;
  let since = 0;
  return {
    check(now) {
      const call = Atomics.load(w, 0);
      if (Atomics.load(w, 1) === 0) {
        seen = -1;
        return null;
      }
      if (call !== seen) {
        seen = call;
        since = now;
        return null;
      }
      const kind = KINDS[Atomics.load(w, 2)] ?? 'template';
      const ms = budgets[kind];
      return now - since > ms ? { kind, file: FILES[Atomics.load(w, 3)] ?? FILES[0]!, ms } : null;
    },
  };
}

import type { Policy } from './policy';

/** Which earlier turns (1-based) the model sees before answering turn t, and what each clip cut. */
export interface History {
  visible: number[];
  /** For Clip/Summary: the turns each cut removed, oldest cut first (only cuts before turn t). */
  cuts: number[][];
}

/**
 * Paper 2's C_t^trimmed, stateful over the turns:
 *   C_t = {r_{t−L+1}, …, r_t}  if |C_{t−1}| + 1 = H,   else C_{t−1} ∪ {r_t}.
 * The model answering turn t sees C_{t−1}.
 */
export function clipHistory(h: number, l: number, t: number): History {
  let c: number[] = [];
  const cuts: number[][] = [];
  for (let k = 1; k <= t - 1; k++) {
    if (c.length + 1 === h) {
      const kept = Array.from({ length: l }, (_, i) => k - l + 1 + i).filter((r) => r >= 1);
      cuts.push([...c, k].filter((r) => !kept.includes(r)));
      c = kept;
    } else {
      c = [...c, k];
    }
  }
  return { visible: c, cuts };
}

export function visibleHistory(p: Policy, t: number): History {
  const all = Array.from({ length: t - 1 }, (_, i) => i + 1);
  const last = (n: number) => all.slice(Math.max(0, all.length - n));
  switch (p.kind) {
    case 'window':
      return { visible: last(p.w), cuts: [] };
    case 'lt':
      return { visible: last(1), cuts: [] };
    case 'de':
      return { visible: [], cuts: [] };
    case 'clip':
    case 'summary':
      return clipHistory(p.h, p.l, t);
    default:
      return { visible: all, cuts: [] };
  }
}

/**
 * Window, Clip and Summary cut nothing on a short conversation: at turn t they may keep every earlier turn,
 * and then score what Full scores. Says so, with the first turn at which they would drop one; null otherwise.
 */
export function keepsEverythingNote(p: Policy, t: number, label: string): string | null {
  if (p.kind !== 'window' && p.kind !== 'clip' && p.kind !== 'summary') return null;
  const keepsAll = (k: number) => {
    const h = visibleHistory(p, k);
    return h.visible.length === k - 1 && h.cuts.length === 0;
  };
  if (!keepsAll(t)) return null;
  let first = t + 1;
  while (keepsAll(first)) first++;
  return `${label} keeps every earlier turn at turn ${t}, so it scores what Full scores: it first drops one at turn ${first}`;
}

/** What the model sees of one earlier turn under a policy. */
export type TurnSeen = 'whole' | 'placeholder' | 'first-line' | 'summary' | 'summary-list' | 'filler' | 'dropped';

/**
 * What the model answering turn t sees of each earlier turn (index 0: turn 1), as applyPolicy writes it:
 * the turn whole, its answer replaced (a placeholder, a summary, filler), in Summary's list of cut turns, or
 * not at all.
 */
export function turnsSeen(p: Policy, t: number): TurnSeen[] {
  const { visible, cuts } = visibleHistory(p, t);
  const listed = p.kind === 'summary' ? new Set(cuts.flat()) : new Set<number>();
  const kept: TurnSeen = p.kind === 'ao' ? 'placeholder' : p.kind === 'sum' ? 'summary' : p.kind === 'filler' ? 'filler' : 'whole';
  // AO-last: every turn whole but the latest, its answer a placeholder; AO-second-last the same on the turn before it.
  const seen = (r: number): TurnSeen => (r === oneHidden(p, visible) ? (p.kind === 'cut-last' ? 'first-line' : 'placeholder') : kept);
  return Array.from({ length: Math.max(0, t - 1) }, (_, i) => (visible.includes(i + 1) ? seen(i + 1) : listed.has(i + 1) ? 'summary-list' : 'dropped'));
}

/** The one turn whose answer AO-last and Cut-last (the latest shown) or AO-second-last (the one before it) change; none for any other policy. */
export function oneHidden(p: Policy, visible: readonly number[]): number | undefined {
  return p.kind === 'ao-last' || p.kind === 'cut-last' ? visible.at(-1) : p.kind === 'ao-second-last' ? visible.at(-2) : undefined;
}

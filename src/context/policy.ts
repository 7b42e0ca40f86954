/**
 * Context policies (paper 2 §2.2, paper 1 §2 / A.3, paper 1 §4.2 for Filler), as short specs. AO-last is this tool's,
 * not a paper's: AO on the prior assistant answer just before the question only, the direct test of whether the pull sits in it; and
 * AO-second-last, its control: the same one placeholder on the answer before it, so a drop that comes from a
 * placeholder's confusion alone shows there too. Cut-last, also this tool's: the previous answer cut to its first line, a
 * second control that hides what the answer says last (in the demo's mazes its thought and move) and keeps its first line (the
 * list of cells it has been at), so the model is not left without the facts it copies.
 */
export type Policy =
  | { kind: 'full' }
  | { kind: 'window'; w: number }
  | { kind: 'clip'; h: number; l: number }
  | { kind: 'summary'; h: number; l: number }
  | { kind: 'ao' }
  | { kind: 'ao-last' }
  | { kind: 'ao-second-last' }
  | { kind: 'cut-last' }
  | { kind: 'lt' }
  | { kind: 'sum' }
  | { kind: 'de' }
  | { kind: 'filler' };

export const POLICY_SPECS = 'full, window:W, clip:H:L, summary:H:L, ao, ao-last, ao-second-last, cut-last, lt, sum, de, filler';

/** The numbers of the policies that take them: Window's W, and Clip's and Summary's H (cut at) and L (back to). */
export interface PolicyNumbers {
  window: number;
  clipAt: number;
  clipTo: number;
}

/** The papers' settings: Window-6, Clip-12→1, Summary-12→1. */
export const PAPER_NUMBERS: PolicyNumbers = { window: 6, clipAt: 12, clipTo: 1 };

/** Every policy, with these numbers: the policy bar's buttons and the rows of the table of what each policy keeps. */
export const policySpecs = (n: PolicyNumbers): string[] => [
  'full',
  `window:${n.window}`,
  `clip:${n.clipAt}:${n.clipTo}`,
  `summary:${n.clipAt}:${n.clipTo}`,
  'ao',
  'ao-last',
  'ao-second-last',
  'cut-last',
  'lt',
  'sum',
  'de',
  'filler',
];

/** Whether every policy accepts these numbers: whole, W ≥ 0, H ≥ 1 and 0 ≤ L < H (as parsePolicy asks). */
export const numbersValid = (n: PolicyNumbers): boolean =>
  [n.window, n.clipAt, n.clipTo].every((v) => Number.isInteger(v) && v >= 0) && n.clipAt >= 1 && n.clipTo < n.clipAt;

/** The numbers with those of `spec` taken over (a Window, Clip or Summary spec; any other leaves them as they are). */
export function withNumbersOf(n: PolicyNumbers, spec: string): PolicyNumbers {
  const p = parsePolicy(spec);
  if (p.kind === 'window') return { ...n, window: p.w };
  if (p.kind === 'clip' || p.kind === 'summary') return { ...n, clipAt: p.h, clipTo: p.l };
  return n;
}

/** Parses `full`, `window:6`, `clip:12:1`, … or throws naming the spec and what is wrong. */
export function parsePolicy(spec: string): Policy {
  const [name, ...args] = spec.trim().toLowerCase().split(':');
  const ints = (n: number) => {
    if (args.length !== n) throw new RangeError(`policy "${spec}": ${name} takes ${n} number${n > 1 ? 's' : ''} (${POLICY_SPECS})`);
    return args.map((a) => {
      const v = Number(a);
      if (!Number.isInteger(v) || v < 0) throw new RangeError(`policy "${spec}": "${a}" is not a whole number ≥ 0`);
      return v;
    });
  };
  switch (name) {
    case 'full':
    case 'ao':
    case 'ao-last':
    case 'ao-second-last':
    case 'cut-last':
    case 'lt':
    case 'sum':
    case 'de':
    case 'filler':
      ints(0);
      return { kind: name };
    case 'window':
      return { kind: 'window', w: ints(1)[0]! };
    case 'clip':
    case 'summary': {
      const [h, l] = ints(2) as [number, number];
      if (h < 1 || l >= h) throw new RangeError(`policy "${spec}": needs H ≥ 1 and 0 ≤ L < H`);
      return { kind: name, h, l };
    }
    default:
      throw new RangeError(`unknown policy "${spec}" (${POLICY_SPECS})`);
  }
}

/** The spec string of a policy (inverse of parsePolicy). */
export function policySpec(p: Policy): string {
  if (p.kind === 'window') return `window:${p.w}`;
  if (p.kind === 'clip' || p.kind === 'summary') return `${p.kind}:${p.h}:${p.l}`;
  return p.kind;
}

/** The papers' names: Full, Window-6, Clip-12→1, Summary-12→1, AO, LT, SUM, DE, Filler; and this tool's AO-last, AO-second-last and Cut-last. */
export function policyLabel(p: Policy): string {
  switch (p.kind) {
    case 'full':
      return 'Full';
    case 'window':
      return `Window-${p.w}`;
    case 'clip':
      return `Clip-${p.h}→${p.l}`;
    case 'summary':
      return `Summary-${p.h}→${p.l}`;
    case 'filler':
      return 'Filler';
    case 'ao-last':
      return 'AO-last';
    case 'ao-second-last':
      return 'AO-second-last';
    case 'cut-last':
      return 'Cut-last';
    default:
      return p.kind.toUpperCase();
  }
}

/**
 * What a policy keeps, in a few plain words, beside its name where a newcomer meets the acronyms (the table of
 * what each policy lets the model see): "its own answers hidden" for AO.
 */
export function policyGist(p: Policy): string {
  switch (p.kind) {
    case 'full':
      return 'the whole conversation';
    case 'window':
      return `the last ${p.w} turns`;
    case 'clip':
      return `grows to ${p.h} turns, then keeps only the newest${p.l === 1 ? '' : ` ${p.l}`} and grows again`;
    case 'summary':
      return 'as Clip, plus a summary of what was cut';
    case 'ao':
      return 'its own answers hidden';
    case 'ao-last':
      return 'only its previous answer hidden';
    case 'ao-second-last':
      return 'only the answer two turns back hidden';
    case 'cut-last':
      return 'its previous answer cut to its first line';
    case 'lt':
      return 'only the turn before';
    case 'sum':
      return 'its answers as summaries';
    case 'de':
      return 'no earlier turn';
    case 'filler':
      return 'its answers as filler words';
  }
}

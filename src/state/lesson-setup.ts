import { PAPER_NUMBERS, type PolicyNumbers, parsePolicy, policyLabel } from '../context/policy';
import { EXAMPLES } from './examples';
import { useInspector } from './inspector-store';
import { resetHover } from './hover-store';

/**
 * What a lesson step needs on screen when it is entered, whatever the step before left: the example, the
 * policy, the turn, the models compared, the grids shown. Every step starts from its own state, so its
 * texts and its reveal compare what they say they compare.
 */
export interface LessonSetup {
  example: string;
  policy: string;
  /** Policies shown beside it (a recap reads their figures too). */
  also?: string[];
  /** null: the last turn. */
  turn: number | null;
  compareModels?: boolean;
  /** The layers × heads grid (and switching heads off). */
  heads?: boolean;
  /** The table of what each policy keeps. */
  contexts?: boolean;
  /** Window's W and Clip's and Summary's H and L (the papers' unless given). */
  numbers?: PolicyNumbers;
  /** The list of turns, open to read (closed otherwise: it makes the page long). */
  turns?: boolean;
}

/** The setup in one line, as the card says it. */
export function setupLine(s: LessonSetup): string {
  const example = EXAMPLES.find((e) => e.name === s.example)?.title.replace(/ \(.*\)$/, '') ?? s.example;
  const parts = [
    example,
    [s.policy, ...(s.also ?? [])].map((p) => (p === 'full' ? 'Full (the whole conversation)' : policyLabel(parsePolicy(p)))).join(' and '),
    s.turn === null ? 'last answer' : `turn ${s.turn}`,
    s.compareModels ? 'compare models on' : '',
    s.heads ? 'every head on' : '',
    // Window's and Clip's numbers are not said: the policy buttons and the table name them, and a step that only
    // reads AO would be told of policies it never uses.
  ].filter(Boolean);
  return `This step starts from: ${parts.join(' · ')}.`;
}

/** Sets the page to a step's setup (only what differs: an analysis already on screen is kept). */
export function applySetup(s: LessonSetup): void {
  const example = EXAMPLES.find((e) => e.name === s.example);
  if (!example) throw new RangeError(`lesson setup names no example "${s.example}"`);
  // A cell pointed at in the step before (the sink, a move) is that step's: each step starts with none.
  resetHover();
  const st = useInspector.getState();
  const want = {
    policies: [s.policy, ...(s.also ?? [])],
    compare: (s.also?.length ?? 0) > 0,
    compareModels: s.compareModels === true,
    turn: s.turn,
    heads: s.heads === true,
    contexts: s.contexts === true,
    turnsOpen: s.turns === true,
    // Every step reads the final layer's head mean unless it asks for a head.
    layer: null,
    head: 'mean' as const,
    policyNumbers: s.numbers ?? PAPER_NUMBERS,
  };
  // Every field of `want` as the page has it (the first policy is the one shown), no answer written, no head off.
  const same =
    st.text === example.text &&
    (Object.keys(want) as (keyof typeof want)[]).every((k) =>
      k === 'policies'
        ? want.compare
          ? st.policies.join() === want.policies.join()
          : st.policies[0] === s.policy
        : k === 'policyNumbers'
          ? sameNumbers(st.policyNumbers, want.policyNumbers)
          : st[k] === want[k],
    ) &&
    st.off.length === 0 &&
    st.generated.every((g) => Object.keys(g).length === 0);
  if (same) return;
  st.stopGeneration();
  // The text goes through the conversation slice (it parses it); then the view, in one change.
  if (st.text !== example.text) st.setText(example.text, true);
  useInspector.setState({ ...want, generated: [], off: [], offAnswers: null });
  useInspector.getState().scheduleAnalysis(0);
}

const sameNumbers = (a: PolicyNumbers, b: PolicyNumbers): boolean => a.window === b.window && a.clipAt === b.clipAt && a.clipTo === b.clipTo;

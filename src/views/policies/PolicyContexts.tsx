import { turnsSeen, type TurnSeen } from '../../context/history';
import { parsePolicy, policyGist, policyLabel, policySpecs } from '../../context/policy';
import { useInspector } from '../../state/inspector-store';
import { scoredTurn } from '../../state/inspector/types';
import { Explain } from '../explain/Explain';
import { isQuiet, useLesson } from '../../state/lesson-store';
import { policiesMet } from '../lesson/policies-met';

/** Each kind of what the model sees of a turn: its mark in the table (a full dot for a whole turn, no letter a reader takes for "assistant") and its words. */
const SEEN: Record<TurnSeen, { mark: string; words: string }> = {
  whole: { mark: '●', words: 'whole (the user turn and the answer)' },
  placeholder: {
    mark: 'P',
    words: 'the user turn; the answer replaced by a placeholder (AO also adds a line to the system prompt, so it may read more tokens than Full)',
  },
  'first-line': { mark: '1', words: 'the user turn; the answer cut to its first line' },
  summary: { mark: 'S', words: 'the user turn; the answer replaced by a one-sentence summary' },
  'summary-list': { mark: 'Σ', words: 'in a list of summaries of the turns cut' },
  filler: { mark: 'F', words: 'the user turn; the answer replaced by neutral text of the same length' },
  dropped: { mark: '·', words: 'not at all' },
};

/** "turns 8–13 whole; turns 1–7 not at all": a row of the table in words (its accessible name). */
export function seenInWords(seen: TurnSeen[]): string {
  const runs: { kind: TurnSeen; from: number; to: number }[] = [];
  seen.forEach((kind, i) => {
    const last = runs[runs.length - 1];
    if (last && last.kind === kind) last.to = i + 1;
    else runs.push({ kind, from: i + 1, to: i + 1 });
  });
  if (!runs.length) return 'no earlier turn';
  return runs.map((r) => `${r.from === r.to ? `turn ${r.from}` : `turns ${r.from}–${r.to}`} ${SEEN[r.kind].words}`).join('; ');
}

/**
 * Every policy side by side for the scored turn: what the model sees of each earlier turn, and how many
 * tokens it reads before answering (from the model's tokenizer and chat template, sent by the worker).
 * A click on a policy's name scores the answer under it.
 */
export function PolicyContexts() {
  const shown = useInspector((s) => s.contexts);
  const setShown = useInspector((s) => s.setContextsShown);
  const turn = useInspector((s) => scoredTurn(s));
  const results = useInspector((s) => s.results);
  const costs = useInspector((s) => s.contextCosts);
  const text = useInspector((s) => s.text);
  const setPolicy = useInspector((s) => s.setPolicy);
  const current = useInspector((s) => s.policies[0]);
  const numbers = useInspector((s) => s.policyNumbers);
  // In the lesson's two policy steps, only the rows the card has named so far.
  const lessonStep = useLesson((s) => (isQuiet(s) ? s.step : null));
  const met = policiesMet(lessonStep);
  const specs = policySpecs(numbers).filter((spec) => !met || met(spec));
  const tokensOf = (spec: string): number | null => {
    if (turn === null) return null;
    const r = results.find((x) => !x.slot && x.policy === spec && x.turn === turn);
    const own = r?.cost.find((c) => c.turn === turn);
    if (own) return own.contextTokens;
    return costs.of === `${turn}|${text}` ? (costs.costs[spec]?.[turn - 1]?.contextTokens ?? null) : null;
  };
  return (
    <details open={shown} onToggle={(e) => e.currentTarget.open !== shown && setShown(e.currentTarget.open)} data-testid="policy-contexts">
      <summary>What each policy lets the model see, side by side</summary>
      {shown && turn !== null && (
        <>
          <p className="muted">
            Answering turn {turn}, the model sees this of each earlier turn (the system prompt and turn {turn}'s own question always). Click a policy to score
            the answer under it. <Explain id="policies" />
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways takes the focus, so a keyboard can scroll it */}
          <section className="scroll-x" tabIndex={0} aria-label="what each policy keeps">
            <table className="contexts">
              <thead>
                <tr>
                  <th scope="col">policy</th>
                  <th scope="col">tokens read</th>
                  <th scope="col">turns 1–{turn - 1}</th>
                  <th scope="col" className="gist">
                    in short
                  </th>
                </tr>
              </thead>
              <tbody>
                {specs.map((spec) => {
                  const policy = parsePolicy(spec);
                  const seen = turnsSeen(policy, turn);
                  const tokens = tokensOf(spec);
                  return (
                    <tr key={spec} data-testid={`contexts-${spec}`}>
                      <th scope="row">
                        <button
                          type="button"
                          className={`policy${current === spec ? ' on' : ''}`}
                          aria-pressed={current === spec}
                          onClick={() => setPolicy(spec)}
                        >
                          {policyLabel(policy)}
                        </button>
                        {/* On a phone the table scrolls sideways: the words sit under the name instead of in their column. */}
                        <small className="muted gist-under">{policyGist(policy)}</small>
                      </th>
                      {/* The tokens before the marks: on a phone the marks scroll sideways, the count stays in view. */}
                      <td className="num" data-testid={`contexts-${spec}-tokens`}>
                        {tokens === null ? '…' : tokens.toLocaleString('en')}
                      </td>
                      <td>
                        <span className="seen" role="img" aria-label={seenInWords(seen)}>
                          {seen.map((k, i) => (
                            <span key={i} className={`seen-${k}`} title={`turn ${i + 1}: ${SEEN[k].words}`}>
                              {SEEN[k].mark}
                            </span>
                          ))}
                        </span>
                      </td>
                      <td className="muted small gist">{policyGist(policy)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
          <p className="muted small">
            {/* Only the marks the rows use: a key entry for a row not shown would name what is not there. */}
            {(Object.keys(SEEN) as TurnSeen[])
              .filter((k) => specs.some((spec) => turnsSeen(parsePolicy(spec), turn).includes(k)))
              .map((k) => (
                <span key={k} className="seen-key">
                  <span className={`seen-${k}`}>{SEEN[k].mark}</span> {SEEN[k].words}
                </span>
              ))}
          </p>
        </>
      )}
    </details>
  );
}

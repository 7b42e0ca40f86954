import type { PolicyResult } from '../../analysis/analyze';
import { Explain } from '../explain/Explain';

/** What the answer cost the model, in words: the tokens it reads first, with the answer, and those computed anew. */
export function CostLine({ r }: { r: PolicyResult }) {
  const last = r.cost[r.cost.length - 1]!;
  return (
    <p className="muted cost-line" data-testid="figure-cost">
      {/* In words, not labels: what a newcomer stopped at was "prefilled" and "in context". */}
      Before it answers, the model reads <strong className="num">{last.contextTokens}</strong> tokens
      <Explain id="context" />, <strong className="num">{r.tokens.length}</strong> with the answer
      <Explain id="tokens" />; of those it reads, <strong className="num">{last.prefilled}</strong> must be computed anew (the prefill), the rest it can keep
      from the turn before
      <Explain id="prefilled" />.
    </p>
  );
}

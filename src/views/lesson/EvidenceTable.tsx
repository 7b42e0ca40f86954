import { type EvidenceRow, QUESTIONS } from './evidence';
import { stepNo } from './order';

/** A gap with its sign, as the table reads it: "+46", "−3". */
const signed = (n: number): string => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/**
 * The check's fold: every comparison the lesson makes, under the question it answers, with its luck alone and counted
 * with the other comparisons of that question (Holm's correction), so a reader sees in one place which findings hold.
 */
export function EvidenceTable({ rows }: { rows: EvidenceRow[] }) {
  return (
    // Five columns do not fit a phone's width: there each row stacks its cells, each named (styles.css).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must take the focus, so a keyboard can scroll it
    <section className="lesson-evidence-box" tabIndex={0} aria-label="How sure is each finding">
      <table className="lesson-counts lesson-evidence" data-testid="lesson-evidence">
        <caption>
          How sure is each finding? The comparisons the lesson's findings rest on, under the question each answers. The gap: on how many more turns (or mazes)
          the first does what is counted than the second, of those where both make a move, so it is a count, not the per-cent gap of the cards; in brackets,
          where 95 % of 10,000 redraws of the mazes put it. Luck: how often luck alone would give the gap, were the two alike; then the same counting the other
          comparisons made for that question (Holm's correction).
        </caption>
        <thead>
          <tr>
            <th scope="col">compared (what is counted)</th>
            <th scope="col">only the first / only the second</th>
            <th scope="col">gap (95 % range)</th>
            <th scope="col">luck alone</th>
            <th scope="col">luck, counting its question's comparisons</th>
          </tr>
        </thead>
        {QUESTIONS.map((q) => (
          <tbody key={q}>
            <tr>
              <th scope="colgroup" colSpan={5} className="lesson-evidence-question">
                {q}
              </th>
            </tr>
            {rows
              .filter((r) => r.question === q)
              .map((r) => (
                <tr key={r.compared} data-testid="lesson-evidence-row">
                  <th scope="row">
                    {r.compared}
                    <br />
                    <small className="muted">
                      {r.counted} · step {stepNo(r.step)}
                    </small>
                  </th>
                  <td data-label="only the first / only the second">
                    {r.onlyFirst} / {r.onlySecond}
                  </td>
                  <td data-label="gap (95 % range)">
                    {signed(r.gap)} ({signed(r.range[0])} to {signed(r.range[1])})
                  </td>
                  <td data-label="luck alone">{r.said}</td>
                  <td data-label="counted with its question">
                    {r.holmSaid}: <strong>{r.clear ? 'more than luck' : 'could be luck'}</strong>
                  </td>
                </tr>
              ))}
          </tbody>
        ))}
      </table>
    </section>
  );
}

import type { GoalChart as Chart } from './played';

/** Goals reached under each policy, as bars out of the mazes played (0 to all of them), the count and its repeats beside each. */
export function GoalChart({ chart }: { chart: Chart }) {
  return (
    <figure className="bar-chart" data-testid="lesson-goals">
      <figcaption>{chart.caption}</figcaption>
      {chart.rows.map((r) => (
        <div className="bar-row share-row" key={r.label} data-testid="lesson-goals-row">
          <span>{r.label}</span>
          <span className="bar-track" role="img" aria-label={`goal reached in ${r.reached} of ${r.mazes} mazes`}>
            <span className="bar-share" style={{ width: `${(100 * r.reached) / (r.mazes || 1)}%` }} />
          </span>
          <span>
            <strong>{r.reached}</strong>
            <small className="muted">of {r.mazes}</small>
            <small className="muted" data-testid="lesson-goals-repeats">
              repeats {r.repeats}&nbsp;%
            </small>
          </span>
        </div>
      ))}
      <p className="bar-key">the bars run from none of the mazes to all of them</p>
    </figure>
  );
}

import { showToken } from './show-token';
import { type Bars, finePercent, percent, unbroken } from './world';

/**
 * A reveal's key shares as bars, each with a dark mark at what looking at every token equally would give the
 * same tokens: the yardstick the card's words read the share against, drawn. The bars run from 0 to 100 %, said
 * in the key.
 */
export function RevealBars({ bars }: { bars: Bars }) {
  // One scale for every chart, 0 to 100 %: a scale fitted to each made a 19 % bar look nearly full, and a second scale
  // (0 to 50 %) read as the same one to a newcomer going from chart to chart.
  const at = (v: number) => `${Math.min(100, v * 100)}%`;
  return (
    <figure className="bar-chart" data-testid="lesson-bars">
      <figcaption>{bars.caption}</figcaption>
      {bars.rows.map((r) => (
        <div className="bar-row share-row" key={r.label} data-testid="lesson-bars-row">
          <span>
            {r.label}
            {/* A token far from the part of the page in view: one click brings it there. The click keeps the focus
                where it is (on the token pointed at), so the shading stays that token's. */}
            {r.at !== undefined && (
              <>
                {' '}
                <button
                  type="button"
                  className="link"
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => showToken(r.at!)}
                  aria-label={`show ${r.label} on the page`}
                >
                  show
                </button>
              </>
            )}
          </span>
          <span className="bar-track" role="img" aria-label={`${percent(r.value)}; looking at every token equally: ${finePercent(r.even)}`}>
            <span className="bar-share" style={{ width: at(r.value) }} />
            <span className="bar-mark" style={{ left: at(r.even) }} />
          </span>
          <span>
            <strong>{unbroken(percent(r.value))}</strong>
            <small className="muted">even share {unbroken(finePercent(r.even))}</small>
          </span>
        </div>
      ))}
      <p className="bar-key">
        <span className="bar-swatch bar-swatch-mark" /> even share: looking at every token equally · the bars run from 0 to 100&nbsp;%
      </p>
    </figure>
  );
}

import { showToken } from './show-token';
import { type Bars, percent, unbroken } from './world';

/**
 * A reveal's key shares as bars, each with a dark mark at what looking at every token equally would give the
 * same tokens: the yardstick the card's words read the share against, drawn. The bars run to 50 % or to 100 %
 * (past 50 %), said in the key.
 */
export function RevealBars({ bars }: { bars: Bars }) {
  const top = Math.max(...bars.rows.flatMap((r) => [r.value, r.even]));
  // Two scales only, half and whole: a scale fitted to each chart made a 19 % bar look nearly full.
  const scale = top <= 0.5 ? 0.5 : 1;
  const at = (v: number) => `${Math.min(100, (v / scale) * 100)}%`;
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
          <span className="bar-track" role="img" aria-label={`${percent(r.value)}; looking at every token equally: ${percent(r.even)}`}>
            <span className="bar-share" style={{ width: at(r.value) }} />
            <span className="bar-mark" style={{ left: at(r.even) }} />
          </span>
          <span>
            <strong>{unbroken(percent(r.value))}</strong>
            <small className="muted">chance {unbroken(percent(r.even))}</small>
          </span>
        </div>
      ))}
      <p className="bar-key">
        <span className="bar-swatch bar-swatch-mark" /> chance: looking at every token equally · the bars run from 0 to {Math.round(scale * 100)}&nbsp;%
      </p>
    </figure>
  );
}

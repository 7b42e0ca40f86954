import { LUCK_LINE, luckWord } from './wall-counts';
import type { LuckRow } from './world';

/** The meter's ends: luck alone giving the gap 1 time in 2 (left) and 1 time in 1,000 or rarer (right). */
const EASY = 2;
const RARE = 1000;

/** Where a chance of p sits on the meter, from 0 (1 time in 2) to 1 (1 time in 1,000 or rarer), on a log scale. */
export function luckX(p: number): number {
  const x = (Math.log(1 / Math.max(p, 1e-12)) - Math.log(EASY)) / (Math.log(RARE) - Math.log(EASY));
  return Math.min(1, Math.max(0, x));
}

/** The test's p-value as a researcher reads it, beside the words: "p = 0.004", "p < 0.001". */
export function pValue(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  // Two digits near the line (0.052 is not 0.05): a reader saw "p = 0.05" called luck beside a line at 1 in 20.
  return `p = ${p >= 0.1 ? p.toFixed(2) : p >= 0.01 ? p.toPrecision(2) : p.toPrecision(1)}`;
}

/**
 * Every comparison a step makes on one meter, with one line on it: how often luck alone would give the gap were the
 * two alike; right of the line (1 time in 20) the gap is more than luck. One picture, so the steps' "1 time in N"
 * read as places on one scale, not as different rules.
 */
export function LuckMeter({ rows, taught = true }: { rows: LuckRow[]; taught?: boolean }) {
  const line = `${(luckX(1 / LUCK_LINE) * 100).toFixed(1)}%`;
  return (
    <figure className="bar-chart luck-meter" data-testid="lesson-luck">
      <figcaption>Could the gap be luck? How often luck alone would give a gap this size, were the two alike</figcaption>
      {rows.map((r) => (
        <div className="luck-row" key={r.label} data-testid="lesson-luck-row">
          <span className="luck-label">{r.label}</span>
          <span className="luck-track" role="img" aria-label={`${r.said}: ${luckWord(r.clear)}`}>
            <span className="luck-clear" style={{ left: line }} />
            <span className="luck-dot" style={{ left: `${(luckX(r.p) * 100).toFixed(1)}%` }} />
          </span>
          {/* The dot's place in words too: the figure a reader would otherwise read off a log scale. */}
          <strong>
            {luckWord(r.clear)}
            <small className="luck-said">{r.said}</small>
            {/* The figure itself, for the reader who reports it (a researcher asked for it beside "1 time in N"). */}
            <small className="luck-said muted">{pValue(r.p)}</small>
          </strong>
        </div>
      ))}
      <p className="luck-row luck-scale" aria-hidden="true">
        <span className="luck-ticks">
          <span style={{ left: 0 }}>1 in 2</span>
          <span style={{ left: line }}>1 in {LUCK_LINE}</span>
          <span style={{ right: 0 }}>1 in 1,000</span>
        </span>
      </p>
      {/* The coin toss told once, where the meter is first met; after it, the line's rule alone. */}
      <p className="bar-key">
        {taught &&
          'If the two made no difference, each turn where only one of them does it would be a coin toss (a paired sign test). The dot: how rarely coin tosses alone split this unevenly, from 1 time in 2 at the left to 1 in 1,000 at the right. '}
        A dot in the hatched part, right of the line (rarer than 1 time in {LUCK_LINE}): more than luck.
        {rows.map((r) => (r.note ? ` ${r.note}` : '')).join('')}
      </p>
    </figure>
  );
}

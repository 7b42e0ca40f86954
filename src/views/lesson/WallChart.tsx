import { Fragment } from 'react';
import type { Board } from './wall-counts';

/**
 * The running count at the wall as bars: for each writer the learner has met, the share of turns right after a
 * wall where it walks back into it, takes an open way, runs into another wall or makes no move. The dark mark is the rate with no history
 * (DE): the part of a bar past it is what the history adds.
 */
export function WallChart({ board }: { board: Board }) {
  return (
    <figure className="bar-chart" data-testid="lesson-board">
      <figcaption>
        Right after hitting a wall, what it does next ({board.turns} turns in {board.episodes} mazes it played)
      </figcaption>
      {board.rows.map((r) => (
        <div className="bar-row" key={r.label} data-testid="lesson-board-row">
          <span>{r.label}</span>
          <span
            className="bar-track"
            role="img"
            aria-label={`${r.repeats} % back into the wall, ${r.open} % an open way${r.noMove ? `, ${r.noMove} % no move` : ''}`}
          >
            <span className="wall-repeat" style={{ width: `${r.repeats}%` }} />
            <span className="wall-open" style={{ width: `${r.open}%` }} />
            {/* At the bar's far end, so the grey between is another wall alone. */}
            {r.noMove > 0 && <span className="wall-none" style={{ width: `${r.noMove}%` }} />}
            <span className="bar-mark" style={{ left: `${board.noHistory}%` }} />
          </span>
          <strong>{r.repeats}&nbsp;%</strong>
        </div>
      ))}
      <p className="bar-key">
        {/* Each swatch kept on one line with its words. */}
        {(
          [
            ['wall-repeat', 'back into the wall'],
            ['wall-open', 'an open way'],
            ['wall-other', 'another wall'],
            ['wall-none', 'no move'],
          ] as const
        ).map(([swatch, words]) => (
          <Fragment key={swatch}>
            <span className="bar-key-item">
              <span className={`bar-swatch ${swatch}`} /> {words}
            </span>{' '}
          </Fragment>
        ))}
      </p>
      <p className="bar-key">
        <span className="bar-swatch bar-swatch-mark" /> the rate with no history (DE): the part of a bar past it is what the history adds
      </p>
    </figure>
  );
}

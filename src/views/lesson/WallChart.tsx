import { Fragment } from 'react';
import type { Board } from './wall-counts';
import { unbroken } from './world';

/**
 * The running count at the wall as bars: for each writer the learner has met, where its move goes right after a
 * wall, among the answers that make a move (back into the wall, an open way, another wall); the share of answers
 * with no move at all is said beside the figure. The dark mark is the rate with no history (DE): the part of a bar
 * past it is what the history adds.
 */
export function WallChart({ board }: { board: Board }) {
  return (
    <figure className="bar-chart" data-testid="lesson-board">
      <figcaption>
        {board.caption ??
          `Where its next move goes right after a wall: the ${board.turns} such turns Full reached ${board.mazes ? `in ${board.mazes} of ${board.episodes} mazes` : `in ${board.episodes} mazes`}, answered again under each policy`}
      </figcaption>
      {board.rows.map((r) => (
        <div className="bar-row share-row" key={r.label} data-testid="lesson-board-row">
          <span>{r.label}</span>
          <span
            className="bar-track"
            role="img"
            aria-label={`${r.repeats} % into the same wall again, ${r.open} % an open way${r.noMove > 0 ? `; ${r.noMove} % of answers make no move` : ''}`}
          >
            <span className="wall-repeat" style={{ width: `${r.repeats}%` }} />
            <span className="wall-open" style={{ width: `${r.open}%` }} />
            {board.noHistory !== null && <span className="bar-mark" style={{ left: `${board.noHistory}%` }} />}
          </span>
          <span>
            <strong>{r.figure ? unbroken(r.figure) : <>{r.repeats}&nbsp;%</>}</strong>
            {r.counted && (
              <small className="muted" data-testid="lesson-board-counted">
                {unbroken(r.counted)}
              </small>
            )}
            {r.noMove > 0 && <small className="muted">{r.noMove}&nbsp;% no move</small>}
          </span>
        </div>
      ))}
      <p className="bar-key">
        {/* Each swatch kept on one line with its words. */}
        {(
          [
            ['wall-repeat', board.repeatKey ?? 'into the same wall again'],
            ['wall-open', 'an open way'],
            ['wall-other', 'another wall the user named'],
          ] as const
        ).map(([swatch, words]) => (
          <Fragment key={swatch}>
            <span className="bar-key-item">
              <span className={`bar-swatch ${swatch}`} /> {words}
            </span>{' '}
          </Fragment>
        ))}
      </p>
      {board.noHistory !== null && (
        <p className="bar-key">
          <span className="bar-swatch bar-swatch-mark" /> the rate with no history (DE): the part of a bar past it is what the history adds
        </p>
      )}
      {/* "11 % no move" beside a bar: said once what it is, so the bars' base is not a puzzle. */}
      {board.rows.some((r) => r.noMove > 0) && <p className="bar-key muted">"no move": answers that name no move, left out of the bar.</p>}
    </figure>
  );
}

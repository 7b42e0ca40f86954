/** One cell's side in the sketch, in CSS pixels. */
const CELL = 12;
const ROWS = 6;
const COLS = 8;
/** The band's cells in a row: the dotted centre's and one either side (its edges drawn half of it off the centre). */
const BAND = 3;

/**
 * What to look for in the heatmap, drawn above it: a made-up word-for-word copy (row i reads the earlier
 * answer's token i: a bright line on the dotted centre, inside the band) beside an upright stripe (one token every
 * row reads). A drawing, said so in its caption: the figures come from the model on the page, never from here.
 */
export function CopySketch() {
  const grid = (bright: (row: number, col: number) => boolean, band: boolean) => (
    <svg width={COLS * CELL + 2} height={ROWS * CELL + 2} viewBox={`-1 -1 ${COLS * CELL + 2} ${ROWS * CELL + 2}`} aria-hidden="true">
      {Array.from({ length: ROWS * COLS }, (_, k) => {
        const [row, col] = [Math.floor(k / COLS), k % COLS];
        return <rect key={k} x={col * CELL} y={row * CELL} width={CELL} height={CELL} className={bright(row, col) ? 'sketch-hot' : 'sketch-cold'} />;
      })}
      {/* The dotted centre (token i reads token i) and the band's edges, one token either side of it. */}
      <line x1={0} y1={0} x2={ROWS * CELL} y2={ROWS * CELL} className="sketch-centre" />
      {band && (
        <>
          <line x1={(BAND / 2) * CELL} y1={0} x2={(ROWS + BAND / 2) * CELL} y2={ROWS * CELL} className="sketch-band" />
          <line x1={0} y1={(BAND / 2) * CELL} x2={(ROWS - BAND / 2) * CELL} y2={ROWS * CELL} className="sketch-band" />
        </>
      )}
    </svg>
  );
  return (
    <figure className="copy-sketch" data-testid="lesson-copy-sketch">
      <div>
        {grid((r, c) => r === c, true)}
        <small>copies in order</small>
      </div>
      <div>
        {grid((_, c) => c === 5, true)}
        <small>an upright stripe</small>
      </div>
      <figcaption>
        A drawing of what to look for, not the model. Rows: the new answer's tokens; columns: a prior assistant answer's; brighter = more attention. In copies
        in order, the 1st token reads that answer's 1st, the 2nd its 2nd…: a bright line along the dotted centre, inside the pink band. A stripe is one token
        every row reads; the band counts it only where it crosses. An even share is the band's part of a row: in this drawing, {BAND} cells of {COLS}.
      </figcaption>
    </figure>
  );
}

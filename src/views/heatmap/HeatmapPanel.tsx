import { resultId } from '../result-id';
import { useDeferredValue, useEffect, useMemo, useReducer, useState } from 'react';
import type { PolicyResult } from '../../analysis/analyze';
import { CATEGORIES } from '../../metrics/categories';
import { hoverReducer, NO_HOVER } from '../../state/hover-lock';
import { useHover } from '../../state/hover-store';
import { useInspector } from '../../state/inspector-store';
import { Heatmap, shownSlab } from './Heatmap';
import { scaleMax } from '../../palette';
import { SINK_TOKENS } from '../../context/render';
import { CATEGORY_COLORS, CATEGORY_NAMES, LEGEND_GRADIENT } from '../../palette';
import { Explain } from '../explain/Explain';
import { useQuiet, useLesson } from '../../state/lesson-store';
import { LESSON } from '../lesson/steps';
import { bandLine, brighterMarker, tailRow } from '../lesson/attention-reveals';
import { stripeCell } from '../lesson/heatmap-reveal';
import { brightestCopy } from '../lesson/copy-run';
import type { CellMark, RowSplit } from './paint';
import { CopySketch } from '../lesson/CopySketch';

/** One heatmap per shown policy (side by side in compare mode); the first follows the shared hover. */
export function HeatmapPanel() {
  // Deferred, as the token view: the figures first, the heatmaps in the frame after.
  const results = useDeferredValue(useInspector((s) => s.results));
  const head = useInspector((s) => s.head);
  const hover = useHover((s) => s.hover);
  const dispatch = useHover((s) => s.dispatch);
  const withAttention = useMemo(() => results.filter((r) => r.attention), [results]);
  const [oneScale, setOneScale] = useState(true);
  // The lesson's heatmap, diagonal and Filler steps open the heatmap on the last prior assistant answer, in square cells: Full's band
  // and Filler's, side by side, in the same view.
  const opensOn = useLesson((s) => {
    const id = s.step === null ? undefined : LESSON[s.step]?.id;
    return id === 'heatmap' || id === 'diagonal' || id === 'filler' ? 'last-prior' : null;
  });
  // There, a maze answer's rows split where its thought and move start: the reveal's parts, seen on the picture.
  // Found once per result, not on every hover (the panel re-renders as the pointer moves).
  const tails = useMemo(() => (opensOn ? withAttention.map((r) => tailRow(r)) : []), [withAttention, opensOn]);
  // The brightest copy in the band is locked: outlined, and read out under the heatmap, so one bright cell of the band
  // is seen for what it is (an answer token reading the same word). Before the guess too: readers asked to see a real
  // copy before judging the band; it shows what to look for, not how much of it there is.
  const guessed = useLesson((s) => s.guesses.diagonal !== undefined);
  // The split is drawn with the reveal that reads it: before the guess the picture holds the band alone.
  const rowSplit = (r: PolicyResult, k: number): RowSplit | null => {
    const row = guessed ? (tails[k] ?? 0) : 0;
    return row > 0 && row < r.query.end - r.query.start ? { row, above: 'list of cells', below: 'thought and move' } : null;
  };
  const first = withAttention[0];
  const lastPriorTurn = first?.messages.filter((m) => m.category === 'prior').at(-1)?.turn ?? null;
  const copy = useMemo(() => (opensOn && first ? brightestCopy(first, tails[0]) : null), [opensOn, first, tails]);
  // Where the copy runs against the dotted centre, said once the guess is in: a reader looks for it on the line.
  const rightOfCentre = useMemo(() => opensOn !== null && guessed && first !== undefined && (bandLine(first) ?? 0) >= 1, [opensOn, guessed, first]);
  // The copy's cell in the drawn matrix: named by an arrow that stays when the reader locks another, and locked.
  const mark = useMemo(
    (): CellMark | null => (copy && first ? { cell: { row: copy.q - shownSlab(first, head).rowStart, col: copy.k }, label: 'a real copy' } : null),
    [copy, first, head],
  );
  // The brightest stripe the heatmap step names, pointed at where it is brightest (no box: a column, not a cell), so the
  // reader finds the stripe the card names among the bright ones (readers could not tell which).
  const stripe = useMemo((): CellMark | null => {
    const at = opensOn && first ? stripeCell(first) : null;
    return at && first ? { cell: { row: at.q - shownSlab(first, head).rowStart, col: at.k }, label: 'a stripe' } : null;
  }, [opensOn, first, head]);
  useEffect(() => {
    // Locked, not clicked: a click on the cell already locked (the same copy in a new pass) would free it.
    if (mark) dispatch({ type: 'lock', at: mark.cell });
  }, [mark, dispatch]);
  // Filler beside Full: what it is, said where its heatmap stands (the card's words are spent on the band).
  const fillerBeside = opensOn !== null && withAttention[1]?.policy === 'filler';
  // The copy-aligned band is the researcher's check on shifted copies: the lesson draws the plain band only.
  const alignedBand = !useQuiet();
  // Computed once per result and head (not on every hover), and only when the scale is shared.
  const sharedMax = useMemo(
    () => (oneScale && withAttention.length > 1 ? Math.max(...withAttention.map((r) => scaleMax(shownSlab(r, head), SINK_TOKENS))) : undefined),
    [withAttention, head, oneScale],
  );
  if (!first) return null;
  return (
    <section className="panel" aria-labelledby="heatmap-title">
      <h2 id="heatmap-title">
        Attention of the scored answer
        <Explain id="heatmap" />
      </h2>
      <div className="row legend">
        {/* The strips along the top and left edges: said what they are, or they read as decoration. */}
        <span>strips on the edges, each token's kind:</span>
        {CATEGORIES.map((c) => (
          <span key={c}>
            <span className="swatch" style={{ background: CATEGORY_COLORS[c] }} /> {CATEGORY_NAMES[c]}
          </span>
        ))}
        <span>
          <span className="swatch band" /> {alignedBand ? 'r-band' : `band (within ${results[0]?.radius ?? ''} tokens)`} of the diagonal over each prior
          assistant answer (dotted: its centre, where token i looks at token i)
        </span>
        {alignedBand && withAttention.some((r) => r.copy.some((c) => c.shift !== 0)) && (
          <span data-testid="aligned-band-legend">
            <span className="swatch band aligned" /> dashed: the copy-aligned band, where the answer copies a prior assistant answer at another position
          </span>
        )}
        <span>
          weight: little <span className="ramp" style={{ background: LEGEND_GRADIENT }} /> most (dark blue, then grey, then yellow)
        </span>
        {withAttention.length > 1 && (
          <label>
            <input type="checkbox" checked={oneScale} onChange={(e) => setOneScale(e.target.checked)} data-testid="one-scale" /> one colour scale for all (off:
            each heatmap its own)
          </label>
        )}
      </div>
      {/* What to look for, drawn above the real thing: readers learned it from the drawing, so it stands where they compare. */}
      {opensOn && <CopySketch />}
      {/* The zoom's axes named on the real picture, by the strips that mark them: a reader could not tell where turn N's columns start. */}
      {opensOn && lastPriorTurn !== null && (
        <p className="muted" data-testid="lesson-axes">
          Below, rows: the answer's tokens (its strip on the left). Columns: turn {lastPriorTurn}'s answer (the prior assistant strip along the top), between
          the user messages before and after it.
        </p>
      )}
      <div className={withAttention.length > 1 ? 'compare-grid' : ''}>
        {withAttention.map((r, k) => {
          // What every heatmap of the panel shares; the first follows the page's hover, the others each their own.
          const shared: Shared = { r, head, alignedBand, opensOn, rowSplit: rowSplit(r, k), ...(sharedMax !== undefined && { sharedMax }) };
          return k === 0 ? (
            <Heatmap key={resultId(r)} hover={hover} dispatch={dispatch} mark={mark} stripe={stripe} {...shared} />
          ) : (
            <Secondary key={resultId(r)} {...shared} />
          );
        })}
      </div>
      {/* Under the pictures it reads: above them, the drawing and the heatmaps share one screen. */}
      {opensOn && first && (
        <ZoomNote
          result={first}
          guessed={guessed}
          rightOfCentre={rightOfCentre}
          copyReads={copy?.reads ?? null}
          stripe={stripe !== null}
          fillerBeside={fillerBeside}
        />
      )}
    </section>
  );
}

interface ZoomNoteProps {
  result: PolicyResult;
  guessed: boolean;
  rightOfCentre: boolean;
  /** How the boxed copy reads (null: no copy boxed). */
  copyReads: 'same' | 'next' | null;
  stripe: boolean;
  fillerBeside: boolean;
}

/** What the lesson's zoomed heatmap shows, said under it: the zoom, the split and band once guessed, the copy, the stripe, Filler. */
function ZoomNote({ result, guessed, rightOfCentre, copyReads, stripe, fillerBeside }: ZoomNoteProps) {
  // The chat format's marker before the answer, where its column is taller than the stripe's: said, so the arrow is not doubted.
  const marker = useMemo(() => brighterMarker(result), [result]);
  return (
    <p className="muted" data-testid="lesson-zoom">
      Zoomed in on the last prior assistant answer for the lesson, in square cells: a copy made token for token runs down at 45°.
      {guessed
        ? ` The white dashed line splits the answer's rows: above it, its list of cells; below, its thought and move.${rightOfCentre ? ' Its copy runs just right of the dotted line: each row, a token just written, looks at the next one to copy.' : ''} The band counts only what lies within ${result.radius} tokens of the dotted line: a copy shifted further is missed.`
        : ''}
      {copyReads
        ? ` The light-blue box and arrow: ${guessed ? 'a bright copy above the line' : 'one real copy'}, ${
            copyReads === 'next' ? 'an answer token reading, in that answer, the word it writes next' : 'an answer token reading the same word in that answer'
          }, read out under the heatmap until you point at another cell (a white box).`
        : ''}
      {stripe
        ? ` The arrow "a stripe": the word of the conversation every row of the answer reads most, where it is brightest.${
            marker !== null ? " The taller column at the answer's start is the chat format's marker before it, read more still." : ''
          }`
        : ''}
      {fillerBeside ? ' Right: Filler, the same answer with the words of its prior assistant answers swapped for filler, so nothing there can be copied.' : ''}{' '}
      "fit" shows the whole matrix.
    </p>
  );
}

type Shared = Omit<Parameters<typeof Heatmap>[0], 'hover' | 'dispatch'>;

/** A compared policy's heatmap, with its own hover; it opens on the same view as the first, so the two read alike. */
function Secondary(p: Shared) {
  const [hover, dispatch] = useReducer(hoverReducer, NO_HOVER);
  return <Heatmap hover={hover} dispatch={dispatch} {...p} />;
}

import { useRef, useState, type KeyboardEvent } from 'react';
import { hasHead, type HeadRef } from '../../analysis/ablation';
import { type Cells, cellColour } from './heads-model';

/** Lightness of a colour "rgb(r, g, b)": dark cells get light text. */
const isDark = (c: string) => {
  const [r, g, b] = (c.match(/\d+/g) ?? ['0', '0', '0']).map(Number) as [number, number, number];
  return 0.299 * r + 0.587 * g + 0.114 * b < 140;
};

/**
 * A layers × heads grid (a row per layer, the final one at the bottom as in a model's stack read top-down),
 * each cell coloured by its value: cividis from 0 to `max`, or for a difference red–blue centred on 0.
 * One tab stop; the arrow keys move between cells, Enter or a click chooses one, and hovering or focusing a
 * cell names it through `onFocusCell`. Heads switched off are crossed out.
 */
/** The marks of the lesson's two sets, beside their rings: a ring and a dashed outline alone looked alike to readers. */
export const RANK_MARK = { first: '▲', control: '▽' } as const;

export function HeadGrid({
  cells,
  max,
  diverging = false,
  off,
  label,
  onChoose,
  onFocusCell,
  testId,
  top,
  ranks,
}: {
  cells: Cells;
  max: number;
  diverging?: boolean;
  off: readonly HeadRef[];
  label: string;
  onChoose?: (head: HeadRef) => void;
  onFocusCell: (head: HeadRef | null) => void;
  testId?: string;
  /** The head with the highest figure, marked for the lesson's "take me there". */
  top?: HeadRef;
  /** Heads outlined before anything is switched off (the lesson's heads step: the 3 to switch off and the control's 3). */
  ranks?: { first: readonly HeadRef[]; control: readonly HeadRef[] };
}) {
  const [at, setAt] = useState<HeadRef>([Math.max(0, cells.length - 1), 0]);
  const ref = useRef<HTMLTableElement>(null);
  const heads = cells[0]?.length ?? 0;
  // Cells as large as a small model allows (a few heads: easy to point at, phone included), down to 14 × 12 px.
  const size = {
    width: Math.round(Math.min(44, Math.max(14, 300 / Math.max(1, heads)))),
    height: Math.round(Math.min(32, Math.max(12, 240 / Math.max(1, cells.length)))),
  };
  const colour = (v: number) => cellColour(v, max, diverging);
  // Each cell's figure written in it where the cells are wide enough: near-equal colours are hard to rank by eye.
  const written = !diverging && size.width >= 30;
  const isOff = (l: number, h: number) => hasHead(off, [l, h]);
  const focus = (l: number, h: number) => {
    const next: HeadRef = [Math.min(cells.length - 1, Math.max(0, l)), Math.min(heads - 1, Math.max(0, h))];
    setAt(next);
    ref.current?.querySelector<HTMLElement>(`[data-cell="${next[0]}.${next[1]}"]`)?.focus();
    onFocusCell(next);
  };
  const onKey = (e: KeyboardEvent) => {
    const [l, h] = at;
    const moves: Record<string, [number, number]> = { ArrowUp: [l - 1, h], ArrowDown: [l + 1, h], ArrowLeft: [l, h - 1], ArrowRight: [l, h + 1] };
    const to = moves[e.key] ?? (e.key === 'Home' ? [l, 0] : e.key === 'End' ? [l, heads - 1] : null);
    if (!to) return;
    e.preventDefault();
    focus(to[0], to[1]);
  };
  // When the pointer leaves, the readout goes back to the cell the keyboard is on, if any: on a phone the page
  // can scroll under a still pointer as a cell takes focus, and the focused cell's name must not be wiped.
  const onLeave = () => onFocusCell(ref.current?.contains(document.activeElement) ? at : null);
  return (
    <table className="head-grid" aria-label={label} ref={ref} onMouseLeave={onLeave} data-testid={testId}>
      <thead>
        <tr>
          <th scope="col" className="head-grid-layer">
            L \ H
          </th>
          {cells[0]?.map((_, h) => (
            <th scope="col" key={h} className="head-grid-head" style={{ width: size.width }}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {cells.map((row, l) => (
          <tr key={l}>
            <th scope="row" className="head-grid-layer">
              {l}
            </th>
            {row.map((v, h) => {
              const bg = colour(v);
              const crossed = isOff(l, h);
              // The highest cell is marked, not only brightest: two near-equal colours are hard to tell apart.
              const highest = top !== undefined && top[0] === l && top[1] === h;
              const rank = ranks && (hasHead(ranks.first, [l, h]) ? 'first' : hasHead(ranks.control, [l, h]) ? 'control' : undefined);
              return (
                <td key={h}>
                  <button
                    type="button"
                    data-cell={`${l}.${h}`}
                    data-top={highest ? '' : undefined}
                    data-rank={rank}
                    className={`head-cell${crossed ? ' off' : ''}${rank ? ` rank-${rank}` : ''}`}
                    tabIndex={at[0] === l && at[1] === h ? 0 : -1}
                    style={{ ...size, background: bg, color: isDark(bg) ? '#fff' : '#000' }}
                    aria-label={`layer ${l}, head ${h}: ${v.toFixed(4)}${highest ? ', the highest' : ''}${rank === 'first' ? ', among the 3 to switch off' : rank === 'control' ? ', among the control' : ''}${crossed ? ', switched off' : ''}`}
                    aria-pressed={onChoose ? crossed : undefined}
                    onKeyDown={onKey}
                    onMouseEnter={() => onFocusCell([l, h])}
                    onFocus={() => (setAt([l, h]), onFocusCell([l, h]))}
                    onClick={() => onChoose?.([l, h])}
                  >
                    {/* Spaced: run together, the two marks read as one glyph. */}
                    <span className="head-mark">{[crossed && '×', highest && '★', rank && RANK_MARK[rank]].filter(Boolean).join(' ')}</span>
                    {written && <span className="head-value">{Math.round(v * 100)}</span>}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

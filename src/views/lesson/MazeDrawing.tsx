import { cellNumber, type MazeTrail } from './maze';

/** One cell's side in the drawing, in CSS pixels. */
const CELL = 28;

/** The answers' lists are the model's own notes: where they stop matching the path, said so a reader does not hunt for a pattern. */
function driftSaid(maze: MazeTrail): string {
  const d = maze.drift;
  if (!d || !maze.numbering) return '';
  const last = maze.steps.at(-1)!;
  const cell = cellNumber(maze.numbering, last.x, last.y);
  const how = d.uneven && maze.stuck && d.turn >= maze.stuck.from ? `: standing at cell ${cell}, some answers add it to the list again and some do not` : '';
  return ` The "Been at" lists are the model's own notes, kept loosely: from turn ${d.turn} they stop matching the path${how}.`;
}

/**
 * The maze the conversation plays, drawn from its user turns: the grid, the path the agent took (a line through
 * the cells it stood on, its last cell filled), the walls the turns name (thick), the goal (★). Row 0 at the top,
 * as the system prompt counts cells.
 */
export function MazeDrawing({ maze }: { maze: MazeTrail }) {
  const side = maze.size * CELL;
  const mid = (v: number) => v * CELL + CELL / 2;
  const last = maze.steps.at(-1)!;
  // Each wall once: a cell's side, as a line on the grid.
  const walls = new Map<string, [number, number, number, number]>();
  for (const s of maze.steps)
    for (const w of s.walls) {
      const [x0, y0, x1, y1] = [s.x * CELL, s.y * CELL, (s.x + 1) * CELL, (s.y + 1) * CELL];
      const line: Record<string, [number, number, number, number]> = {
        north: [x0, y0, x1, y0],
        south: [x0, y1, x1, y1],
        west: [x0, y0, x0, y1],
        east: [x1, y0, x1, y1],
      };
      if (line[w]) walls.set(line[w]!.join(','), line[w]!);
    }
  // The cells it stood on, each once, numbered as the answers' lists number them.
  const visited = [...new Map(maze.steps.map((s) => [`${s.x},${s.y}`, s])).values()];
  const n = maze.numbering;
  // One position worked into its number, the agent's last: the user's turns give positions, the answers numbers.
  const worked = n ? `; position (${last.x},${last.y}) is cell ${cellNumber(n, last.x, last.y)}` : '';
  const caption = `The maze as the user's turns tell it: the agent's path (blue line), ${n ? `each cell it stood on with its number as the answers' lists give it (counted row by row from the top left${worked}), ` : ''}the walls they name (thick red), the goal (★)${
    maze.stuck ? `; from turn ${maze.stuck.from} to turn ${maze.stuck.to} it stands at the same cell` : ''
  }.${driftSaid(maze)}`;
  return (
    <figure className="lesson-maze" data-testid="lesson-maze">
      <svg viewBox={`-2 -2 ${side + 4} ${side + 4}`} width={side + 4} height={side + 4} role="img" aria-label={caption}>
        {Array.from({ length: maze.size * maze.size }, (_, k) => (
          <rect key={k} x={(k % maze.size) * CELL} y={Math.floor(k / maze.size) * CELL} width={CELL} height={CELL} className="maze-cell" />
        ))}
        {[...walls.values()].map(([x1, y1, x2, y2]) => (
          <line key={`${x1},${y1},${x2},${y2}`} x1={x1} y1={y1} x2={x2} y2={y2} className="maze-wall" />
        ))}
        <polyline points={maze.steps.map((s) => `${mid(s.x)},${mid(s.y)}`).join(' ')} className="maze-path" />
        {maze.goal && (
          <text x={mid(maze.goal.x)} y={mid(maze.goal.y)} className="maze-goal" textAnchor="middle" dominantBaseline="central">
            ★
          </text>
        )}
        <circle cx={mid(last.x)} cy={mid(last.y)} r={CELL / 4} className="maze-agent" data-testid="lesson-maze-agent" />
        {n &&
          visited.map((s) => (
            <text
              key={`${s.x},${s.y}`}
              x={s.x * CELL + 1}
              y={s.y * CELL + 1}
              className="maze-number"
              dominantBaseline="hanging"
              data-testid="lesson-maze-number"
            >
              {cellNumber(n, s.x, s.y)}
            </text>
          ))}
      </svg>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

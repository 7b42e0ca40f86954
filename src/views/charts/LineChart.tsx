import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';

export interface Series {
  name: string;
  color: string;
  dashed?: boolean;
  points: { x: number; y: number }[];
}

const W = 440;
const H = 220;
// Room at the top for the y axis's name, written above its ticks.
const M = { top: 22, right: 12, bottom: 30, left: 48 };

/** A small SVG line chart with integer x ticks (turns) and a legend; values as text in each point's title. */
export function LineChart({
  series,
  xLabel,
  yLabel,
  yFormat = (v) => String(v),
  testId,
}: {
  series: Series[];
  xLabel: string;
  yLabel: string;
  yFormat?: (v: number) => string;
  testId?: string;
}) {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  if (!xs.length) return <p className="muted">Nothing to plot yet.</p>;
  const x = scaleLinear()
    .domain([Math.min(...xs), Math.max(Math.max(...xs), Math.min(...xs) + 1)])
    .range([M.left, W - M.right]);
  const y = scaleLinear()
    .domain([0, Math.max(...ys, 1e-9)])
    .nice()
    .range([H - M.bottom, M.top]);
  const path = line<{ x: number; y: number }>()
    .x((p) => x(p.x))
    .y((p) => y(p.y));
  const xticks = x.ticks(Math.min(10, Math.max(...xs) - Math.min(...xs) + 1)).filter(Number.isInteger);
  return (
    <figure className="chart" data-testid={testId}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={`${yLabel} by ${xLabel}`}>
        {y.ticks(5).map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="grid" />
            <text x={M.left - 4} y={y(t)} textAnchor="end" dominantBaseline="middle" className="tick">
              {yFormat(t)}
            </text>
          </g>
        ))}
        {xticks.map((t) => (
          <text key={t} x={x(t)} y={H - M.bottom + 14} textAnchor="middle" className="tick">
            {t}
          </text>
        ))}
        <text x={(M.left + W - M.right) / 2} y={H - 2} textAnchor="middle" className="tick">
          {xLabel}
        </text>
        <text x={4} y={12} className="tick" data-testid={`${testId}-y`}>
          {yLabel}
        </text>
        {series.map((s) => (
          <g key={s.name}>
            <path d={path(s.points) ?? ''} fill="none" stroke={s.color} strokeWidth={2} strokeDasharray={s.dashed ? '5 3' : undefined} />
            {s.points.map((p) => (
              <circle key={p.x} cx={x(p.x)} cy={y(p.y)} r={2.5} fill={s.color}>
                <title>{`${s.name}, ${xLabel} ${p.x}: ${yFormat(p.y)}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="row legend">
        {series.map((s) => (
          <span key={s.name}>
            <span className={`swatch${s.dashed ? ' dashed' : ''}`} style={{ background: s.color }} /> {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

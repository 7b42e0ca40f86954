/**
 * The bench page's plot: ms per inspection pass against tokens, log–log, one line per model × runtime ×
 * graph. A plain SVG string (no DOM), so `npm run bench` writes it next to its table.
 */
import { scaleLog } from 'd3-scale';

export interface PlotPoint {
  series: string;
  tokens: number;
  ms: number;
}

// Okabe–Ito, as in the app.
const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function benchPlotSvg(points: PlotPoint[], title: string): string {
  const W = 720;
  const H = 420;
  const m = { top: 36, right: 190, bottom: 46, left: 64 };
  const series = [...new Set(points.map((p) => p.series))];
  const tokens = [...new Set(points.map((p) => p.tokens))].sort((a, b) => a - b);
  const ms = points.map((p) => p.ms);
  const x = scaleLog()
    .domain([tokens[0]! / 1.2, tokens[tokens.length - 1]! * 1.2])
    .range([m.left, W - m.right]);
  const y = scaleLog()
    .domain([Math.min(...ms) / 1.5, Math.max(...ms) * 1.5])
    .range([H - m.bottom, m.top])
    .nice();
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const t of y.ticks(6).filter((v) => Number.isInteger(Math.log10(v)))) {
    out.push(`<line x1="${m.left}" x2="${W - m.right}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/>`);
    out.push(`<text x="${m.left - 6}" y="${y(t) + 4}" text-anchor="end">${t >= 1000 ? `${t / 1000} s` : `${t} ms`}</text>`);
  }
  for (const t of tokens) {
    out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${m.top}" y2="${H - m.bottom}" stroke="#eee"/>`);
    out.push(`<text x="${x(t)}" y="${H - m.bottom + 16}" text-anchor="middle">${t}</text>`);
  }
  out.push(`<text x="${(m.left + W - m.right) / 2}" y="${H - 8}" text-anchor="middle">tokens (log)</text>`);
  out.push(`<text transform="translate(14 ${(m.top + H - m.bottom) / 2}) rotate(-90)" text-anchor="middle">ms per inspection pass (log)</text>`);
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const pts = points.filter((p) => p.series === s).sort((a, b) => a.tokens - b.tokens);
    const dash = s.includes('native') ? ' stroke-dasharray="6 4"' : '';
    out.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${pts.map((p) => `${x(p.tokens).toFixed(1)},${y(p.ms).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const p of pts) out.push(`<circle cx="${x(p.tokens).toFixed(1)}" cy="${y(p.ms).toFixed(1)}" r="3.5" fill="${color}"/>`);
    const ly = m.top + 8 + i * 20;
    out.push(`<line x1="${W - m.right + 14}" x2="${W - m.right + 40}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${W - m.right + 46}" y="${ly + 4}">${esc(s)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

import { scaleLinear } from 'd3-scale';
import type { Interval, Metric } from '../analysis/report';
import { CATEGORIES } from '../metrics/categories';
import { CATEGORY_COLORS, CATEGORY_NAMES } from '../palette';

/** The report's figures as standalone SVG for papers: titles, axes with ticks, legends; text escaped. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const FONT = 'font-family="Helvetica, Arial, sans-serif"';
const NAME: Record<Metric, string> = { ...CATEGORY_NAMES, diagonal: 'diagonal ratio (r = 5)' };
const COLOR: Record<Metric, string> = { ...CATEGORY_COLORS, diagonal: '#000000' };
const label = (key: Record<string, string>) => Object.values(key).filter(Boolean).join(' · ') || 'all';

/** Paper 2's Fig. 2: each share (and the diagonal ratio) by turn, one panel per group. */
export function turnsSvg(
  curves: { key: Record<string, string>; turns: { turn: number; n: number; means: Record<Metric, number> }[] }[],
  title: string,
): string {
  const pw = 300;
  const ph = 200;
  const cols = Math.min(3, curves.length);
  const rows = Math.ceil(curves.length / cols);
  const m = { top: 64, left: 56, gap: 56 };
  const width = m.left + cols * (pw + m.gap);
  const height = m.top + rows * (ph + 70) + 40;
  const metrics: Metric[] = [...CATEGORIES, 'diagonal'];
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${m.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  metrics.forEach((k, i) => {
    const x = m.left + i * 150;
    out.push(
      `<line x1="${x}" x2="${x + 18}" y1="42" y2="42" stroke="${COLOR[k]}" stroke-width="2"${k === 'diagonal' ? ' stroke-dasharray="4 3"' : ''}/><text x="${x + 22}" y="46">${esc(NAME[k])}</text>`,
    );
  });
  curves.forEach((c, i) => {
    const ox = m.left + (i % cols) * (pw + m.gap);
    const oy = m.top + Math.floor(i / cols) * (ph + 70) + 20;
    const turns = c.turns.map((t) => t.turn);
    const x = scaleLinear()
      .domain([Math.min(...turns), Math.max(Math.max(...turns), Math.min(...turns) + 1)])
      .range([ox, ox + pw]);
    const y = scaleLinear()
      .domain([0, 1])
      .range([oy + ph, oy]);
    out.push(`<text x="${ox}" y="${oy - 8}" font-weight="bold">${esc(label(c.key))}</text>`);
    out.push(
      `<line x1="${ox}" x2="${ox + pw}" y1="${oy + ph}" y2="${oy + ph}" stroke="#333"/><line x1="${ox}" x2="${ox}" y1="${oy}" y2="${oy + ph}" stroke="#333"/>`,
    );
    for (const t of y.ticks(5))
      out.push(
        `<line x1="${ox - 4}" x2="${ox + pw}" y1="${y(t)}" y2="${y(t)}" stroke="#ddd"/><text x="${ox - 6}" y="${y(t) + 4}" text-anchor="end">${t.toFixed(1)}</text>`,
      );
    for (const t of x.ticks(Math.min(8, turns.length)).filter(Number.isInteger))
      out.push(`<text x="${x(t)}" y="${oy + ph + 15}" text-anchor="middle">${t}</text>`);
    out.push(`<text x="${ox + pw / 2}" y="${oy + ph + 32}" text-anchor="middle">turn (answers scored with the conversation up to it)</text>`);
    out.push(`<text transform="translate(${ox - 38} ${oy + ph / 2}) rotate(-90)" text-anchor="middle">share of attention</text>`);
    for (const k of metrics) {
      const d = c.turns.map((t, j) => `${j ? 'L' : 'M'}${x(t.turn).toFixed(1)},${y(t.means[k]).toFixed(1)}`).join('');
      out.push(`<path d="${d}" fill="none" stroke="${COLOR[k]}" stroke-width="2"${k === 'diagonal' ? ' stroke-dasharray="4 3"' : ''}/>`);
      for (const t of c.turns)
        out.push(
          `<circle cx="${x(t.turn).toFixed(1)}" cy="${y(t.means[k]).toFixed(1)}" r="2.5" fill="${COLOR[k]}"><title>${esc(`${NAME[k]}, turn ${t.turn}: ${t.means[k].toFixed(4)} (mean of ${t.n})`)}</title></circle>`,
        );
    }
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Paper 2's Fig. 6: each policy's change against Full, with its 95 % interval, one panel per metric shown. */
export function policyChangeSvg(
  changes: { key: Record<string, string>; policy: string; n: number; change: Record<Metric, Interval> }[],
  metrics: Metric[],
  title: string,
): string {
  const bar = 22;
  const labelW = 220;
  const pw = 280;
  const m = { top: 60, left: 12, gap: 40 };
  const width = m.left + labelW + metrics.length * (pw + m.gap);
  const height = m.top + changes.length * bar + 60;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${m.left}" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`,
    `<text x="${m.left}" y="40">Bars: the mean change against Full over the same conversations (policy − Full); whiskers: bootstrap 95 % interval.</text>`,
  ];
  changes.forEach((c, i) =>
    out.push(
      `<text x="${m.left + labelW - 8}" y="${m.top + i * bar + bar / 2 + 4}" text-anchor="end">${esc(`${label(c.key)} · ${c.policy}`)} (n = ${c.n})</text>`,
    ),
  );
  metrics.forEach((k, j) => {
    const ox = m.left + labelW + j * (pw + m.gap);
    const values = changes.flatMap((c) => [c.change[k].lo, c.change[k].hi, 0]);
    const x = scaleLinear()
      .domain([Math.min(...values), Math.max(...values)])
      .nice()
      .range([ox, ox + pw]);
    const bottom = m.top + changes.length * bar;
    out.push(`<text x="${ox + pw / 2}" y="${m.top - 6}" text-anchor="middle" font-weight="bold">${esc(`change in ${NAME[k]}`)}</text>`);
    for (const t of x.ticks(5))
      out.push(
        `<line x1="${x(t)}" x2="${x(t)}" y1="${m.top}" y2="${bottom}" stroke="#eee"/><text x="${x(t)}" y="${bottom + 14}" text-anchor="middle">${t}</text>`,
      );
    out.push(`<line x1="${x(0)}" x2="${x(0)}" y1="${m.top}" y2="${bottom}" stroke="#333"/>`);
    changes.forEach((c, i) => {
      const v = c.change[k];
      const yc = m.top + i * bar + bar / 2;
      out.push(
        `<rect x="${Math.min(x(0), x(v.mean)).toFixed(1)}" y="${yc - 7}" width="${Math.abs(x(v.mean) - x(0)).toFixed(1)}" height="14" fill="${COLOR[k]}" opacity="0.8"><title>${esc(`${c.policy}: ${v.mean.toFixed(4)} [${v.lo.toFixed(4)}, ${v.hi.toFixed(4)}]`)}</title></rect>`,
      );
      out.push(
        `<line x1="${x(v.lo).toFixed(1)}" x2="${x(v.hi).toFixed(1)}" y1="${yc}" y2="${yc}" stroke="#000"/><line x1="${x(v.lo).toFixed(1)}" x2="${x(v.lo).toFixed(1)}" y1="${yc - 4}" y2="${yc + 4}" stroke="#000"/><line x1="${x(v.hi).toFixed(1)}" x2="${x(v.hi).toFixed(1)}" y1="${yc - 4}" y2="${yc + 4}" stroke="#000"/>`,
      );
    });
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

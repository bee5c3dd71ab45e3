import type { ChartSpec } from './chartData.js';
import { type Html, html } from './html.js';

const width = 640;
const height = 200;
const margin = { top: 10, right: 10, bottom: 24, left: 48 };
const colours: Record<string, string> = { served: '#0077cc', refused: '#c0392b' };

/** A round ceiling for the y axis: 1, 2 or 5 times a power of ten, at least 1. */
function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * A chart drawn on the server as SVG: the series stacked as bars per period, no script needed
 * (the pages' Content-Security-Policy allows none inline). Each bar carries its figures in a
 * <title>; the same numbers come as a table beside it (chartFigure), for anyone who reads.
 */
export function chartSvg(spec: ChartSpec): Html {
  const totals = spec.x.map((_, index) => spec.series.reduce((sum, series) => sum + (series.values[index] ?? 0), 0));
  const top = niceCeiling(Math.max(0, ...totals));
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, spec.x.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const day = (second: number) => new Date(second * 1000).toISOString().slice(0, 10);
  const bars = spec.x.map((second, index) => {
    let base = 0;
    const x = margin.left + index * slot + (slot - barWidth) / 2;
    const parts = spec.series.map((series) => {
      const value = series.values[index] ?? 0;
      const from = base;
      base += value;
      if (value === 0) return html``;
      return html`<rect x="${x.toFixed(1)}" y="${y(base).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(y(from) - y(base)).toFixed(1)}" fill="${colours[series.label] ?? '#555'}"/>`;
    });
    const figures = spec.series.map((series) => `${series.label} ${series.values[index] ?? 0}`).join(', ');
    return html`<g class="period" data-second="${second}"><title>${day(second)}: ${figures}</title>${parts}</g>`;
  });
  const first = spec.x[0];
  const last = spec.x[spec.x.length - 1];
  return html`<svg class="chart-svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${spec.title}" xmlns="http://www.w3.org/2000/svg">
<line x1="${margin.left}" y1="${y(0)}" x2="${width - margin.right}" y2="${y(0)}" stroke="#888"/>
<text x="${margin.left - 6}" y="${y(top) + 4}" text-anchor="end" font-size="11">${top.toLocaleString('en-US')}</text>
<text x="${margin.left - 6}" y="${y(0) + 4}" text-anchor="end" font-size="11">0</text>
${first === undefined ? html`` : html`<text x="${margin.left}" y="${height - 6}" font-size="11">${day(first)}</text>`}
${last === undefined ? html`` : html`<text x="${width - margin.right}" y="${height - 6}" text-anchor="end" font-size="11">${day(last)}</text>`}
${bars}
</svg>
<p class="legend">${spec.series.map((series) => html`<span class="series ${series.label}">■ ${series.label}</span> `)}</p>`;
}

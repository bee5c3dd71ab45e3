import type { ChartSpec } from './chartData.js';
import { type Html, html } from './html.js';

// A narrow drawing: the page scales it to its width, so its 13-unit labels read at 11.6 px on a
// 390 px phone (358 px of chart) and at 15.6 px at the 30rem the pages give it on a desktop.
const width = 400;
const height = 220;
const fontSize = 13;
const margin = { top: 12, right: 12, bottom: 30, left: 52 };
const colours: Record<string, string> = { served: '#0077cc', refused: '#c0392b' };
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A round step: 1, 2 or 5 times a power of ten, at least 1. */
function niceStep(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** The y axis: about four round steps from 0 to a top at or above the largest total. */
export function valueTicks(largest: number): number[] {
  const step = niceStep(largest / 4);
  const top = Math.max(step, Math.ceil(largest / step) * step);
  const ticks: number[] = [];
  for (let value = 0; value <= top; value += step) ticks.push(value);
  return ticks;
}

/** Which periods get a date under them: every one up to 6, else every week (or 6 hours), at most about 6 labels. */
function labelledPositions(count: number, hourly: boolean): number[] {
  const unit = hourly ? 6 : 7;
  const every = count <= 6 ? 1 : unit * Math.ceil(count / (unit * 6));
  const positions: number[] = [];
  for (let position = 0; position < count; position += every) positions.push(position);
  return positions;
}

/**
 * A chart drawn on the server as SVG: the series stacked as bars per period, no script needed
 * (the pages' Content-Security-Policy allows none inline), with a y axis of round values and
 * dates under the bars. Each bar carries its figures in a <title>; the same numbers come as a
 * table beside it (chartFigure), for anyone who reads.
 */
export function chartSvg(spec: ChartSpec): Html {
  const totals = spec.x.map((_, index) => spec.series.reduce((sum, series) => sum + (series.values[index] ?? 0), 0));
  const ticks = valueTicks(Math.max(0, ...totals));
  const top = ticks[ticks.length - 1]!;
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const slot = plotWidth / Math.max(1, spec.x.length);
  const barWidth = Math.max(1, slot * 0.7);
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const hourly = spec.kind !== 'bars';
  const day = (second: number) => new Date(second * 1000).toISOString().slice(0, 10);
  const shortLabel = (second: number) => {
    const date = new Date(second * 1000);
    return hourly
      ? `${String(date.getUTCHours()).padStart(2, '0')}:00`
      : `${months[date.getUTCMonth()]} ${date.getUTCDate()}`;
  };
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
  const yAxis = ticks.map(
    (value) =>
      html`<line x1="${margin.left}" y1="${y(value).toFixed(1)}" x2="${width - margin.right}" y2="${y(value).toFixed(1)}" stroke="${value === 0 ? '#888' : '#e4e4e4'}"/><text class="tick" x="${margin.left - 6}" y="${(y(value) + fontSize / 3).toFixed(1)}" text-anchor="end" font-size="${fontSize}">${value.toLocaleString('en-US')}</text>\n`,
  );
  const xAxis = labelledPositions(spec.x.length, hourly).map((position) => {
    const centre = margin.left + (position + 0.5) * slot;
    const anchor = position === 0 ? 'start' : 'middle';
    return html`<line x1="${centre.toFixed(1)}" y1="${y(0)}" x2="${centre.toFixed(1)}" y2="${y(0) + 4}" stroke="#888"/><text class="tick" x="${(position === 0 ? margin.left : centre).toFixed(1)}" y="${height - 10}" text-anchor="${anchor}" font-size="${fontSize}">${shortLabel(spec.x[position]!)}</text>\n`;
  });
  return html`<svg class="chart-svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="${spec.title}" xmlns="http://www.w3.org/2000/svg">
${yAxis}${xAxis}${bars}
</svg>
<p class="legend">${spec.series.map((series) => html`<span class="series ${series.label}">■ ${series.label}</span> `)}</p>`;
}

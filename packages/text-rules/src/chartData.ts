import { type Html, html, jsonIsland } from './html.js';

/**
 * A chart as the browser script draws it: x as Unix seconds, one series of values per label.
 * The figure holds the numbers as a table too, for anyone who reads rather than looks.
 */
export interface ChartSpec {
  id: string;
  title: string;
  kind: 'bars' | 'lines';
  x: number[];
  series: { label: string; values: number[] }[];
}

const dayMs = 86_400_000;
const hourMs = 3_600_000;

/** Periods of `stepMs` from `from` up to (not including) `to`, each as its Unix second. */
function periods(from: Date, to: Date, stepMs: number): number[] {
  const starts: number[] = [];
  for (let at = from.getTime(); at < to.getTime(); at += stepMs) starts.push(at / 1000);
  return starts;
}

/**
 * Served and refused calls per period, every period present (zero where nothing was counted):
 * `rows` carry each period's start and an outcome.
 */
export function servedAndRefused(
  spec: Pick<ChartSpec, 'id' | 'title'>,
  rows: readonly { start: Date; outcome: string; calls: number }[],
  range: { from: Date; to: Date; by: 'day' | 'hour' },
): ChartSpec {
  const x = periods(range.from, range.to, range.by === 'day' ? dayMs : hourMs);
  const index = new Map(x.map((second, position) => [second, position]));
  const served = x.map(() => 0);
  const refused = x.map(() => 0);
  for (const row of rows) {
    const position = index.get(row.start.getTime() / 1000);
    if (position === undefined) continue;
    if (row.outcome === 'served') served[position]! += row.calls;
    else refused[position]! += row.calls;
  }
  return {
    ...spec,
    kind: range.by === 'day' ? 'bars' : 'lines',
    x,
    series: [
      { label: 'served', values: served },
      { label: 'refused', values: refused },
    ],
  };
}

/**
 * The figure the console's script draws into (its data island), or the drawing given (the
 * holders' server-drawn SVG), and the same numbers as a folded table.
 */
export function chartFigure(spec: ChartSpec, drawing?: Html): Html {
  const withCalls = spec.x
    .map((second, position) => ({ second, values: spec.series.map((series) => series.values[position] ?? 0) }))
    .filter((row) => row.values.some((value) => value > 0));
  const label = (second: number) => new Date(second * 1000).toISOString().slice(0, spec.kind === 'bars' ? 10 : 13);
  return html`<figure class="chart" ${drawing ? html`data-figure` : html`data-chart`}="${spec.id}">
<figcaption>${spec.title}</figcaption>
${
  drawing ??
  html`<div class="plot"></div>
${jsonIsland(`chart-${spec.id}`, spec)}`
}
<details><summary>The figures</summary>
${
  withCalls.length === 0
    ? html`<p class="empty">No calls in this period.</p>`
    : html`<table><thead><tr><th scope="col">${spec.kind === 'bars' ? 'day' : 'hour (UTC)'}</th>${spec.series.map((series) => html`<th scope="col">${series.label}</th>`)}</tr></thead>
<tbody>${withCalls.map((row) => html`<tr><td>${label(row.second)}</td>${row.values.map((value) => html`<td>${value.toLocaleString('en-US')}</td>`)}</tr>`)}</tbody></table>`
}
</details>
</figure>`;
}

/** 00:00 UTC of the day `days` before `now`'s, and 00:00 UTC of the day after `now`. */
export function lastDays(now: Date, days: number): { from: Date; to: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(today - (days - 1) * dayMs), to: new Date(today + dayMs) };
}

/** The start of the hour `hours - 1` before `now`'s, and the start of the next hour. */
export function lastHours(now: Date, hours: number): { from: Date; to: Date } {
  const hour = Math.floor(now.getTime() / hourMs) * hourMs;
  return { from: new Date(hour - (hours - 1) * hourMs), to: new Date(hour + hourMs) };
}

import { describe, expect, it } from 'vitest';
import { chartFigure, chartSvg, servedAndRefused } from '../src/index.js';
import { valueTicks } from '../src/chartSvg.js';

const day = (text: string) => new Date(`${text}T00:00:00Z`);

describe('chartSvg', () => {
  const spec = servedAndRefused(
    { id: 'days', title: 'Calls <per> day' },
    [
      { start: day('2026-11-02'), outcome: 'served', calls: 7 },
      { start: day('2026-11-02'), outcome: 'rate-limited', calls: 3 },
      { start: day('2026-11-03'), outcome: 'served', calls: 20 },
    ],
    { from: day('2026-11-01'), to: day('2026-11-04'), by: 'day' },
  );

  it('draws a stacked bar per period with calls, scaled to a round top, each with its figures', () => {
    const svg = chartSvg(spec).text;
    expect(svg).toContain('aria-label="Calls &lt;per&gt; day"');
    expect(svg.match(/<rect /g)).toHaveLength(3);
    expect(svg).toContain('<title>2026-11-02: served 7, refused 3</title>');
    expect(svg).toContain('<title>2026-11-01: served 0, refused 0</title>');
    // The top of the y axis is 20, the largest day: that bar is the plot's full height (178 units).
    expect(svg).toMatch(/<rect x="[\d.]+" y="12.0" width="[\d.]+" height="178.0" fill="#0077cc"\/>/);
  });

  it('labels the y axis with round values and the x axis with dates', () => {
    const svg = chartSvg(spec).text;
    const ticks = [...svg.matchAll(/<text class="tick"[^>]*>([^<]+)<\/text>/g)].map((match) => match[1]);
    expect(ticks).toEqual(['0', '5', '10', '15', '20', 'Nov 1', 'Nov 2', 'Nov 3']);
    expect(valueTicks(50)).toEqual([0, 20, 40, 60]);
    expect(valueTicks(0)).toEqual([0, 1]);
    expect(valueTicks(3)).toEqual([0, 1, 2, 3]);
  });

  it('stands in a figure with the same numbers as a table, and no data island for a script', () => {
    const figure = chartFigure(spec, chartSvg(spec)).text;
    expect(figure).toContain('data-figure="days"');
    expect(figure).not.toContain('application/json');
    expect(figure).toContain('<tr><td>2026-11-02</td><td>7</td><td>3</td></tr>');
  });
});

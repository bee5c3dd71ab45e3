// Draws each <figure data-chart> of a console page from its JSON data island with uPlot (served
// by the console itself: no network beyond it). Served calls as bars (by day) or a line (by hour),
// refused calls as a line. Once drawn, the figure says how many periods had calls
// (data-points), for the tests and for anyone inspecting the page.
/* global uPlot */

(() => {
  const colours = { served: '#0077cc', refused: '#c0392b' };
  const utc = (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC');

  for (const figure of document.querySelectorAll('figure[data-chart]')) {
    const island = document.getElementById(`chart-${figure.dataset.chart}`);
    const target = figure.querySelector('.plot');
    if (!island || !target) continue;
    const spec = JSON.parse(island.textContent);
    const withCalls = spec.x.filter((_, index) => spec.series.some((series) => series.values[index] > 0)).length;
    const bars = uPlot.paths.bars({ size: [0.7, 24] });
    const options = {
      width: Math.max(280, target.clientWidth),
      height: 220,
      tzDate: utc,
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      series: [
        {},
        ...spec.series.map((series) => ({
          label: series.label,
          stroke: colours[series.label] ?? '#555',
          fill: spec.kind === 'bars' && series.label === 'served' ? `${colours.served}aa` : undefined,
          width: 2,
          paths: spec.kind === 'bars' && series.label === 'served' ? bars : undefined,
          points: { show: false },
        })),
      ],
      hooks: {
        draw: [
          () => {
            figure.dataset.points = String(withCalls);
            figure.dataset.drawn = 'true';
          },
        ],
      },
    };
    const plot = new uPlot(options, [spec.x, ...spec.series.map((series) => series.values)], target);
    window.addEventListener('resize', () => plot.setSize({ width: Math.max(280, target.clientWidth), height: 220 }));
  }
})();

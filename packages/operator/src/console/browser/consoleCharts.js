// Draws each <figure data-chart> of a console page from its JSON data island with uPlot (served
// by the console itself: no network beyond it). Served calls as bars (by day) or a line (by hour),
// refused calls as a line, on one scale that holds every series. Once drawn, the figure says how
// many periods had calls (data-points) and the scale's top (data-top), for the tests and for
// anyone inspecting the page. Off the plot, the legend gives each series' total over the period.
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
    // The top is taken from every series: a day with more refused than served calls stays inside.
    const top = Math.max(1, ...spec.series.flatMap((series) => series.values));
    const unit = spec.kind === 'bars' ? 'days' : 'hours';
    const when = (seconds) => new Date(seconds * 1000).toISOString().slice(0, spec.kind === 'bars' ? 10 : 13);
    const total = (values) => values.reduce((sum, value) => sum + value, 0);
    const options = {
      width: Math.max(280, target.clientWidth),
      height: 220,
      tzDate: utc,
      scales: { x: { time: true }, y: { range: () => [0, Math.ceil(top * 1.05)] } },
      series: [
        { value: (_u, seconds) => (seconds == null ? `last ${spec.x.length} ${unit}` : when(seconds)) },
        ...spec.series.map((series) => ({
          label: series.label,
          value: (_u, calls) =>
            calls == null ? `${total(series.values).toLocaleString('en-US')} in all` : calls.toLocaleString('en-US'),
          stroke: colours[series.label] ?? '#555',
          fill: spec.kind === 'bars' && series.label === 'served' ? `${colours.served}aa` : undefined,
          width: 2,
          paths: spec.kind === 'bars' && series.label === 'served' ? bars : undefined,
          points: { show: false },
        })),
      ],
      hooks: {
        draw: [
          (u) => {
            figure.dataset.top = String(u.scales.y.max);
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

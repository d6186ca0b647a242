import { html } from 'htm/preact';
import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJs,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';

ChartJs.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/**
 * A Chart.js chart of one unit (`unit` names it on the axis: never views beside visitors) with its figures as a
 * table under it, for screen readers and for anyone who wants the numbers. `stacked` draws parts on top of each
 * other, so a sum is the height of its parts and never a bar of its own.
 */
export function Chart({ id, title, type, labels, datasets, unit, stacked = false, horizontal = false }) {
  const canvas = useRef(null);
  const chart = useRef(null);
  useEffect(() => {
    const value = { [horizontal ? 'x' : 'y']: true };
    const axis = (own) => ({
      stacked,
      beginAtZero: true,
      ...(own ? { title: { display: true, text: unit }, ticks: { precision: 0 } } : {}),
    });
    const config = {
      type,
      data: { labels, datasets },
      options: {
        animation: false,
        maintainAspectRatio: false,
        indexAxis: horizontal ? 'y' : 'x',
        scales: { x: axis(value.x === true), y: axis(value.y === true) },
        plugins: { legend: { display: datasets.length > 1 } },
      },
    };
    chart.current?.destroy();
    chart.current = new ChartJs(canvas.current, config);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [JSON.stringify({ labels, datasets, type, stacked, horizontal, unit })]);
  return html`<figure class="chart" data-chart=${id}>
    <figcaption>${title}</figcaption>
    <div class="canvas"><canvas ref=${canvas} role="img" aria-label=${`${title} (${unit}); figures in the table below`}></canvas></div>
    <details>
      <summary>Figures</summary>
      <div class="scroll">
        <table>
          <thead><tr><th scope="col">${type === 'line' ? 'Day' : ''}</th>${datasets.map((d) => html`<th scope="col" class="num">${d.label}</th>`)}</tr></thead>
          <tbody>
            ${labels.map(
              (label, i) =>
                html`<tr><th scope="row">${label}</th>${datasets.map((d) => html`<td class="num">${d.data[i]}</td>`)}</tr>`,
            )}
          </tbody>
        </table>
      </div>
    </details>
  </figure>`;
}

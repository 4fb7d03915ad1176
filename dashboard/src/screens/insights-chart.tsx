import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { DataTable } from '../components';

/** One line of a chart: the measure it draws (a key of each day) and its name in the legend and the table. */
export interface ChartSeries<K extends string> {
  key: K;
  label: string;
}

const SERIES_COLOURS = 4;
const HEIGHT = 180;

/** A colour the stylesheet defines (`--series-0`…, `--muted`), so the canvas follows light and dark mode like the page. */
const cssColour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/**
 * Measures per day as a uPlot line chart, with its table view: the canvas is hidden from assistive technology (it
 * says nothing to a screen reader), and the same numbers are in a real table behind "Table view" for screen readers
 * and keyboard users. The legend is ours (classes, no inline style), not uPlot's.
 */
export function DayChart<K extends string>({
  title,
  days,
  series,
  format,
}: {
  title: string;
  days: (Record<K, number | null> & { date: string })[];
  series: ChartSeries<K>[];
  format: (value: number | null) => string;
}) {
  const canvasBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = canvasBox.current;
    if (!box) return;
    const xs = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const data: uPlot.AlignedData = [xs, ...series.map((line) => days.map((day) => day[line.key]))];
    const axis = { stroke: cssColour('--muted'), grid: { stroke: cssColour('--border'), width: 1 }, ticks: { stroke: cssColour('--border'), width: 1 } };
    const chart = new uPlot(
      {
        width: box.clientWidth || 600,
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { y: { range: (_chart, _min, max) => [0, Math.max(1, max)] } },
        axes: [axis, { ...axis, values: (_chart, ticks) => ticks.map((tick) => format(tick)) }],
        series: [
          {},
          ...series.map((line, index) => ({
            label: line.label,
            stroke: cssColour(`--series-${index % SERIES_COLOURS}`),
            width: 2,
            points: { show: days.length <= 31 },
          })),
        ],
      },
      data,
      box,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: box.clientWidth, height: HEIGHT }));
    resize.observe(box);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days, series, format]);
  const headingId = `chart-${series.map((line) => line.key).join('-')}`;
  return (
    <section class="panel chart-panel" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <ul class="legend" aria-label={`Lines of ${title}`}>
        {series.map((line, index) => (
          <li key={line.key}>
            <span class={`swatch swatch-${index % SERIES_COLOURS}`} aria-hidden="true" />
            {line.label}
          </li>
        ))}
      </ul>
      <div class="uplot-box" ref={canvasBox} aria-hidden="true" />
      <details class="table-view">
        <summary>Table view</summary>
        <DataTable caption={`${title} per day`} columns={['Date', ...series.map((line) => line.label)]}>
          {days.map((day) => (
            <tr key={day.date}>
              <th scope="row">{day.date}</th>
              {series.map((line) => (
                <td key={line.key} data-measure={line.key}>
                  {format(day[line.key])}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
      </details>
    </section>
  );
}

import { useId } from 'react';
import { formatDay } from './admin-ui';
import { seriesSummary, type SeriesPointView } from '../../../contract/roster.ts';

/** "3/14" for 2027-03-14: a bar's label has room for little more. */
const shortDay = (date: string) => `${Number(date.slice(5, 7))}/${Number(date.slice(8, 10))}`;

/** Each bar's parts, bottom up: who came, who did not, who was never marked. */
const PARTS = [
  { key: 'present', label: 'came', className: 'series-present' },
  { key: 'noShow', label: 'no-show', className: 'series-no-show' },
  { key: 'unmarked', label: 'not marked', className: 'series-unmarked' },
] as const;

const partsOf = (p: SeriesPointView) => ({ present: p.present, noShow: p.noShow, unmarked: Math.max(0, p.signedUp - p.present - p.noShow) });

/**
 * How full the weekly class really was over the last six months (issue 34): one small SVG, no
 * chart library. Each class is a bar of its sign-ups against a tick at its capacity; the words
 * (the figure's name, and the table under "As numbers") say the same for a screen reader.
 */
export default function SeriesChart(props: { points: readonly SeriesPointView[] }) {
  const legendId = useId();
  const { points } = props;
  if (points.length === 0) return <p className="muted">{seriesSummary(points, formatDay)}</p>;
  const width = Math.max(240, points.length * 28);
  const height = 120;
  const base = height - 18;
  const top = Math.max(1, ...points.map((p) => Math.max(p.capacity, p.signedUp)));
  const scale = (n: number) => (n / top) * (base - 6);
  const step = width / points.length;
  return (
    <figure className="series-chart" data-series-chart>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={seriesSummary(points, formatDay)} aria-describedby={legendId}>
        {points.map((p, i) => {
          const x = i * step + step * 0.2;
          const w = step * 0.6;
          const parts = partsOf(p);
          let y = base;
          return (
            <g key={p._id}>
              {PARTS.map((part) => {
                const h = scale(parts[part.key]);
                y -= h;
                return h > 0 ? <rect key={part.key} className={part.className} x={x} y={y} width={w} height={h} /> : null;
              })}
              <line className="series-capacity" x1={x - 2} x2={x + w + 2} y1={base - scale(p.capacity)} y2={base - scale(p.capacity)} />
              <text x={x + w / 2} y={height - 4} textAnchor="middle">
                {shortDay(p.date)}
              </text>
            </g>
          );
        })}
        <line className="series-axis" x1={0} x2={width} y1={base} y2={base} />
      </svg>
      <figcaption id={legendId} className="series-legend">
        {PARTS.map((part) => (
          <span key={part.key}>
            <span className={`series-key ${part.className}`} aria-hidden="true" /> {part.label}
          </span>
        ))}
        <span>
          <span className="series-key series-capacity-key" aria-hidden="true" /> places
        </span>
      </figcaption>
      <details>
        <summary>As numbers</summary>
        <table className="series-table">
          <thead>
            <tr>
              <th scope="col">Class</th>
              <th scope="col">Signed up</th>
              <th scope="col">Came</th>
              <th scope="col">No-show</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p._id}>
                <th scope="row">{formatDay(p.date)}</th>
                <td>
                  {p.signedUp} of {p.capacity}
                </td>
                <td>{p.present}</td>
                <td>{p.noShow}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

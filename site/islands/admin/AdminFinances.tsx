import { useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminTable, herToday } from './admin-ui';
import { request } from '../../lib/http';
import { usdFromCents as formatCents } from '../../lib/money';
import { FINANCE_COUNT_ROWS, type FinanceMonth, type FinancesView } from '../../../contract/backoffice.ts';
import { INCOME_ROWS } from '../../../contract/books.ts';
import { TextInput } from '../Field';

/** YYYY-MM `months` months before `month`. */
function monthsBefore(month: string, months: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5)) - 1 - months;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, '0')}`;
}

/** "Dec 2026" for 2026-12: a chart of twelve months spans two years, so each label says which (issue 20). */
function monthLabel(month: string): string {
  const date = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 1, 15));
  return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', year: 'numeric' }).format(date);
}

/** The bars' parts, bottom up: income's four sources (contract/books.ts INCOME_ROWS). */
const BARS = [
  ['shopNetCents', '#7a4a2e'],
  ['sessionsCents', '#2f6b55'],
  ['classesCents', '#6b8e23'],
  ['tastingsCents', '#a0522d'],
  ['gigsCents', '#3b5b8c'],
] as const;
const labelOf = (key: keyof FinanceMonth) => INCOME_ROWS.find(([k]) => k === key)?.[1] ?? key;

/** The last 12 months' income as bars: one small SVG, no chart library. */
function Chart(props: { months: FinanceMonth[] }) {
  const W = 600;
  const H = 180;
  const pad = 24;
  const max = Math.max(1, ...props.months.map((m) => m.incomeCents));
  const slot = (W - pad) / props.months.length;
  return (
    <svg className="finance-chart" viewBox={`0 0 ${W} ${H + 20}`} role="img" aria-label="Income per month, last 12 months" data-finance-chart>
      {props.months.map((m, i) => {
        const x = pad + i * slot + slot * 0.15;
        const w = slot * 0.7;
        let top = H;
        return (
          <g key={m.month}>
            <title>{`${monthLabel(m.month)}: income ${formatCents(m.incomeCents)} (${BARS.map(([k]) => `${labelOf(k)} ${formatCents(m[k])}`).join(', ')})`}</title>
            {BARS.map(([k, fill]) => {
              const h = (m[k] / max) * (H - pad);
              top -= h;
              return <rect key={k} x={x} y={top} width={w} height={h} fill={fill} />;
            })}
            <text x={x + w / 2} y={H + 14} fontSize="9" textAnchor="middle" data-month-label>
              {monthLabel(m.month)}
            </text>
          </g>
        );
      })}
      <line x1={pad} x2={W} y1={H} y2={H} stroke="#999" />
    </svg>
  );
}

/** Her income as the Tax year shows it, with the same words (one definition, issue 30), then the counts behind it. */
const ROWS: (readonly [keyof FinanceMonth, string, boolean])[] = [
  ...INCOME_ROWS.map(([key, label]) => [key, label, true] as const),
  ...FINANCE_COUNT_ROWS.map(([key, label, kind]) => [key, label, kind === 'cents'] as const),
];

function FinancesPanel() {
  const id = useId();
  // This month on her clocks.
  const [now] = useState(() => herToday().slice(0, 7));
  const [from, setFrom] = useState(monthsBefore(now, 11));
  const [to, setTo] = useState(now);
  const [view, setView] = useState<FinancesView | null>(null);
  const [chart, setChart] = useState<FinanceMonth[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    request<FinancesView>('GET', `/api/admin/finances?from=${monthsBefore(now, 11)}&to=${now}`, { session: 'admin' })
      .then((r) => r.ok && setChart(r.data.months))
      .catch(() => {});
  }, [now]);

  useEffect(() => {
    if (!from || !to) return;
    // Only the answer for the range she has now: an earlier range's answer arriving late (she
    // changed both months quickly) must not replace it.
    let current = true;
    request<FinancesView>('GET', `/api/admin/finances?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { session: 'admin' })
      .then((r) => {
        if (!current) return;
        if (r.ok) {
          setView(r.data);
          setError('');
        } else setError(r.data.message ?? 'Could not load the figures.');
      })
      .catch(() => current && setError('The server could not be reached.'));
    return () => {
      current = false;
    };
  }, [from, to]);

  return (
    <>
      <section className="admin-panel" aria-labelledby={`${id}-chart`}>
        <h2 id={`${id}-chart`}>Last 12 months</h2>
        <p className="muted">
          Income: brown, shop sales (net of sales tax); green, session payments kept; blue, gigs paid. Months in the teacher’s time zone; the Tax year counts
          the same way.
        </p>
        {chart ? <Chart months={chart} /> : <p role="status">Loading…</p>}
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-range`}>
        <h2 id={`${id}-range`}>Figures for a range</h2>
        <form className="form-row" onSubmit={(e) => e.preventDefault()} aria-label="Range">
          <TextInput id={`${id}-from`} label="From" type="month" value={from} onChange={(e) => setFrom(e.target.value)} />
          <TextInput id={`${id}-to`} label="To" type="month" value={to} onChange={(e) => setTo(e.target.value)} />
        </form>
        {error && <p className="admin-error">{error}</p>}
        {view && (
          <>
            <p>
              <a
                className="button button-quiet button-small"
                href={`/api/admin/exports/finances.csv?from=${encodeURIComponent(view.from)}&to=${encodeURIComponent(view.to)}`}
                download
                data-export="finances"
              >
                Download these figures (CSV)
              </a>
            </p>
            {/* Every column has a name (axe: empty-table-header); on a phone each figure is a card whose months say which they are. */}
            <AdminTable caption="Figures per month" columns={['Figure', 'Total', ...view.months.map((m) => monthLabel(m.month))]}>
              {ROWS.map(([key, label, cents]) => (
                <tr key={key} data-finance-row={key}>
                  <th scope="row">{label}</th>
                  <td>
                    <strong>{cents ? formatCents(view.totals[key as keyof typeof view.totals]) : view.totals[key as keyof typeof view.totals]}</strong>
                  </td>
                  {view.months.map((m) => (
                    <td key={m.month}>{cents ? formatCents(m[key] as number) : m[key]}</td>
                  ))}
                </tr>
              ))}
            </AdminTable>
            {/* Issue 32: what she still owes, today, whatever the range: unused session credits at what they were paid. */}
            <h3>Sessions owed</h3>
            <p data-sessions-owed>
              {view.sessionsOwed.sessions} {view.sessionsOwed.sessions === 1 ? 'session' : 'sessions'} still to give, worth{' '}
              {formatCents(view.sessionsOwed.cents)} (unused credits not expired, on {view.sessionsOwed.asOf}).
            </p>
            <p data-gift-cards-owed>
              Gift cards owed: {formatCents(view.giftCardsOwed.cents)} on {view.giftCardsOwed.cards} {view.giftCardsOwed.cards === 1 ? 'card' : 'cards'} (a
              liability, not income, until spent).
            </p>
            {/* Issue 34: the tastings behind the tastings line, and what their clients still owe. */}
            <p data-tastings>
              Tastings: {view.tastings.requests} {view.tastings.requests === 1 ? 'request' : 'requests'}, {view.tastings.quoted} quoted, {view.tastings.booked}{' '}
              booked in this range; balances still due {formatCents(view.tastings.balanceDueCents)}.
            </p>
            <h3>Sales tax collected, by state</h3>
            {view.salesTaxByState.length === 0 ? (
              <p>No sales tax in this range.</p>
            ) : (
              <AdminTable caption="Sales tax per state" columns={['State', 'Total', 'Per quarter', 'Per month']}>
                {view.salesTaxByState.map((s) => (
                  <tr key={s.state} data-sales-tax={s.state}>
                    <td data-card="title">{s.state}</td>
                    <td>{formatCents(s.taxCents)}</td>
                    <td>{s.quarters.map((q) => `${q.quarter}: ${formatCents(q.taxCents)}`).join(' · ')}</td>
                    <td>{s.months.map((m) => `${monthLabel(m.month)}: ${formatCents(m.taxCents)}`).join(' · ')}</td>
                  </tr>
                ))}
              </AdminTable>
            )}
            <h3>Best-selling tins</h3>
            {view.bestSellers.length === 0 ? (
              <p>No tins sold in this range.</p>
            ) : (
              <ol>
                {view.bestSellers.map((t) => (
                  <li key={t.name}>
                    {t.name}: {t.quantity} sold ({formatCents(t.cents)})
                  </li>
                ))}
              </ol>
            )}
          </>
        )}
      </section>
    </>
  );
}

export default adminScreen('/admin/finances', 'Finances', FinancesPanel);

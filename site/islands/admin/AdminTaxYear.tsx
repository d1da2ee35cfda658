import { Fragment, useCallback, useEffect, useId, useState } from 'react';
import { flushSync } from 'react-dom';
import { adminScreen } from './AdminShell';
import SalesTaxPanel, { STATE_CHOICES } from './SalesTaxPanel';
import { FoodSalesPanel } from './FoodSalesPanel';
import { AdminTable, herToday, RowForm } from './admin-ui';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { usdFromCents } from '../../lib/money';
import { INCOME_ROWS, type SessionPayMethod, type TaxPeriodFigures, type TaxYearView } from '../../../contract/books.ts';
import { SALE_METHOD_WORDS } from '../../../contract/packages.ts';
import type { TaxRatesView } from '../../../contract/tax.ts';
import { Checkbox, SelectInput, TextInput } from '../Field';

/** How a session payment came in, as she reads it. */
const METHOD_WORDS: Readonly<Record<SessionPayMethod, string>> = { paypal: 'PayPal', ...SALE_METHOD_WORDS };
/**
 * A tax year in one place (issue 24): income by source for the year and per quarter (as Finances
 * counts it, issue 30), each quarter's months folded but the current one's, gigs by location,
 * sales tax collected by state, refunds, miles and the mileage deduction, what is still unpaid;
 * printable, and as a CSV for an accountant. Below, the sales tax rates.
 */

/** Her year (on her clocks: at 21:30 on New Year's Eve in her city it is still hers). */
const thisYear = () => Number(herToday().slice(0, 4));

/** Her income as Finances shows it, with the same words (contract/books.ts INCOME_ROWS: one definition, issue 30), then the miles. */
const ROWS: [string, (f: TaxPeriodFigures) => string][] = [
  ...INCOME_ROWS.map(([key, label]): [string, (f: TaxPeriodFigures) => string] => [label, (f) => usdFromCents(f[key])]),
  ['Miles', (f) => f.mileage.miles.toFixed(1)],
  ['Mileage deduction', (f) => usdFromCents(f.mileage.deductionCents)],
];

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const monthName = (month: string) => MONTHS[Number(month.slice(5, 7)) - 1] ?? month;

/** The quarter of her today (1–4), for the year shown: the one the page opens on; none for another year. */
const quarterNow = (year: number): number | null => {
  const today = herToday();
  return Number(today.slice(0, 4)) === year ? Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1 : null;
};

/**
 * The year's quarters, each folded but the current one (issue 30: on a phone the page opens on
 * the quarter she is in, not 18 screens of months); each opens on its months and its total.
 * Printing opens them all, so the paper has every month.
 */
function Quarters(props: { view: TaxYearView }) {
  const { view } = props;
  const [open, setOpen] = useState(() => new Set(quarterNow(view.year) ? [quarterNow(view.year)!] : []));
  useEffect(() => {
    // Synchronously: the page is laid out for paper as soon as the handler returns.
    const all = () => flushSync(() => setOpen(new Set([1, 2, 3, 4])));
    window.addEventListener('beforeprint', all);
    return () => window.removeEventListener('beforeprint', all);
  }, []);
  return (
    <>
      {view.quarters.map((q) => {
        const months = view.months.slice((q.quarter - 1) * 3, q.quarter * 3);
        return (
          <details
            key={q.quarter}
            className="period-fold"
            data-quarter={q.quarter}
            open={open.has(q.quarter)}
            onToggle={(e) => {
              const isOpen = e.currentTarget.open;
              setOpen((was) => {
                if (was.has(q.quarter) === isOpen) return was;
                const next = new Set(was);
                if (isOpen) next.add(q.quarter);
                else next.delete(q.quarter);
                return next;
              });
            }}
          >
            <summary>
              Q{q.quarter} ({monthName(months[0]!.month)}–{monthName(months[2]!.month)}): income {usdFromCents(q.incomeCents)}
            </summary>
            {open.has(q.quarter) && (
              <FigureTable
                caption={`Q${q.quarter} ${view.year} by month`}
                periods={[...months.map((m) => ({ label: monthName(m.month), figures: m })), { label: `Q${q.quarter}`, figures: q }]}
              />
            )}
          </details>
        );
      })}
    </>
  );
}

function FigureTable(props: { caption: string; periods: { label: string; figures: TaxPeriodFigures }[] }) {
  return (
    <AdminTable caption={props.caption} columns={['Figure', ...props.periods.map((p) => p.label)]}>
      {ROWS.map(([label, show]) => (
        <tr key={label} data-tax-row={label}>
          <th scope="row">{label}</th>
          {props.periods.map((p) => (
            <td key={p.label}>{show(p.figures)}</td>
          ))}
        </tr>
      ))}
    </AdminTable>
  );
}

function RatesPanel() {
  const id = useId();
  const [view, setView] = useState<TaxRatesView | null>(null);
  const [state, setState] = useState('WA');
  const [percent, setPercent] = useState('');
  const [shipping, setShipping] = useState(false);
  const [startsOn, setStartsOn] = useState('');
  const [status, setStatus] = useState('');
  const load = useCallback(() => {
    request<TaxRatesView>('GET', '/api/admin/tax-rates', { session: 'admin' })
      .then((r) => {
        if (!r.ok) return;
        setView(r.data);
        setStartsOn((s) => s || r.data.today);
      })
      .catch(() => {});
  }, []);
  useEffect(load, [load]);
  const current = view?.rates.filter((r) => r.current) ?? [];

  async function save() {
    try {
      const res = await request<TaxRatesView>('PUT', `/api/admin/tax-rates/${state}`, {
        session: 'admin',
        body: { ratePercent: Number(percent), shippingTaxable: shipping, startsOn },
      });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Could not save the rate', text: res.data.message });
        return;
      }
      setStatus(res.data.message ?? 'Saved.');
      setView(res.data);
    } catch {
      await showAlert({ icon: 'error', title: 'Could not save the rate', text: 'The server could not be reached. Please try again.' });
    }
  }

  return (
    <section className="admin-panel no-print" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Sales tax rates</h2>
      <p className="muted">{view?.note}</p>
      <RowForm label="Set a state's rate" submit="Save rate" onSubmit={save}>
        <SelectInput
          id={`${id}-state`}
          label="State"
          choices={STATE_CHOICES}
          value={state}
          onChange={(e) => {
            setState(e.target.value);
            const r = current.find((c) => c.state === e.target.value);
            if (r) {
              setPercent(String(r.ratePercent));
              setShipping(r.shippingTaxable);
            }
          }}
        />
        <TextInput id={`${id}-rate`} label="Rate (%)" inputMode="decimal" required value={percent} onChange={(e) => setPercent(e.target.value)} />
        <TextInput id={`${id}-from`} label="From" type="date" required value={startsOn} onChange={(e) => setStartsOn(e.target.value)} />
        <Checkbox label="Shipping is taxed" checked={shipping} onChange={(e) => setShipping(e.target.checked)} />
      </RowForm>
      <p role="status" className="muted">
        {status}
      </p>
      <AdminTable caption="Rates in effect today" columns={['State', 'Rate', 'Shipping', 'Since']}>
        {current.map((r) => (
          <tr key={r._id} data-rate={r.state}>
            <td data-card="title">
              {r.stateName} ({r.state})
            </td>
            <td>{r.rate}</td>
            <td>{r.shippingTaxable ? 'taxed' : 'not taxed'}</td>
            <td>{r.startsOn}</td>
          </tr>
        ))}
      </AdminTable>
    </section>
  );
}

function TaxYearPanel() {
  const id = useId();
  const [year, setYear] = useState(thisYear());
  const [view, setView] = useState<TaxYearView | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    request<TaxYearView>('GET', `/api/admin/tax-year/${year}`, { session: 'admin' })
      .then((r) => {
        if (r.ok) {
          setView(r.data);
          setError('');
        } else setError(r.data.message ?? 'Could not load the year.');
      })
      .catch(() => setError('The server could not be reached.'));
  }, [year]);

  return (
    <>
      <section className="admin-panel" aria-labelledby={`${id}-h`}>
        <h2 id={`${id}-h`}>Tax year {year}</h2>
        <form className="form-row no-print" aria-label="Year" onSubmit={(e) => e.preventDefault()}>
          <SelectInput
            id={`${id}-year`}
            label="Year"
            choices={Array.from({ length: 6 }, (_, i) => String(thisYear() - i)).map((y) => [y, y] as const)}
            value={year}
            onChange={(e) => setYear(Number(e.target.value))}
          />
          <div className="field row-actions">
            <button type="button" className="button button-small" onClick={() => window.print()}>
              Print
            </button>
            <a className="button button-quiet button-small" href={`/api/admin/exports/tax-year-${year}.csv`} download data-export="tax-year">
              Download CSV
            </a>
          </div>
        </form>
        {error && <p className="admin-error">{error}</p>}
        {!view ? (
          <p role="status">Loading…</p>
        ) : (
          <div data-tax-year={view.year}>
            <p>
              Income {usdFromCents(view.totals.incomeCents)} · sales tax collected {usdFromCents(view.totals.salesTaxCents)} · refunds{' '}
              {usdFromCents(view.totals.refundsCents)} · {view.totals.mileage.miles.toFixed(1)} miles, deduction{' '}
              {usdFromCents(view.totals.mileage.deductionCents)} · unpaid {view.unpaid.count} ({usdFromCents(view.unpaid.cents)})
            </p>
            <p className="muted">
              Months and quarters in {view.timeZone}. Mileage rate:{' '}
              {view.mileageRate ? `${view.mileageRate.centsPerMile}¢ a mile (${view.mileageRate.name})` : 'none set for this year (Gigs page)'}.
            </p>
            {/* Issue 48: her food sales against the cottage-food cap, and their records. */}
            <FoodSalesPanel year={view.year} />
            <FigureTable caption={`The year ${view.year}`} periods={[{ label: String(view.year), figures: view.totals }]} />
            <h3>Quarter by quarter</h3>
            <Quarters key={view.year} view={view} />
            {/* Issue 32: session payments by how they came in; they add up to the year's session payments. */}
            <h3>Session payments by method</h3>
            <AdminTable caption="Session payments by method" columns={['Method', 'Payments', 'Amount']}>
              {view.sessionsByMethod.map((m) => (
                <tr key={m.method} data-session-method={m.method}>
                  <td data-card="title">{METHOD_WORDS[m.method]}</td>
                  <td>{m.count}</td>
                  <td>{usdFromCents(m.cents)}</td>
                </tr>
              ))}
            </AdminTable>
            <h3>Gigs by location</h3>
            {view.gigsByLocation.length === 0 ? (
              <p>No gig paid this year.</p>
            ) : (
              <AdminTable caption="Gigs by location" columns={['Location', 'Classes paid', 'Paid', 'Tax withheld']}>
                {view.gigsByLocation.map((l) => (
                  <tr key={l.location} data-gig-location={l.location}>
                    <td data-card="title">{l.location}</td>
                    <td>{l.classes}</td>
                    <td>{usdFromCents(l.cents)}</td>
                    <td>{usdFromCents(l.withheldCents)}</td>
                  </tr>
                ))}
              </AdminTable>
            )}
            <h3>Sales tax collected by state</h3>
            {view.salesTaxByState.length === 0 ? (
              <p>No sales tax collected this year.</p>
            ) : (
              <AdminTable caption="Sales tax by state" columns={['State', 'Taxable sales', 'Tax', 'Q1', 'Q2', 'Q3', 'Q4']}>
                {view.salesTaxByState.map((s) => (
                  <Fragment key={s.state}>
                    <tr data-tax-state={s.state}>
                      <td data-card="title">{s.state}</td>
                      <td>{usdFromCents(s.taxableCents)}</td>
                      <td>{usdFromCents(s.taxCents)}</td>
                      {s.quarters.map((q, i) => (
                        <td key={i}>{usdFromCents(q)}</td>
                      ))}
                    </tr>
                    {/* Issue 29: within the state, per location code, as her excise return asks. */}
                    {s.locations
                      .filter((l) => l.locationCode !== null)
                      .map((l) => (
                        <tr key={l.locationCode} data-tax-location={l.locationCode}>
                          <td data-card="title">
                            {s.state} {l.locationCode} {l.jurisdiction}
                          </td>
                          <td>{usdFromCents(l.taxableCents)}</td>
                          <td>{usdFromCents(l.taxCents)}</td>
                          {l.quarters.map((q, i) => (
                            <td key={i}>{usdFromCents(q)}</td>
                          ))}
                        </tr>
                      ))}
                  </Fragment>
                ))}
              </AdminTable>
            )}
          </div>
        )}
      </section>
      <SalesTaxPanel />
      <RatesPanel />
    </>
  );
}

export default adminScreen('/admin/tax-year', 'Tax year', TaxYearPanel);

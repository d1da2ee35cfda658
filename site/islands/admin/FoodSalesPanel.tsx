import { useCallback, useEffect, useId, useState } from 'react';
import { AdminForm, AdminTable, formatDay, herToday, send } from './admin-ui';
import { request } from '../../lib/http';
import { confirmDialog } from '../../lib/alert';
import { typedCents, usdFromCents } from '../../lib/money';
import { CountInput, MoneyInput, TextInput } from '../Field';
import { capSentence, foodSalesCsvPath, type FoodSalesFigures, type FoodSaleView } from '../../../contract/food-sales.ts';

/** The day a sale she records is given by default: today when the year shown is hers, else the year's last day. */
const defaultDay = (year: number) => (herToday().startsWith(`${year}-`) ? herToday() : `${year}-12-31`);

/**
 * Her food sales of the year against the cottage-food cap (issue 48, decision 0059): in cottage
 * mode the cap leads, with a meter and what is left; licensed, the year's food sales as a plain
 * figure. Below, the sales she records by hand (a market, a fair) and the sales-records CSV that
 * OAR 603-025-0328 asks her to keep three years.
 */
export function FoodSalesPanel(props: { year: number }) {
  const { year } = props;
  const id = useId();
  const [figures, setFigures] = useState<FoodSalesFigures | null>(null);
  const [sale, setSale] = useState({ soldOn: defaultDay(year), food: '', quantity: '1', amount: '', place: '' });
  const [status, setStatus] = useState('');
  /** A field's value and its change, for the sale she types. */
  const typed = (key: keyof typeof sale) => ({
    value: sale[key],
    onChange: (e: { target: { value: string } }) => setSale((was) => ({ ...was, [key]: e.target.value })),
  });

  const load = useCallback(() => {
    request<FoodSalesFigures>('GET', `/api/admin/books/food-sales?year=${year}`, { session: 'admin' })
      .then((r) => r.ok && setFigures(r.data))
      .catch(() => {});
  }, [year]);
  useEffect(() => {
    setFigures(null);
    setSale((was) => ({ ...was, soldOn: defaultDay(year) }));
    load();
  }, [year, load]);

  async function record() {
    const body = { soldOn: sale.soldOn, food: sale.food, quantity: Number(sale.quantity), amountCents: typedCents(sale.amount), place: sale.place };
    const saved = await send<FoodSaleView & { message: string }>('POST', '/api/admin/books/food-sales', body, 'The sale was not recorded.');
    if (!saved) return;
    // The day and the place stay: a market day's sales are recorded one after another.
    setSale((was) => ({ ...was, food: '', quantity: '1', amount: '' }));
    setStatus(saved.message);
    load();
  }

  async function remove(sale: FoodSaleView) {
    if (!(await confirmDialog({ title: 'Delete this sale?', text: `${sale.quantity} × ${sale.food}, ${formatDay(sale.soldOn)}`, confirmText: 'Delete' })))
      return;
    const r = await request<{ message: string }>('DELETE', `/api/admin/books/food-sales/${encodeURIComponent(sale._id)}`, { session: 'admin' }).catch(
      () => null,
    );
    setStatus(r?.data.message ?? 'The server could not be reached.');
    load();
  }

  if (!figures) return <p role="status">Loading food sales…</p>;
  const cottage = figures.mode === 'cottage';
  return (
    <section className={cottage ? 'admin-panel food-cap food-cap-cottage' : 'admin-panel food-cap'} aria-labelledby={`${id}-h`} data-food-sales={figures.mode}>
      <h3 id={`${id}-h`}>{cottage ? `Cottage-food cap ${year}` : `Food sales ${year}`}</h3>
      {cottage ? (
        <>
          <p className={figures.overCents > 0 ? 'field-warning' : undefined} data-food-cap>
            <strong>{capSentence(figures)}</strong>
          </p>
          <meter
            min={0}
            max={figures.capCents}
            low={figures.capCents * 0.8}
            high={figures.capCents * 0.95}
            optimum={0}
            value={figures.totalCents}
            aria-label="Food sales against the cap"
          />
        </>
      ) : (
        <p data-food-cap>
          Food sales {usdFromCents(figures.totalCents)} (the cottage-food cap of {usdFromCents(figures.capCents)} applies only if you sell under the
          cottage-food exemption).
        </p>
      )}
      <p className="muted">
        {figures.ordersCount} {figures.ordersCount === 1 ? 'order' : 'orders'} kept {usdFromCents(figures.ordersCents)} (paid with gift cards{' '}
        {usdFromCents(figures.giftCardCents)}) + {figures.handCount} recorded by hand {usdFromCents(figures.handCents)}; the food’s price, without shipping,
        sales tax or refunds.{' '}
        <a href={foodSalesCsvPath(year)} download data-export="food-sales">
          Download the sales records (CSV)
        </a>
      </p>
      <details className="no-print" open={cottage}>
        <summary>Food sales recorded by hand ({figures.handCount})</summary>
        <AdminForm label="Record a food sale" submit="Record sale" onSubmit={() => void record()} status={status}>
          <TextInput id={`${id}-day`} label="Day sold" type="date" required {...typed('soldOn')} />
          <TextInput id={`${id}-food`} label="Food" required maxLength={200} {...typed('food')} />
          <CountInput id={`${id}-qty`} label="Quantity" min={1} required {...typed('quantity')} />
          <MoneyInput id={`${id}-amount`} label="Amount ($)" required {...typed('amount')} />
          <TextInput
            id={`${id}-place`}
            label="Where sold"
            hint="The market or event and its address, with its organizer’s contact"
            required
            {...typed('place')}
          />
        </AdminForm>
        {figures.handSales.length > 0 && (
          <AdminTable caption="Food sales recorded by hand" columns={['Day', 'Food', 'Quantity', 'Amount', 'Where', 'Actions']}>
            {figures.handSales.map((s) => (
              <tr key={s._id} data-food-sale={s._id}>
                <td data-card="title">{formatDay(s.soldOn)}</td>
                <td>{s.food}</td>
                <td>{s.quantity}</td>
                <td>{usdFromCents(s.amountCents)}</td>
                <td>{s.place}</td>
                <td>
                  <button
                    className="button button-quiet button-small"
                    type="button"
                    aria-label={`Delete ${s.quantity} × ${s.food}`}
                    onClick={() => void remove(s)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </details>
    </section>
  );
}

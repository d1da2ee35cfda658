import { useId, useState, type ChangeEvent } from 'react';
import { adminScreen } from './AdminShell';
import { AdminForm, formatDay, formatWhen, herToday, send, useAdminList, useFocusRow } from './admin-ui';
import { MoneyInput, TextInput } from '../Field';
import { Listing } from '../Listing';
import { plainDollars, toDollars, typedCents, usdFromCents } from '../../lib/money';
import { standardQuote, STANDARD_TASTING, type AdminTastingView, type TastingQuoteInput } from '../../../contract/tastings.ts';

/**
 * Her private tastings (issue 34): the requests from /chocolates, newest first, each answered
 * with a quote in two taps ("Use standard tasting", "Send quote": her $520 for two hours, half
 * down, on the client's first day at 18:00, at the client's place), changed while the deposit is
 * unpaid; once it is paid the day is held in her agenda, and she records the balance paid by hand.
 */

type Fields = { price: string; deposit: string; date: string; time: string; place: string };

const fieldsOf = (q: TastingQuoteInput): Fields => ({
  price: plainDollars(toDollars(q.priceCents)),
  deposit: plainDollars(toDollars(q.depositCents)),
  date: q.date,
  time: q.time,
  place: q.place,
});
const blank: Fields = { price: '', deposit: '', date: '', time: '', place: '' };

/** Her quote for a request: the template fills it, she may change any field, then sends it. */
function QuoteForm(props: { tasting: AdminTastingView; onSent: () => void }) {
  const id = useId();
  const t = props.tasting;
  const [fields, setFields] = useState<Fields>(() => (t.quote ? fieldsOf(t.quote) : blank));
  const [status, setStatus] = useState('');
  const field = (key: keyof Fields) => ({
    value: fields[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setFields((f) => ({ ...f, [key]: e.target.value })),
  });

  async function sendQuote() {
    const body: TastingQuoteInput = {
      priceCents: typedCents(fields.price),
      depositCents: typedCents(fields.deposit),
      date: fields.date,
      time: fields.time,
      place: fields.place,
    };
    const done = await send<{ message: string }>('POST', `/api/admin/tastings/${encodeURIComponent(t._id)}/quote`, body, 'Could not send the quote');
    if (!done) return;
    setStatus(`${done.message} ${t.name} can pay the deposit from the mail.`);
    props.onSent();
  }

  return (
    <AdminForm label={`Quote for ${t.name}`} submit={t.quote ? 'Send the changed quote' : 'Send quote'} onSubmit={() => void sendQuote()} status={status}>
      <p>
        <button type="button" className="button button-quiet button-small" onClick={() => setFields(fieldsOf(standardQuote(t)))}>
          Use standard tasting
        </button>{' '}
        <span className="muted">
          {usdFromCents(STANDARD_TASTING.priceCents)}, {STANDARD_TASTING.hours} hours for {STANDARD_TASTING.guests} people, {STANDARD_TASTING.depositPercent}%
          down
        </span>
      </p>
      <div className="form-row">
        <MoneyInput id={`${id}-price`} label="Price ($)" required {...field('price')} />
        <MoneyInput id={`${id}-deposit`} label="Deposit ($)" required {...field('deposit')} />
      </div>
      <div className="form-row">
        <TextInput id={`${id}-date`} label="Day" type="date" required min={herToday()} {...field('date')} />
        <TextInput id={`${id}-time`} label="Time" type="time" required {...field('time')} />
      </div>
      <TextInput id={`${id}-place`} label="Place" required maxLength={300} {...field('place')} />
    </AdminForm>
  );
}

/** How she may be paid the balance on the day, with her words for it. */
const BY_HAND = [
  ['cash', 'in cash'],
  ['check', 'by check'],
] as const;

/** A booked tasting: what is paid, and the balance she was paid by hand on the day. */
function Booked(props: { tasting: AdminTastingView; onRecorded: () => void }) {
  const q = props.tasting.quote!;
  const left = q.priceCents - q.paidCents;
  async function record(method: 'cash' | 'check') {
    const done = await send<{ amountCents: number }>(
      'POST',
      `/api/admin/tastings/${encodeURIComponent(props.tasting._id)}/balance`,
      { method },
      'Could not record the balance',
    );
    if (done) props.onRecorded();
  }
  return (
    <div data-tasting-booked>
      <p>
        <strong>Booked</strong> for {formatDay(q.date, q.time)} at {q.place}: held in your agenda (Events, marked private).
      </p>
      <p data-tasting-paid>
        Paid {usdFromCents(q.paidCents)} of {usdFromCents(q.priceCents)}
        {q.payments.map((p) => ` · ${p.part} ${usdFromCents(p.amountCents)} by ${p.method} on ${formatDay(p.paidOn)}`).join('')}
      </p>
      {left > 0 && (
        <div className="row-actions">
          {BY_HAND.map(([method, words], i) => (
            <button
              key={method}
              type="button"
              className={i === 0 ? 'button button-small' : 'button button-quiet button-small'}
              onClick={() => void record(method)}
            >
              Balance of {usdFromCents(left)} paid {words}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** Her requests, newest first; a Today item opens here on its own card (`?focus=`). */
function TastingsPanel() {
  const { items, reload } = useAdminList<AdminTastingView>('/api/admin/tastings', 'Failed to load the tastings.');
  const { rowProps } = useFocusRow(items !== null);
  const id = useId();
  return (
    <section className="admin-panel" aria-labelledby={`${id}-list`}>
      <h2 id={`${id}-list`}>Requests</h2>
      <p className="muted">A quote mails the client a link to pay the deposit; once it is paid the day is held in your agenda.</p>
      <Listing items={items} empty="No tasting requests yet. They come from the form on the chocolates page.">
        {(tastings) => (
          <ul className="item-list">
            {tastings.map((t) => (
              <li key={t._id} className="item" data-tasting={t._id} {...rowProps(t._id)}>
                <div>
                  <h3>
                    {t.name} <span className="muted">· {t.occasion}</span>
                  </h3>
                  <p>
                    {t.guests} guests · {t.dates.map((d) => formatDay(d)).join(' or ')} · {t.place}
                  </p>
                  <p className="muted">
                    <a href={`mailto:${t.email}`}>{t.email}</a> · <a href={`tel:${t.phone}`}>{t.phone}</a> · asked {formatWhen(t.createdAt)}
                  </p>
                  {t.quote && !t.quote.depositPaid && (
                    <p data-tasting-quoted>
                      Quoted {usdFromCents(t.quote.priceCents)} for {formatDay(t.quote.date, t.quote.time)}: waiting for the{' '}
                      {usdFromCents(t.quote.depositCents)} deposit.
                    </p>
                  )}
                  {t.quote?.depositPaid ? <Booked tasting={t} onRecorded={() => void reload()} /> : <QuoteForm tasting={t} onSent={() => void reload()} />}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Listing>
    </section>
  );
}

export default adminScreen('/admin/tastings', 'Tastings', TastingsPanel);

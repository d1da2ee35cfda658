import { useCallback, useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import {
  AdminTable,
  byMonth,
  confirmAndDelete,
  formatDay,
  herToday,
  ModalDialog,
  MonthFolds,
  openMonths,
  send,
  useFocusRow,
  type FocusRowProps,
  submitWith,
  RowForm,
} from './admin-ui';
import { request } from '../../lib/http';
import { Checkbox, choicesOf, CountInput, MoneyInput, SelectInput, TextInput } from '../Field';
import { overlapsNote } from './overlaps';
import { usdFromCents } from '../../lib/money';
import {
  FREQUENCY_WORDS,
  GIG_FREQUENCIES,
  PAYMENT_METHOD_WORDS,
  PAYMENT_METHODS,
  type GigFrequency,
  type GigsAddedView,
  type GigsView,
  type GigView,
  type LocationView,
  type MileageRateView,
  type PaymentMethod,
  type TripView,
} from '../../../contract/books.ts';

/**
 * Her teaching gigs (issue 24): the classes she teaches at studios and gyms, one or recurring;
 * the unpaid ones with their age and "Mark paid" in one tap; her locations with the round trip
 * from home; trips added by hand; the standard mileage rate of each year.
 */

/** The select's choices: how a gig repeats, how it is paid, where it is. */
const FREQUENCY_CHOICES = choicesOf(GIG_FREQUENCIES, FREQUENCY_WORDS);
const METHOD_CHOICES = choicesOf(PAYMENT_METHODS, PAYMENT_METHOD_WORDS);
const locationChoices = (locations: LocationView[]) => locations.map((l) => [l._id, l.name] as const);

/** Her today: a gig's or trip's default date. */
const todayHere = herToday;

function GigForm(props: { locations: LocationView[]; onAdded: (firstDate: string) => void }) {
  const id = useId();
  const [date, setDate] = useState(todayHere());
  const [time, setTime] = useState('18:00');
  const [minutes, setMinutes] = useState('60');
  const [className, setClassName] = useState('');
  const [locationId, setLocationId] = useState('');
  const [rate, setRate] = useState('');
  const [frequency, setFrequency] = useState<GigFrequency>('weekly');
  const [until, setUntil] = useState('');
  const [method, setMethod] = useState<PaymentMethod>('venmo');
  const [taxed, setTaxed] = useState(false);
  const [status, setStatus] = useState('');

  async function add() {
    const rateCents = Math.round(Number(rate) * 100);
    const made = await send<GigsAddedView>(
      'POST',
      '/api/admin/gigs',
      {
        date,
        time,
        minutes: Number(minutes),
        className,
        locationId: locationId || props.locations[0]?._id || '',
        rateCents: Number.isFinite(rateCents) ? rateCents : -1,
        frequency,
        paymentMethod: method,
        taxed,
        ...(frequency !== 'perClass' && until ? { repeatUntil: until } : {}),
      },
      'Could not add the gig',
    );
    if (made) {
      // Saved all the same (issue 35): she is told what it overlaps, and may change it.
      setStatus([made.message, overlapsNote(made)].filter(Boolean).join(' '));
      setClassName('');
      props.onAdded(date);
    }
  }

  return (
    <form className="admin-form" onSubmit={submitWith(add)} aria-label="Add a gig">
      <div className="form-row">
        <TextInput id={`${id}-class`} label="Class" required value={className} onChange={(e) => setClassName(e.target.value)} />
        <SelectInput
          id={`${id}-location`}
          label="Location"
          required
          choices={locationChoices(props.locations)}
          value={locationId || props.locations[0]?._id || ''}
          onChange={(e) => setLocationId(e.target.value)}
        />
      </div>
      <div className="form-row">
        <TextInput id={`${id}-date`} label="First date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <TextInput id={`${id}-time`} label="Time" type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
        <CountInput id={`${id}-minutes`} label="Length (minutes)" min={1} max={1440} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />
      </div>
      <div className="form-row">
        <MoneyInput id={`${id}-rate`} label="Rate per class ($)" required value={rate} onChange={(e) => setRate(e.target.value)} />
        <SelectInput
          id={`${id}-frequency`}
          label="Repeats"
          choices={FREQUENCY_CHOICES}
          value={frequency}
          onChange={(e) => setFrequency(e.target.value as GigFrequency)}
        />
      </div>
      <div className="form-row">
        {frequency !== 'perClass' && (
          <TextInput id={`${id}-until`} label="Until (optional)" type="date" value={until} onChange={(e) => setUntil(e.target.value)} />
        )}
        <SelectInput id={`${id}-method`} label="Paid by" choices={METHOD_CHOICES} value={method} onChange={(e) => setMethod(e.target.value as PaymentMethod)} />
      </div>
      <Checkbox label="Tax withheld by the studio" checked={taxed} onChange={(e) => setTaxed(e.target.checked)} />
      <div className="card-actions">
        <button className="button button-small" type="submit" disabled={props.locations.length === 0}>
          Add gig
        </button>
        <p role="status" className="muted">
          {props.locations.length === 0 ? 'Add a location first.' : status}
        </p>
      </div>
    </form>
  );
}

/** One class's own fields, changed alone (a recurring gig's other classes keep theirs). */
function EditGig(props: { gig: GigView; locations: LocationView[]; onClose: () => void; onSaved: () => void }) {
  const id = useId();
  const g = props.gig;
  const [className, setClassName] = useState(g.className);
  const [date, setDate] = useState(g.date);
  const [time, setTime] = useState(g.time);
  const [minutes, setMinutes] = useState(String(g.minutes));
  const [rate, setRate] = useState((g.rateCents / 100).toFixed(2));
  const [locationId, setLocationId] = useState(g.locationId);
  const [method, setMethod] = useState<PaymentMethod>(g.paymentMethod);
  const [paidOn, setPaidOn] = useState(g.paidOn ?? '');
  const [taxed, setTaxed] = useState(g.taxed);
  async function save() {
    const body = {
      className,
      date,
      time,
      minutes: Number(minutes),
      rateCents: Math.round(Number(rate) * 100),
      locationId,
      paymentMethod: method,
      taxed,
      ...(paidOn ? { paid: true, paidOn } : { paid: false }),
    };
    if (await send('PUT', `/api/admin/gigs/${g._id}`, body, 'Could not save the gig')) props.onSaved();
  }
  return (
    <ModalDialog title={`Edit ${g.className}, ${formatDay(g.date)}`} onClose={props.onClose}>
      <form aria-label="Edit this class" onSubmit={submitWith(save)}>
        <div className="form-row">
          <TextInput id={`${id}-class`} label="Class" required value={className} onChange={(e) => setClassName(e.target.value)} />
          <SelectInput
            id={`${id}-location`}
            label="Location"
            choices={locationChoices(props.locations)}
            value={locationId}
            onChange={(e) => setLocationId(e.target.value)}
          />
          <TextInput id={`${id}-date`} label="Date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
          <TextInput id={`${id}-time`} label="Time" type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
          <CountInput id={`${id}-minutes`} label="Length (minutes)" min={1} max={1440} required value={minutes} onChange={(e) => setMinutes(e.target.value)} />
          <MoneyInput id={`${id}-rate`} label="Rate ($)" required value={rate} onChange={(e) => setRate(e.target.value)} />
          <SelectInput
            id={`${id}-method`}
            label="Paid by"
            choices={METHOD_CHOICES}
            value={method}
            onChange={(e) => setMethod(e.target.value as PaymentMethod)}
          />
          <TextInput id={`${id}-paid`} label="Paid on (empty: not paid)" type="date" value={paidOn} onChange={(e) => setPaidOn(e.target.value)} />
        </div>
        <Checkbox label="Tax withheld by the studio" checked={taxed} onChange={(e) => setTaxed(e.target.checked)} />
        <div className="card-actions">
          <button className="button button-small" type="submit">
            Save
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}

function GigRow(props: { gig: GigView; onChanged: () => void; ageDays?: number; locations: LocationView[]; focus: FocusRowProps }) {
  const g = props.gig;
  const [editing, setEditing] = useState(false);
  const put = async (body: unknown) => {
    if (await send('PUT', `/api/admin/gigs/${g._id}`, body, 'Could not save the gig')) props.onChanged();
  };
  return (
    <tr data-gig={g.date} data-paid={g.paid ? 'yes' : 'no'} {...props.focus}>
      <td data-card="title">
        <strong>{g.className}</strong> · {formatDay(g.date, g.time)}
        {g.cancelled && <span className="muted"> (cancelled)</span>}
      </td>
      <td>{g.location}</td>
      <td>{usdFromCents(g.rateCents)}</td>
      <td>{props.ageDays !== undefined ? `${props.ageDays} days` : g.paid ? `Paid ${g.paidOn ?? ''}` : g.requestSent ? 'Asked' : 'Not paid'}</td>
      <td>{g.miles ? `${g.miles} mi` : '—'}</td>
      <td>
        <div className="row-actions">
          {!g.paid && !g.cancelled && (
            <button type="button" className="button button-small" onClick={() => void put({ paid: true })}>
              Mark paid<span className="sr-only"> {`${g.className} ${g.date}`}</span>
            </button>
          )}
          {!g.paid && !g.requestSent && !g.cancelled && (
            <button type="button" className="button button-quiet button-small" onClick={() => void put({ requestSent: true })}>
              Asked<span className="sr-only"> {`${g.className} ${g.date}`}</span>
            </button>
          )}
          {props.ageDays === undefined && (
            <>
              <button type="button" className="button button-quiet button-small" onClick={() => setEditing(true)}>
                Edit<span className="sr-only"> {`${g.className} ${g.date}`}</span>
              </button>
              <button type="button" className="button button-quiet button-small" onClick={() => void put({ cancelled: !g.cancelled })}>
                {g.cancelled ? 'Restore' : 'Cancel'}
                <span className="sr-only"> {`${g.className} ${g.date}`}</span>
              </button>
              <button type="button" className="button button-quiet button-small" onClick={() => void put({ drove: !g.drove })}>
                {g.drove ? 'Didn’t drive' : 'Drove'}
                <span className="sr-only"> {`${g.className} ${g.date}`}</span>
              </button>
              {g.seriesId && (
                <button
                  type="button"
                  className="button button-quiet button-small"
                  onClick={() =>
                    void send('POST', `/api/admin/gigs/${g._id}/end`, {}, 'Could not end the gig').then((r) => {
                      if (r) props.onChanged();
                    })
                  }
                >
                  End after this<span className="sr-only"> {`${g.className} ${g.date}`}</span>
                </button>
              )}
              <button
                type="button"
                className="button button-quiet button-small"
                onClick={() =>
                  void confirmAndDelete(`/api/admin/gigs/${g._id}`, 'Could not delete the gig').then((ok) => {
                    if (ok) props.onChanged();
                  })
                }
              >
                Delete<span className="sr-only"> {`${g.className} ${g.date}`}</span>
              </button>
            </>
          )}
        </div>
        {editing && (
          <EditGig
            gig={g}
            locations={props.locations}
            onClose={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              props.onChanged();
            }}
          />
        )}
      </td>
    </tr>
  );
}

const GIG_COLUMNS = ['Class', 'Location', 'Rate', 'Paid', 'Miles', 'Actions'];

function LocationsPanel(props: { locations: LocationView[]; onChanged: () => void }) {
  const id = useId();
  const [name, setName] = useState('');
  const [miles, setMiles] = useState('');
  const [buffer, setBuffer] = useState('0');
  async function add() {
    const body = { name, roundTripMiles: Number(miles), bufferMinutes: Number(buffer) };
    if (await send('POST', '/api/admin/locations', body, 'Could not add the location')) {
      setName('');
      setMiles('');
      setBuffer('0');
      props.onChanged();
    }
  }
  return (
    <section className="admin-panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Locations</h2>
      <p className="muted">
        Where you teach, with the round trip from home in miles (entered once: each gig adds it), and the travel time to keep free before and after anything
        there (no session is offered inside it).
      </p>
      <ul className="plain-list">
        {props.locations.map((l) => (
          <li key={l._id} data-location={l.name}>
            {l.name}: {l.roundTripMiles} mi round trip{l.bufferMinutes > 0 ? ` · ${l.bufferMinutes} min travel buffer` : ''}{' '}
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={() =>
                void confirmAndDelete(`/api/admin/locations/${l._id}`, 'Could not delete the location').then((ok) => {
                  if (ok) props.onChanged();
                })
              }
            >
              Delete<span className="sr-only"> {l.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <RowForm label="Add a location" submit="Add location" onSubmit={add}>
        <TextInput id={`${id}-name`} label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
        <TextInput id={`${id}-miles`} label="Round trip (miles)" inputMode="decimal" required value={miles} onChange={(e) => setMiles(e.target.value)} />
        <CountInput id={`${id}-buffer`} label="Travel buffer (minutes)" min={0} max={240} value={buffer} onChange={(e) => setBuffer(e.target.value)} />
      </RowForm>
    </section>
  );
}

function TripsPanel() {
  const id = useId();
  const [trips, setTrips] = useState<TripView[]>([]);
  const [rates, setRates] = useState<MileageRateView[]>([]);
  const [date, setDate] = useState(todayHere());
  const [purpose, setPurpose] = useState('');
  const [miles, setMiles] = useState('');
  const [year, setYear] = useState(todayHere().slice(0, 4));
  const [cents, setCents] = useState('');
  const [rateName, setRateName] = useState('');
  const load = useCallback(() => {
    request<TripView[]>('GET', '/api/admin/trips', { session: 'admin' })
      .then((r) => r.ok && setTrips(r.data))
      .catch(() => {});
    request<MileageRateView[]>('GET', '/api/admin/mileage-rates', { session: 'admin' })
      .then((r) => r.ok && setRates(r.data))
      .catch(() => {});
  }, []);
  useEffect(load, [load]);

  async function addTrip() {
    if (await send('POST', '/api/admin/trips', { date, purpose, miles: Number(miles) }, 'Could not add the trip')) {
      setPurpose('');
      setMiles('');
      load();
    }
  }
  async function saveRate() {
    if (await send('PUT', `/api/admin/mileage-rates/${year}`, { centsPerMile: Number(cents), name: rateName }, 'Could not save the rate')) load();
  }

  return (
    <section className="admin-panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Trips and mileage</h2>
      <RowForm label="Add a trip" submit="Add trip" onSubmit={addTrip}>
        <TextInput id={`${id}-date`} label="Date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <TextInput id={`${id}-purpose`} label="Purpose" required value={purpose} onChange={(e) => setPurpose(e.target.value)} />
        <TextInput id={`${id}-miles`} label="Miles" inputMode="decimal" required value={miles} onChange={(e) => setMiles(e.target.value)} />
      </RowForm>
      <ul className="plain-list">
        {trips.map((t) => (
          <li key={t._id} data-trip={t.purpose}>
            {formatDay(t.date)}: {t.purpose}, {t.miles} mi{' '}
            <button
              type="button"
              className="button button-quiet button-small"
              onClick={() =>
                void confirmAndDelete(`/api/admin/trips/${t._id}`, 'Could not delete the trip').then((ok) => {
                  if (ok) load();
                })
              }
            >
              Delete<span className="sr-only"> {t.purpose}</span>
            </button>
          </li>
        ))}
      </ul>
      <h3>Standard mileage rate</h3>
      <ul className="plain-list">
        {rates.map((r) => (
          <li key={r.year}>
            {r.year}: {r.centsPerMile}¢ a mile ({r.name})
          </li>
        ))}
      </ul>
      <RowForm label="Set a year's mileage rate" submit="Save rate" onSubmit={saveRate}>
        <TextInput id={`${id}-year`} label="Year" inputMode="numeric" required value={year} onChange={(e) => setYear(e.target.value)} />
        <TextInput id={`${id}-cents`} label="Cents a mile" inputMode="decimal" required value={cents} onChange={(e) => setCents(e.target.value)} />
        <TextInput id={`${id}-rname`} label="Name" required value={rateName} placeholder="IRS business rate" onChange={(e) => setRateName(e.target.value)} />
      </RowForm>
    </section>
  );
}

function GigsPanel() {
  const id = useId();
  const [view, setView] = useState<GigsView | null>(null);
  const [locations, setLocations] = useState<LocationView[]>([]);
  const load = useCallback(() => {
    request<GigsView>('GET', '/api/admin/gigs', { session: 'admin' })
      .then((r) => r.ok && setView(r.data))
      .catch(() => {});
    request<LocationView[]>('GET', '/api/admin/locations', { session: 'admin' })
      .then((r) => r.ok && setLocations(r.data))
      .catch(() => {});
  }, []);
  useEffect(load, [load]);
  // A Today item's unpaid class (issue 30): the Unpaid list's row, scrolled to and marked once drawn; its month opens too.
  const { focus, rowProps } = useFocusRow(view !== null);
  // Every class by month, this month open (issue 30), and the month of a gig she just added.
  const [added, setAdded] = useState<string[]>([]);
  const months = byMonth(view?.gigs ?? [], (g) => g.date.slice(0, 7));

  return (
    <>
      <section className="admin-panel" aria-labelledby={`${id}-unpaid`}>
        <h2 id={`${id}-unpaid`}>Unpaid</h2>
        {!view ? (
          <p role="status">Loading…</p>
        ) : view.unpaid.length === 0 ? (
          <p>Every class taught is paid.</p>
        ) : (
          <>
            <p>
              {view.unpaid.length} {view.unpaid.length === 1 ? 'class' : 'classes'} taught and not paid: {usdFromCents(view.unpaidCents)}.
            </p>
            <AdminTable caption="Unpaid classes" columns={['Class', 'Location', 'Rate', 'Waiting', 'Miles', 'Actions']}>
              {view.unpaid.map((g) => (
                <GigRow key={g._id} gig={g} ageDays={g.ageDays} onChanged={load} locations={locations} focus={rowProps(g._id)} />
              ))}
            </AdminTable>
          </>
        )}
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-add`}>
        <h2 id={`${id}-add`}>Add a gig</h2>
        <p className="muted">A recurring gig makes its classes ahead; each can then be paid, cancelled or edited alone.</p>
        <GigForm
          locations={locations}
          onAdded={(date) => {
            setAdded((m) => [...m, date.slice(0, 7)]);
            load();
          }}
        />
      </section>
      <section className="admin-panel" aria-labelledby={`${id}-classes`}>
        <h2 id={`${id}-classes`}>Classes by month</h2>
        {!view ? (
          <p role="status">Loading…</p>
        ) : months.length === 0 ? (
          <p>No classes yet.</p>
        ) : (
          <MonthFolds groups={months} open={openMonths(months, { also: added, focused: (g) => g._id === focus })} units={['class', 'classes']}>
            {(m) => (
              <AdminTable caption={`Classes of ${m.label}`} columns={GIG_COLUMNS}>
                {m.items.map((g) => (
                  <GigRow key={g._id} gig={g} onChanged={load} locations={locations} focus={rowProps(g._id)} />
                ))}
              </AdminTable>
            )}
          </MonthFolds>
        )}
      </section>
      <LocationsPanel locations={locations} onChanged={load} />
      <TripsPanel />
    </>
  );
}

export default adminScreen('/admin/gigs', 'Gigs', GigsPanel);

import { useEffect, useState, type FormEvent } from 'react';
import type { EventCancelledView } from '../../../contract/event-prices.ts';
import AdminShell from './AdminShell';
import TodayPanel from './TodayPanel';
import { FilterNote, byMonth, formatDay, useFocusRow, useListFilter, type FocusRowProps } from './admin-ui';
import { inDateRange } from '../../../contract/admin-links.ts';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { FILL_ALL_FIELDS, REPEATS, newEvent, type EventsAddedView, type EventView, type Repeat } from '../../../contract/events.ts';
import type { TakenPlacesView } from '../../../contract/signups.ts';
import { rosterPath } from '../../../contract/roster.ts';
import { check } from '../../../contract/check.ts';
import { Checkbox, choicesOf, CountInput, MoneyInput, SelectInput, TextInput } from '../Field';
import { overlapsNote } from './overlaps';
import { typedCents } from '../../lib/money';
import { priceWords } from '../../lib/event-price';
import { Listing } from '../Listing';

const emptyForm = {
  title: '',
  date: '',
  time: '',
  location: '',
  signUpLink: '',
  isExternal: false,
  capacity: '12',
  // Issue 35: how long it takes her, as typed.
  minutes: '60',
  repeat: 'none' as Repeat,
  // Issue 34: what a place costs, in dollars as typed.
  priceMode: 'free' as PriceMode,
  price: '',
  minPrice: '',
  suggestedPrice: '',
  maxPrice: '',
};

const PRICE_MODES = ['free', 'fixed', 'scale'] as const;
type PriceMode = (typeof PRICE_MODES)[number];
const PRICE_CHOICES = choicesOf(PRICE_MODES, { free: 'Free', fixed: 'A fixed price', scale: 'Sliding scale (pay what you can)' });

type PriceDraft = Pick<typeof emptyForm, 'priceMode' | 'price' | 'minPrice' | 'suggestedPrice' | 'maxPrice'>;

/** The price fields the API takes for the form's choice: none (free), one price, or the scale's three. */
function priceFields(f: PriceDraft) {
  if (f.priceMode === 'fixed') return { priceCents: typedCents(f.price) };
  if (f.priceMode === 'scale')
    return { minPriceCents: typedCents(f.minPrice), suggestedPriceCents: typedCents(f.suggestedPrice), maxPriceCents: typedCents(f.maxPrice) };
  return {};
}

const typed = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));

/** An event's price as the edit form holds it. */
const priceDraftOf = (e: EventView): PriceDraft => ({
  priceMode: e.priceCents !== null ? 'fixed' : e.minPriceCents !== null ? 'scale' : 'free',
  price: typed(e.priceCents),
  minPrice: typed(e.minPriceCents),
  suggestedPrice: typed(e.suggestedPriceCents),
  maxPrice: typed(e.maxPriceCents),
});

/** The Price choice and its amounts, shared by the add and the edit forms. */
function PriceInputs(props: { id: string; draft: PriceDraft; set: (k: keyof PriceDraft) => (e: { target: { value: string } }) => void }) {
  const { id, draft, set } = props;
  return (
    <>
      <SelectInput id={`${id}-price-mode`} label="Price" choices={PRICE_CHOICES} value={draft.priceMode} onChange={set('priceMode')} />
      {draft.priceMode === 'fixed' && <MoneyInput id={`${id}-price`} label="Price of a place ($)" value={draft.price} onChange={set('price')} />}
      {draft.priceMode === 'scale' && (
        <>
          <MoneyInput id={`${id}-min-price`} label="Lowest ($)" value={draft.minPrice} onChange={set('minPrice')} />
          <MoneyInput id={`${id}-suggested-price`} label="Suggested ($)" value={draft.suggestedPrice} onChange={set('suggestedPrice')} />
          <MoneyInput id={`${id}-max-price`} label="Highest ($)" value={draft.maxPrice} onChange={set('maxPrice')} />
        </>
      )}
    </>
  );
}
const REPEAT_CHOICES = choicesOf(REPEATS, { none: 'Does not repeat', weekly: 'Weekly (12 events)', monthly: 'Monthly (6 events)' });

/** Sign-ups per class: `${classTitle}|${date}` -> how many. */
type Taken = Map<string, number>;
const takenKey = (title: string, date: string) => `${title}|${date}`;

/** " · $45.00", " · $20.00 to $60.00, pay what you can": what a place costs (issue 34); free says nothing. */
const priceText = (e: EventView) => (priceWords(e) ? ` · ${priceWords(e)}` : '');

/** She calls an event off: everyone signed up is mailed, every paid place refunded in full. */
async function callOff(event: EventView, done: () => void) {
  const when = formatDay(event.date, event.time);
  if (!(await confirmDialog({ text: `Call off ${event.title} on ${when}? Everyone signed up is mailed, and every paid place is refunded in full.` }))) return;
  const res = await request<EventCancelledView>('POST', `/api/admin/events/${encodeURIComponent(event._id)}/cancel`, { session: 'admin' });
  if (!res.ok) {
    await showAlert({ icon: 'error', title: 'Could not call the event off.', text: res.data.message });
    return;
  }
  await showAlert({ icon: 'success', title: res.data.message });
  done();
}

function EventRow(props: {
  event: EventView;
  taken: number | undefined;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onSaved: () => void;
  focus?: FocusRowProps;
}) {
  const { event } = props;
  const [editing, setEditing] = useState(false);
  const draftOf = (e: EventView) => ({ ...e, capacity: String(e.capacity), minutes: String(e.minutes), ...priceDraftOf(e) });
  const [draft, setDraft] = useState(draftOf(event));
  const set = (k: string) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));

  async function save(e: FormEvent) {
    e.preventDefault();
    const res = await request('PUT', `/api/events/${encodeURIComponent(event._id)}`, {
      body: {
        title: draft.title,
        date: draft.date,
        time: draft.time,
        location: draft.location,
        signUpLink: draft.signUpLink,
        isExternal: draft.isExternal,
        capacity: Number(draft.capacity),
        minutes: Number(draft.minutes),
        // The price as chosen: free sends the four as none, so an edit can make an event free again.
        ...{ priceCents: null, minPriceCents: null, suggestedPriceCents: null, maxPriceCents: null },
        ...priceFields(draft),
      },
      session: 'admin',
    });
    if (!res.ok) {
      await showAlert({ icon: 'error', title: 'Failed to update event.', text: res.data.message });
      return;
    }
    setEditing(false);
    props.onSaved();
  }

  const id = `event-${event._id}`;
  return (
    <li className="item" data-event-row={event._id} {...props.focus}>
      <div className="item-main">
        <input
          type="checkbox"
          aria-label={`Select ${event.title} on ${formatDay(event.date, event.time)}`}
          checked={props.selected}
          onChange={(e) => props.onSelect(e.target.checked)}
        />
        {!editing && (
          <span>
            <strong>{event.title}</strong>
            <span className="muted">
              <span className="event-when">{formatDay(event.date, event.time)}</span>
              {event.location || 'no location'} · {props.taken === undefined ? `${event.capacity} places` : `${props.taken} of ${event.capacity} places taken`}
              {event.isExternal ? ' · external sign-up' : ''}
              {priceText(event)}
              {event.private ? ' · private (not on the calendar)' : ''}
              {event.cancelled ? ' · cancelled' : ''}
              {event.isPast ? ' · past' : ''}
            </span>
          </span>
        )}
      </div>
      {editing ? (
        <form className="form-row" onSubmit={save} aria-label={`Edit ${event.title}`}>
          <TextInput id={`${id}-title`} label="Title" value={draft.title} onChange={set('title')} />
          <TextInput id={`${id}-date`} label="Date" type="date" value={draft.date} onChange={set('date')} />
          <TextInput id={`${id}-time`} label="Time" type="time" value={draft.time} onChange={set('time')} />
          <CountInput id={`${id}-minutes`} label="Length (minutes)" min={1} max={1440} value={draft.minutes} onChange={set('minutes')} />
          <TextInput id={`${id}-location`} label="Location" value={draft.location} onChange={set('location')} />
          <TextInput id={`${id}-link`} label="Sign-up link" value={draft.signUpLink} onChange={set('signUpLink')} />
          <TextInput id={`${id}-capacity`} label="Capacity" type="number" min={1} value={draft.capacity} onChange={set('capacity')} />
          <PriceInputs id={id} draft={draft} set={set} />
          <Checkbox label="External" checked={draft.isExternal} onChange={(e) => setDraft((d) => ({ ...d, isExternal: e.target.checked }))} />
          <div className="card-actions">
            <button className="button button-small" type="submit">
              Save
            </button>
            <button
              className="button button-quiet button-small"
              type="button"
              onClick={() => {
                setDraft(draftOf(event));
                setEditing(false);
              }}
            >
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <span className="row-actions">
          {/* Issue 34: who signed up, checked in at the door. */}
          <a className="button button-small" href={rosterPath(event._id)} data-roster-link>
            Roster
            <span className="sr-only">
              {' '}
              of {event.title} on {formatDay(event.date, event.time)}
            </span>
          </a>
          {!event.isPast && !event.cancelled && (
            <button className="button button-quiet button-small" type="button" onClick={() => void callOff(event, props.onSaved)}>
              Call off
              <span className="sr-only">
                {' '}
                {event.title} on {formatDay(event.date, event.time)}
              </span>
            </button>
          )}
          <button className="button button-quiet button-small" type="button" onClick={() => setEditing(true)}>
            Edit
            <span className="sr-only">
              {' '}
              {event.title} on {formatDay(event.date, event.time)}
            </span>
          </button>
        </span>
      )}
    </li>
  );
}

function EventsPanel() {
  const [all, setEvents] = useState<EventView[] | null>(null);
  // The Today panel's next classes: those not started yet, up to a day.
  const filter = useListFilter();
  const events = all && all.filter((ev) => inDateRange(ev.date, filter) && (!filter.upcoming || !ev.isPast));
  const [form, setForm] = useState(emptyForm);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [sending, setSending] = useState(false);
  const [adding, setAdding] = useState(false);

  const [taken, setTaken] = useState<Taken | null>(null);

  async function load() {
    const [res, signups] = await Promise.all([
      // Her list: with her private events (a tasting she sold) and those she called off (issue 34).
      request<EventView[]>('GET', '/api/admin/events', { session: 'admin' }),
      // How full each class is, so the teacher sees it next to the capacity she set (counted by the server, issue 36).
      request<TakenPlacesView[]>('GET', '/api/admin/signups/taken', { session: 'admin' }).catch(() => null),
    ]);
    if (!res.ok || !Array.isArray(res.data)) {
      await showAlert({ icon: 'error', title: 'Failed to fetch events.' });
      setEvents([]);
      return;
    }
    setEvents(res.data);
    if (!signups || !signups.ok || !Array.isArray(signups.data)) {
      setTaken(null);
      await showAlert({ icon: 'error', title: 'Failed to fetch signups.' });
      return;
    }
    const counts: Taken = new Map();
    for (const s of signups.data) counts.set(takenKey(s.classTitle, s.date), s.taken);
    setTaken(counts);
  }
  useEffect(() => void load(), []);

  // "Events" in the menu is /admin/dashboard#events: the browser finds no such section at load
  // (the page draws it after the session check), so it is scrolled to once the list is there.
  const drawn = events !== null;
  // A Today item's class (issue 30): scrolled to and marked once the list is drawn.
  const { rowProps } = useFocusRow(drawn);
  useEffect(() => {
    if (drawn && window.location.hash === '#events') document.getElementById('events')?.scrollIntoView();
  }, [drawn]);

  const set = (k: keyof typeof emptyForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));

  async function add(e: FormEvent) {
    e.preventDefault();
    if (!form.title.trim() || !form.date || !form.time) {
      await showAlert({ icon: 'warning', title: FILL_ALL_FIELDS });
      return;
    }
    const { priceMode: _mode, price: _p, minPrice: _min, suggestedPrice: _s, maxPrice: _max, ...fields } = form;
    const body = { ...fields, capacity: Number(form.capacity), minutes: Number(form.minutes), ...priceFields(form) };
    const checked = check(newEvent, body);
    if (!checked.ok) {
      await showAlert({ icon: 'warning', title: 'Error adding event.', text: checked.message });
      return;
    }
    setSending(true);
    const res = await request<EventsAddedView>('POST', '/api/admin/events', { body, session: 'admin' });
    setSending(false);
    if (!res.ok) {
      await showAlert({ icon: 'error', title: 'Error adding event.', text: res.data.message });
      return;
    }
    setForm(emptyForm);
    await load();
    // Saved all the same (issue 35): what it overlaps in her agenda is said with the rest.
    const told = [res.data.note, ...(res.data.warnings ?? []), overlapsNote(res.data)].filter(Boolean).join(' ');
    await showAlert({ icon: 'success', title: 'Event(s) added successfully', text: told || undefined });
  }

  async function removeSelected() {
    if (selected.size === 0) return;
    if (!(await confirmDialog({ text: `Delete ${selected.size} selected event(s)?` }))) return;
    const res = await request('DELETE', '/api/events/bulk', { body: { eventIds: [...selected] }, session: 'admin' });
    if (!res.ok) {
      await showAlert({ icon: 'error', title: 'Failed to delete selected events.', text: res.data.message });
      return;
    }
    setSelected(new Set());
    await load();
  }

  return (
    <>
      <TodayPanel />
      <section className="admin-panel" aria-labelledby="add-event-heading">
        <h2 id="add-event-heading">Add event</h2>
        {/* Closed until wanted: on her phone the Today panel and the events come first (issue 20). */}
        <button
          className={adding ? 'button button-quiet button-small' : 'button'}
          type="button"
          aria-expanded={adding}
          aria-controls={adding ? 'add-event-form' : undefined}
          onClick={() => setAdding((a) => !a)}
        >
          {adding ? 'Close the form' : 'New event'}
        </button>
        {adding && (
          <>
            <form className="form-row add-event" id="add-event-form" onSubmit={add} noValidate aria-label="Add event">
              <TextInput id="ev-title" label="Title" value={form.title} onChange={set('title')} />
              <TextInput id="ev-date" label="Date" type="date" value={form.date} onChange={set('date')} />
              <TextInput id="ev-time" label="Time" type="time" value={form.time} onChange={set('time')} />
              <CountInput id="ev-minutes" label="Length (minutes)" min={1} max={1440} value={form.minutes} onChange={set('minutes')} />
              <TextInput id="ev-location" label="Location" value={form.location} onChange={set('location')} />
              <TextInput id="ev-link" label="Sign-up link" type="url" value={form.signUpLink} onChange={set('signUpLink')} />
              <TextInput id="ev-capacity" label="Capacity" type="number" min={1} max={500} value={form.capacity} onChange={set('capacity')} />
              <SelectInput id="ev-repeat" label="Repeat" choices={REPEAT_CHOICES} value={form.repeat} onChange={set('repeat')} />
              <PriceInputs id="ev" draft={form} set={set} />
              <Checkbox label="External sign-up" checked={form.isExternal} onChange={(e) => setForm((f) => ({ ...f, isExternal: e.target.checked }))} />
              <div>
                <button className="button" type="submit" disabled={sending}>
                  Add event
                </button>
              </div>
            </form>
            <p className="muted">Monthly repeats keep the day of the month; in a shorter month, the 29th–31st fall on its last day.</p>
          </>
        )}
      </section>
      <section className="admin-panel" aria-labelledby="events-heading" id="events" tabIndex={-1}>
        <h2 id="events-heading">Events</h2>
        {(filter.upcoming || filter.from || filter.to) && (
          <FilterNote>
            {filter.upcoming ? 'Classes that have not started yet' : 'Classes'}
            {filter.from ? ` from ${formatDay(filter.from)}` : ''}
            {filter.to ? ` to ${formatDay(filter.to)}` : ''}.
          </FilterNote>
        )}
        <p className="card-actions">
          <button className="button danger button-small" type="button" disabled={selected.size === 0} onClick={() => void removeSelected()}>
            Delete selected ({selected.size})
          </button>
        </p>
        <Listing items={events} empty="No events added yet.">
          {(events) =>
            byMonth(events, (ev) => ev.date.slice(0, 7)).map((g) => (
              <div key={g.key} data-month={g.key}>
                <h3 className="month-heading">{g.label}</h3>
                <ul className="item-list">
                  {g.items.map((ev) => (
                    <EventRow
                      key={ev._id}
                      event={ev}
                      taken={taken ? (taken.get(takenKey(ev.title, ev.date)) ?? 0) : undefined}
                      focus={rowProps(ev._id)}
                      selected={selected.has(ev._id)}
                      onSelect={(on) =>
                        setSelected((s) => {
                          const n = new Set(s);
                          if (on) n.add(ev._id);
                          else n.delete(ev._id);
                          return n;
                        })
                      }
                      onSaved={() => void load()}
                    />
                  ))}
                </ul>
              </div>
            ))
          }
        </Listing>
      </section>
    </>
  );
}

export default function AdminEvents() {
  return (
    <AdminShell current="/admin/dashboard" title="Events" explainRedirect>
      {() => <EventsPanel />}
    </AdminShell>
  );
}

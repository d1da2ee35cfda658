import { useCallback, useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminForm, confirmAndDelete, formatClock, formatWhen, herToday, herZone, send, useFocusRow, type FocusRowProps } from './admin-ui';
import { overlapsNote } from './overlaps';
import { request } from '../../lib/http';
import { addDaysTo, dayLabel, dayOf, instantIn } from '../../lib/calendar';
import { TextInput } from '../Field';
import { KIND_WORDS, type AgendaItem, type OverlapWarning } from '../../../contract/agenda-words.ts';

/**
 * Her Week (issue 35, decision 0044): seven days of her agenda from a day she picks (today on her
 * clocks at first), each day's classes, tastings, sessions, gigs and busy times in order, with the
 * place, the drive from the place before and what overlaps what. Days and times are hers
 * (SITE_TIMEZONE) wherever the phone is. A busy time she types is added here and deleted here;
 * Google's come and go with her calendar.
 */

const DAYS = 7;

/** The first day of the address (?from=YYYY-MM-DD), else her today. */
function firstDayOfAddress(): string {
  const from = new URLSearchParams(window.location.search).get('from') ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(from) && !Number.isNaN(Date.parse(from)) ? from : herToday();
}

/** "6:00 PM–7:00 PM" on `day`; a start or an end on another day says that day too. */
function timeRange(item: AgendaItem, day: string): string {
  const zone = herZone();
  const start = dayOf(item.start, zone) === day ? formatClock(item.start) : formatWhen(item.start);
  const end = dayOf(item.end, zone) === day ? formatClock(item.end) : formatWhen(item.end);
  return `${start}–${end}`;
}

function Item(props: { item: AgendaItem; day: string; titles: Map<string, string>; onDelete: (item: AgendaItem) => void; focusProps: FocusRowProps }) {
  const { item } = props;
  const conflicts = item.conflictsWith.map((id) => props.titles.get(id) ?? 'something outside this week');
  return (
    <li className={`item week-item${conflicts.length ? ' week-conflicting' : ''}`} data-agenda-item={item.id} data-kind={item.kind} {...props.focusProps}>
      <div className="week-what">
        <span className="week-time">{timeRange(item, props.day)}</span>
        <span className="page-badge">{KIND_WORDS[item.kind]}</span>
        <strong>{item.title || KIND_WORDS[item.kind]}</strong>
        {item.place && <span className="muted">{item.place}</span>}
        {item.milesFromPrevious !== undefined && <span className="muted">{item.milesFromPrevious} mi from the place before</span>}
        {item.source === 'google' && <span className="muted">From your Google Calendar</span>}
        {conflicts.length > 0 && (
          <span className="week-conflict" data-conflict>
            Overlaps {conflicts.join(', ')}
          </span>
        )}
      </div>
      {item.kind === 'busy' && item.source === 'manual' && (
        <div className="row-actions">
          <button type="button" className="button button-quiet button-small" onClick={() => props.onDelete(item)}>
            Delete<span className="sr-only"> {item.title || 'busy time'}</span>
          </button>
        </div>
      )}
    </li>
  );
}

/** The small form under the days: a busy time on one of her days, from and to on her clocks. */
function BusyForm(props: { day: string; onSaved: (said: string) => void }) {
  const id = useId();
  const [day, setDay] = useState(props.day);
  const [from, setFrom] = useState('12:00');
  const [to, setTo] = useState('13:00');
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setDay(props.day), [props.day]);

  async function add() {
    const zone = herZone();
    setBusy(true);
    // Her day and times made instants on her clocks, whatever the phone's zone.
    const body = { start: instantIn(day, from, zone).toISOString(), end: instantIn(day, to, zone).toISOString(), title };
    const made = await send<{ message: string } & Partial<OverlapWarning>>('POST', '/api/admin/busy', body, 'Could not add the busy time');
    setBusy(false);
    if (!made) return;
    setTitle('');
    props.onSaved([made.message, overlapsNote(made)].filter(Boolean).join(' '));
  }

  return (
    <AdminForm label="Add a busy time" submit="Add busy time" onSubmit={() => void add()} disabled={busy}>
      <div className="form-row">
        <TextInput id={`${id}-day`} label="Day" type="date" required value={day} onChange={(e) => setDay(e.target.value)} />
        <TextInput id={`${id}-from`} label="From" type="time" required value={from} onChange={(e) => setFrom(e.target.value)} />
        <TextInput id={`${id}-to`} label="To" type="time" required value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <TextInput id={`${id}-title`} label="What (optional)" maxLength={200} value={title} onChange={(e) => setTitle(e.target.value)} />
    </AdminForm>
  );
}

function WeekPanel() {
  const headingId = useId();
  const [first, setFirst] = useState(firstDayOfAddress);
  const [items, setItems] = useState<AgendaItem[] | null>(null);
  // A Today row (a free meeting) opens this week with ?focus=<id>: that item is scrolled to and marked.
  const { rowProps } = useFocusRow(items !== null);
  const [failed, setFailed] = useState('');
  const [said, setSaid] = useState('');
  const last = addDaysTo(first, DAYS - 1);

  const load = useCallback(async () => {
    setFailed('');
    try {
      const res = await request<AgendaItem[]>('GET', `/api/admin/agenda?from=${first}&to=${last}`, { session: 'admin' });
      if (res.ok && Array.isArray(res.data)) setItems(res.data);
      else setFailed((res.ok ? '' : res.data.message) || 'Your week could not be loaded.');
    } catch {
      setFailed('The server could not be reached. Reload the page to try again.');
    }
  }, [first, last]);
  useEffect(() => void load(), [load]);

  // The week's address follows the week shown, so a reload or a shared link opens the same days.
  function showFrom(day: string) {
    setItems(null);
    setFirst(day);
    window.history.replaceState(null, '', `${window.location.pathname}?from=${day}`);
  }

  async function remove(item: AgendaItem) {
    if (
      await confirmAndDelete(`/api/admin/busy/${encodeURIComponent(item.id)}`, 'Could not delete the busy time', `Delete ${item.title || 'this busy time'}?`)
    ) {
      setSaid('Busy time deleted.');
      await load();
    }
  }

  const zone = herZone();
  const days = Array.from({ length: DAYS }, (_, i) => addDaysTo(first, i));
  // An item is on every day it takes time of (a busy week away, a retreat past midnight); one
  // ending at midnight does not reach into the next day.
  const onDay = (item: AgendaItem, day: string) =>
    dayOf(item.start, zone) <= day && day <= dayOf(new Date(Math.max(Date.parse(item.start), Date.parse(item.end) - 1)).toISOString(), zone);
  const titles = new Map((items ?? []).map((i) => [i.id, `${i.title || KIND_WORDS[i.kind]}`]));

  return (
    <>
      <section className="admin-panel" aria-labelledby={headingId}>
        <h2 id={headingId}>
          {dayLabel(first)} to {dayLabel(last)}
        </h2>
        <div className="card-actions week-nav">
          <button type="button" className="button button-quiet button-small" onClick={() => showFrom(addDaysTo(first, -DAYS))}>
            Previous week
          </button>
          <button type="button" className="button button-quiet button-small" onClick={() => showFrom(herToday())} disabled={first === herToday()}>
            Today
          </button>
          <button type="button" className="button button-quiet button-small" onClick={() => showFrom(addDaysTo(first, DAYS))}>
            Next week
          </button>
        </div>
        <p role="status" className="week-said">
          {said}
        </p>
        {failed ? (
          <p role="alert" className="admin-error">
            {failed}
          </p>
        ) : !items ? (
          <p role="status">Loading…</p>
        ) : (
          days.map((day) => {
            const today = items.filter((i) => onDay(i, day));
            return (
              <div key={day} className="week-day" data-day={day}>
                <h3 className="month-heading">{dayLabel(day)}</h3>
                {today.length === 0 ? (
                  <p className="muted">Nothing planned.</p>
                ) : (
                  <ul className="item-list">
                    {today.map((i) => (
                      <Item key={i.id} item={i} day={day} titles={titles} onDelete={(x) => void remove(x)} focusProps={rowProps(i.id)} />
                    ))}
                  </ul>
                )}
              </div>
            );
          })
        )}
      </section>
      <section className="admin-panel" aria-labelledby={`${headingId}-busy`}>
        <h2 id={`${headingId}-busy`}>Add a busy time</h2>
        <p className="muted">A time you are not to be booked (the dentist, a trip): no session is offered during it.</p>
        <BusyForm
          day={first}
          onSaved={(words) => {
            setSaid(words);
            void load();
          }}
        />
      </section>
    </>
  );
}

/** /admin/week[?from=YYYY-MM-DD]: her seven days in one place (issue 35). */
export default adminScreen('/admin/week', 'Week', WeekPanel);

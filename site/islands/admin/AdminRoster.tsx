import { useCallback, useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import SeriesChart from './SeriesChart';
import WalkInForm from './WalkInForm';
import { formatDay } from './admin-ui';
import { request } from '../../lib/http';
import {
  ATTENDANCE_WORDS,
  NO_SHOW_BEFORE_START,
  type Attendance,
  type AttendanceSavedView,
  type RosterPersonView,
  type RosterView,
} from '../../../contract/roster.ts';

/** What a mark says in the status line. */
const DONE: Record<Attendance, (name: string) => string> = {
  present: (name) => `${name} checked in.`,
  noShow: (name) => `${name} marked as a no-show.`,
};

type Mark = (p: RosterPersonView, status: Attendance) => void;

/** A mark's button: pressed while the person has that mark, in its colour. */
function MarkButton(props: { person: RosterPersonView; status: Attendance; words: string; onMark: Mark; busy: boolean }) {
  const { person, status } = props;
  const on = person.attendance === status;
  const colour = status === 'present' ? 'button' : 'button danger';
  return (
    <button
      type="button"
      className={`${on ? colour : 'button button-quiet'} button-small`}
      aria-pressed={on}
      disabled={props.busy}
      onClick={() => props.onMark(person, status)}
    >
      {props.words}
      <span className="sr-only"> {person.name}</span>
    </button>
  );
}

/**
 * One person on the roster: one tap checks them in (the button then reads "Present"), one marks
 * a no-show; a place still being paid for shows "Paying" and no buttons.
 */
function Person(props: { person: RosterPersonView; onMark: Mark; busy: boolean; started: boolean }) {
  const { person: p } = props;
  const present = p.attendance === 'present';
  return (
    <li className={`item roster-person${p.attendance ? ` roster-${p.attendance}` : ''}`} data-roster-person={p._id}>
      <div className="roster-who">
        <strong>{p.name}</strong>
        <span className="muted roster-contact">
          <a href={`mailto:${p.email}`}>{p.email}</a>
          {p.phone && (
            <>
              {' · '}
              <a href={`tel:${p.phone}`}>{p.phone}</a>
            </>
          )}
        </span>
        <span className="roster-tags">
          {p.walkIn && <span className="page-badge">Walk-in</span>}
          {p.payment === 'paid' && <span className="page-badge">Paid</span>}
          {p.payment === 'held' && <span className="page-badge page-badge-draft">Paying</span>}
          {!p.hasSignature && <span className="page-badge page-badge-draft">No signed waiver</span>}
        </span>
      </div>
      {p.payment !== 'held' && (
        <div className="row-actions roster-marks">
          <MarkButton person={p} status="present" words={present ? ATTENDANCE_WORDS.present : 'Check in'} onMark={props.onMark} busy={props.busy} />
          {/* Issue 50: a no-show only once the class has begun (the server refuses one before). */}
          {props.started && <MarkButton person={p} status="noShow" words={ATTENDANCE_WORDS.noShow} onMark={props.onMark} busy={props.busy} />}
        </div>
      )}
    </li>
  );
}

/** The event of the page's address (?event=). */
const eventOfAddress = () => new URLSearchParams(window.location.search).get('event') ?? '';

function RosterPanel() {
  const [eventId] = useState(eventOfAddress);
  const headingId = useId();
  const [roster, setRoster] = useState<RosterView | null>(null);
  const [failed, setFailed] = useState('');
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const load = useCallback(async () => {
    if (!eventId) {
      setFailed('No class chosen: open the roster from a class on the Events list.');
      return;
    }
    try {
      const res = await request<RosterView>('GET', `/api/admin/events/${encodeURIComponent(eventId)}/roster`, { session: 'admin' });
      if (res.ok) setRoster(res.data);
      else setFailed(res.data.message ?? 'The roster could not be loaded.');
    } catch {
      setFailed('The server could not be reached. Reload the page to try again.');
    }
  }, [eventId]);
  useEffect(() => void load(), [load]);

  async function mark(p: RosterPersonView, status: Attendance) {
    setBusy(p._id);
    try {
      const res = await request<AttendanceSavedView>('PUT', `/api/admin/events/${encodeURIComponent(eventId)}/attendance`, {
        body: { signupId: p._id, status },
        session: 'admin',
      });
      if (!res.ok) {
        setSaid(res.data.message ?? 'The mark was not saved.');
        return;
      }
      setRoster((r) => r && { ...r, people: r.people.map((x) => (x._id === p._id ? { ...x, attendance: res.data.attendance } : x)) });
      setSaid(DONE[status](p.name));
    } catch {
      setSaid('The server could not be reached: the mark was not saved. Please try again.');
    } finally {
      setBusy(null);
    }
  }

  if (failed)
    return (
      <p role="alert" className="admin-error">
        {failed}
      </p>
    );
  if (!roster) return <p role="status">Loading…</p>;
  const { event, people } = roster;
  const holding = people.filter((p) => p.payment !== 'held');
  const count = (a: Attendance) => holding.filter((p) => p.attendance === a).length;

  return (
    <div className="roster">
      <section className="admin-panel" aria-labelledby={headingId}>
        <h2 id={headingId}>{event.title}</h2>
        <p className="roster-when">
          {formatDay(event.date, event.time)}
          {event.location && ` · ${event.location}`}
          {event.cancelled && ' · cancelled'}
        </p>
        <p className="roster-counts" data-roster-counts>
          {holding.length} of {event.capacity} places taken · {count('present')} present · {count('noShow')} no-show
        </p>
        {!event.isPast && people.length > 0 && (
          <p className="muted" data-no-show-later>
            {NO_SHOW_BEFORE_START}
          </p>
        )}
        <p role="status" className="roster-said">
          {said}
        </p>
        {people.length === 0 ? (
          <p className="muted">Nobody signed up yet.</p>
        ) : (
          <ul className="item-list roster-people">
            {people.map((p) => (
              <Person key={p._id} person={p} busy={busy === p._id} started={event.isPast} onMark={(x, s) => void mark(x, s)} />
            ))}
          </ul>
        )}
      </section>

      <section className="admin-panel" aria-labelledby={`${headingId}-walk-in`}>
        <h2 id={`${headingId}-walk-in`}>Walk-ins</h2>
        <button
          className={adding ? 'button button-quiet button-small' : 'button'}
          type="button"
          aria-expanded={adding}
          aria-controls={adding ? `${headingId}-walk-in-form` : undefined}
          onClick={() => setAdding((a) => !a)}
        >
          {adding ? 'Close the form' : 'Add walk-in'}
        </button>
        {adding && (
          <div id={`${headingId}-walk-in-form`}>
            <WalkInForm
              eventId={eventId}
              waiver={roster.waiver}
              onAdded={(name) => {
                setSaid(`${name} added as a walk-in and checked in.`);
                setAdding(false);
                void load();
              }}
            />
          </div>
        )}
      </section>

      {event.inSeries && (
        <section className="admin-panel" aria-labelledby={`${headingId}-series`}>
          <h2 id={`${headingId}-series`}>This class, last six months</h2>
          <SeriesChart points={roster.series} />
        </section>
      )}
    </div>
  );
}

/** /admin/roster?event={id}: a class's people on her phone at the door (issue 34). */
export default adminScreen('/admin/dashboard#events', 'Roster', RosterPanel);

import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $session, $user, setUser, startSession, type User } from '../../stores/user';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { localTimeWithZone } from '../../lib/calendar';
import ClassPlaces from './ClassPlaces';
import { PHONE_RULE, ZIPCODE_RULE, type ProfileUpdatedView } from '../../../contract/user.ts';
import { placeLink, type ClientSessionView, type ClientSlotsView } from '../../../contract/slots.ts';

import { CalendarFeed, SessionActions } from './SessionChanges';
import { groupBySeries } from './sessionGroups';
import { FormsStatus, IntakeNotice } from './IntakeStatus';
import MyData from './MyData';
import type { SlotView } from '../../../contract/slots.ts';
import type { PageClock } from '../../../contract/content.ts';
import type { SessionTypeKey } from '../../../contract/settings.ts';
import { Listing } from '../Listing';

const BookSession = lazy(() => import('./BookSession'));
// Issue 23: her intake form, the dashboard's Forms line, the booking page's notice, the client's data.
const IntakeForm = lazy(() => import('./Intake'));
const GuidedBooking = lazy(() => import('./GuidedBooking'));
// Issue 32: the packages she sells, offered where a client books; the sessions a client holds, on her dashboard.
const BuyPackage = lazy(() => import('./BuyPackage'));
const MyBalance = lazy(() => import('./MyBalance'));

/** Where a session happens, in one line: an online link opens in a new tab, an address is text (issue 20). */
function SessionPlace({ place }: { place: string }) {
  const link = placeLink(place);
  return (
    <div className="session-place" data-session-place>
      Where:{' '}
      {link ? (
        <a href={link} target="_blank" rel="noopener noreferrer">
          {link}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      ) : (
        place
      )}
    </div>
  );
}

/** My Bookings: booked sessions sorted by date and time, past ones flagged. */
function BookedSessions({ user, zone }: { user: User; zone: string }) {
  const [sessions, setSessions] = useState<ClientSessionView[] | null>(null);
  // The page's clock, read once: a session that starts while the page is open is not re-marked (the server's isPast is at the next load).
  const [now] = useState(Date.now);
  // For Cancel/Reschedule (issue 15): the free slots to move to, and what a session too close to change says instead.
  const [freeSlots, setFreeSlots] = useState<SlotView[]>([]);
  const [tooLate, setTooLate] = useState('');
  const [loads, setLoads] = useState(0);
  useEffect(() => {
    request<ClientSlotsView>('GET', `/api/bookings?userId=${encodeURIComponent(user.id)}`, { session: 'user' }).then((r) => {
      const list = r.ok ? [...r.data.bookedSlots] : [];
      list.sort((a, b) => `${a.date} ${a.time}`.localeCompare(`${b.date} ${b.time}`));
      setSessions(list);
      setFreeSlots(r.ok ? r.data.availableSlots : []);
      setTooLate(r.ok ? (r.data.tooLateMessage ?? '') : '');
    });
  }, [user.id, loads]);
  return (
    <section aria-labelledby="booked-heading">
      <h2 id="booked-heading">Booked Sessions</h2>
      <Listing
        items={sessions}
        empty={
          <p>
            No sessions booked yet. <a href={`/user/${encodeURIComponent(user.id)}/book`}>Book a new session</a>.
          </p>
        }
      >
        {(sessions) => (
          <ul className="item-list">
            {/* Issue 32: a weekly series' sessions together, each still changed alone. */}
            {groupBySeries(sessions).map((g) =>
              g.kind === 'single' ? (
                sessionItem(g.session)
              ) : (
                <li key={g.seriesId} className="item series" data-series={g.seriesId}>
                  <h3 className="series-heading">Weekly series · {g.sessions.length} sessions</h3>
                  <ul className="item-list">{g.sessions.map(sessionItem)}</ul>
                </li>
              ),
            )}
          </ul>
        )}
      </Listing>
    </section>
  );

  function sessionItem(s: ClientSessionView) {
    const past = s.isPast || new Date(s.startsAt).getTime() < now;
    return (
      <li key={s._id} className={`item${past ? ' past' : ''}`} data-session={s._id}>
        <div>
          <strong>
            {new Date(`${s.date}T12:00:00Z`).toLocaleDateString('en-US', {
              weekday: 'short',
              month: 'short',
              day: 'numeric',
              year: 'numeric',
              timeZone: 'UTC',
            })}
          </strong>{' '}
          {localTimeWithZone(s.startsAt, zone)} · {s.sessionType} · {s.duration || '60 mins'}
          {past && <span className="badge-past"> Past</span>}
        </div>
        {s.place && <SessionPlace place={s.place} />}
        {/* Only a link there is: an in-person session never gets one, and no mail promises it (issue 30). */}
        {s.link && (
          <a href={s.link} target="_blank" rel="noopener noreferrer">
            Join link<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
        {!past && <SessionActions session={s} freeSlots={freeSlots} tooLateMessage={tooLate} zone={zone} onChanged={() => setLoads((n) => n + 1)} />}
      </li>
    );
  }
}

const editable = ['phone', 'firstName', 'lastName', 'preferredName', 'pronoun', 'city', 'zipcode'] as const;
type Editable = (typeof editable)[number];
const labels: Record<Editable, string> = {
  phone: 'Phone',
  firstName: 'First name',
  lastName: 'Last name',
  preferredName: 'Preferred name',
  pronoun: 'Pronoun',
  city: 'City & State',
  zipcode: 'Zipcode',
};

/** Account settings: view, Edit, Cancel (restores), Save. */
function AccountSettings({ user }: { user: User }) {
  const original = () => Object.fromEntries(editable.map((k) => [k, user[k] ?? ''])) as Record<Editable, string>;
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState(original);
  const [errors, setErrors] = useState<Partial<Record<Editable, string>>>({});

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!user.id) {
      await showAlert({
        icon: 'error',
        title: 'User ID Required',
        text: 'We couldn’t find your User ID. Please log in again or contact me if the issue persists.',
      });
      return;
    }
    const problems: Partial<Record<Editable, string>> = {};
    if (!/^\d{0,10}$/.test(values.phone)) problems.phone = PHONE_RULE;
    if (!/^\d{0,5}$/.test(values.zipcode)) problems.zipcode = ZIPCODE_RULE;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    const res = await request<ProfileUpdatedView>('PUT', `/api/user/${encodeURIComponent(user.id)}/update`, { body: values, session: 'user' });
    if (!res.ok || !res.data.user) {
      await showAlert({ icon: 'error', title: 'Update Failed', text: 'Failed to update profile. Please try again later.' });
      return;
    }
    setUser({ ...res.data.user, id: user.id });
    setEditing(false);
    await showAlert({ icon: 'success', title: 'Profile updated successfully!' });
  }

  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account Settings</h2>
      <form className="form card" onSubmit={save} noValidate aria-label="Account settings">
        <div className="field">
          <label htmlFor="acc-email">Email</label>
          <input id="acc-email" value={user.email} readOnly aria-readonly="true" />
        </div>
        {editable.map((k) => (
          <div className="field" key={k}>
            <label htmlFor={`acc-${k}`}>{labels[k]}</label>
            <input
              id={`acc-${k}`}
              value={values[k]}
              readOnly={!editing}
              inputMode={k === 'phone' || k === 'zipcode' ? 'numeric' : undefined}
              maxLength={k === 'phone' || k === 'zipcode' ? undefined : 100}
              onChange={(e) => {
                // Digits only, at most 10 (phone) or 5 (zipcode): pasted "(503) 555-0100" keeps its digits.
                const limit = k === 'phone' ? 10 : 5;
                const v = k === 'phone' || k === 'zipcode' ? e.target.value.replace(/\D/g, '').slice(0, limit) : e.target.value;
                setValues((x) => ({ ...x, [k]: v }));
              }}
              aria-invalid={errors[k] ? true : undefined}
              aria-describedby={errors[k] ? `acc-${k}-error` : undefined}
            />
            {errors[k] && (
              <span id={`acc-${k}-error`} className="field-error" role="alert">
                {errors[k]}
              </span>
            )}
          </div>
        ))}
        <div className="card-actions">
          {/* Distinct keys: React must not turn the clicked Edit button into Save mid-click, or the
              browser would treat that same click as a submit. */}
          {!editing ? (
            <button key="edit" type="button" className="button" onClick={() => setEditing(true)}>
              Edit
            </button>
          ) : (
            <>
              <button key="save" type="submit" className="button">
                Save
              </button>
              <button
                type="button"
                className="button button-quiet"
                onClick={() => {
                  setValues(original());
                  setErrors({});
                  setEditing(false);
                }}
              >
                Cancel
              </button>
            </>
          )}
        </div>
      </form>
    </section>
  );
}

/** The client area: /user/{id}, /user/{id}/book, /user/{id}/account. */
export default function ClientArea({
  userId,
  section,
  clock,
  guided,
}: {
  userId: string;
  section: 'home' | 'book' | 'account' | 'intake' | 'guided';
  clock: PageClock;
  /** The guided booking's session type (section 'guided'). */
  guided?: SessionTypeKey;
}) {
  const user = useStore($user);
  const session = useStore($session);

  useEffect(() => {
    startSession();
  }, []);
  useEffect(() => {
    if (session === 'unauthenticated') window.location.replace('/login');
  }, [session]);

  if (!user) return <p role="status">{session === 'unauthenticated' ? 'Redirecting to login…' : 'Signing you in...'}</p>;
  if (user.id !== userId) {
    // Someone else's address: the server refuses it anyway; go to one's own.
    window.location.replace(`/user/${encodeURIComponent(user.id)}${window.location.pathname.replace(/^\/user\/[^/]*/, '')}`);
    return <p role="status">Signing you in...</p>;
  }
  const name = user.preferredName || user.firstName;
  return (
    <div className="client-area">
      {session === 'validating' && (
        <p className="muted" role="status">
          Loading…
        </p>
      )}
      {section !== 'account' && <h2 className="greeting">Hi, {name}!</h2>}
      <nav aria-label="Your account" className="card-actions client-nav">
        <a className="button button-quiet button-small" href={`/user/${encodeURIComponent(user.id)}`} aria-current={section === 'home' ? 'page' : undefined}>
          My Bookings
        </a>
        <a
          className="button button-quiet button-small"
          href={`/user/${encodeURIComponent(user.id)}/book`}
          aria-current={section === 'book' ? 'page' : undefined}
        >
          New Booking
        </a>
        <a
          className="button button-quiet button-small"
          href={`/user/${encodeURIComponent(user.id)}/account`}
          aria-current={section === 'account' ? 'page' : undefined}
        >
          Account
        </a>
      </nav>
      {section === 'home' && <BookedSessions user={user} zone={clock.zone} />}
      {section === 'home' && (
        <Suspense fallback={null}>
          <MyBalance userId={user.id} zone={clock.zone} />
        </Suspense>
      )}
      {section === 'home' && <FormsStatus user={user} />}
      {section === 'home' && <ClassPlaces user={user} />}
      {section === 'book' && <IntakeNotice user={user} />}
      {section === 'intake' && (
        <Suspense fallback={<p role="status">Loading…</p>}>
          <IntakeForm user={user} />
        </Suspense>
      )}
      {section === 'book' && (
        <Suspense fallback={<p role="status">Loading…</p>}>
          <BookSession user={user} clock={clock} />
        </Suspense>
      )}
      {section === 'book' && (
        <Suspense fallback={null}>
          <BuyPackage user={user} />
        </Suspense>
      )}
      {section === 'guided' && guided && (
        <Suspense fallback={<p role="status">Loading…</p>}>
          <GuidedBooking user={user} clock={clock} typeKey={guided} />
        </Suspense>
      )}
      {section === 'account' && <AccountSettings user={user} />}
      {section === 'account' && <CalendarFeed userId={user.id} />}
      {section === 'account' && <MyData user={user} />}
    </div>
  );
}

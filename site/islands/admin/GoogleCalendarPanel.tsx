import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatWhen } from './admin-ui';
import { request } from '../../lib/http';
import { Checkbox, SelectInput } from '../Field';
import { CALENDAR_TITLE_CHOICES, CALENDAR_TITLE_SAVED, type CalendarChoice, type CalendarView, type ConnectOutcome } from '../../../contract/calendar.ts';
import { CALENDAR_TITLES, type CalendarTitle, type SettingsView } from '../../../contract/settings.ts';

/**
 * Her Google Calendar on the Settings page (issue 35, decision 0044): connect it (Google's consent
 * page, then back here), tick the calendars whose events mean she is busy, pick the one the site
 * writes to, see when her busy times were last read (and since when Google can't be reached),
 * disconnect. Dates are in her zone (formatWhen). Issue 48 (decision 0058): how her sessions are
 * titled there (her calendarTitle setting, saved through PUT /api/admin/settings), never with the
 * session type's words.
 */

/** What the consent round trip's return (?calendar=…) says. */
const OUTCOME_WORDS: Record<ConnectOutcome, string> = {
  connected: 'Google Calendar connected.',
  refused: 'Google Calendar was not connected: the permission was not given. Try again.',
  failed: 'Google Calendar could not be connected. Try again later.',
};

const NO_WRITE = '';

export function GoogleCalendarPanel() {
  const id = useId();
  const [view, setView] = useState<CalendarView | null>(null);
  const [busy, setBusy] = useState<string[]>([]);
  const [write, setWrite] = useState(NO_WRITE);
  const [status, setStatus] = useState('');
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState(false);
  // Null until her settings are read: the panel waits for them, so a choice made meanwhile is never overwritten.
  const [title, setTitle] = useState<CalendarTitle | null>(null);
  const [savedTitle, setSavedTitle] = useState<CalendarTitle | null>(null);

  function fill(v: CalendarView) {
    setView(v);
    setBusy(v.calendars.filter((c) => c.busy).map((c) => c.id));
    setWrite(v.calendars.find((c) => c.write)?.id ?? NO_WRITE);
  }

  useEffect(() => {
    const outcome = new URLSearchParams(window.location.search).get('calendar') as ConnectOutcome | null;
    if (outcome && outcome in OUTCOME_WORDS) setStatus(OUTCOME_WORDS[outcome]);
    request<CalendarView>('GET', '/api/admin/calendar', { session: 'admin' })
      .then((r) => (r.ok ? fill(r.data) : setFailed(true)))
      .catch(() => setFailed(true));
    request<SettingsView>('GET', '/api/admin/settings', { session: 'admin' })
      .then((r) => {
        if (!r.ok) return setFailed(true);
        setTitle(r.data.settings.calendarTitle);
        setSavedTitle(r.data.settings.calendarTitle);
      })
      .catch(() => setFailed(true));
  }, []);

  /** Her choice of titles, when changed: saved first, so the calendars' save that follows writes with it. */
  async function saveTitle(): Promise<string | undefined> {
    if (title === null || title === savedTitle) return undefined;
    const r = await request<SettingsView>('PUT', '/api/admin/settings', { session: 'admin', body: { calendarTitle: title } });
    if (!r.ok) return r.data.message ?? 'The calendar titles were not saved. Please try again.';
    setSavedTitle(r.data.settings.calendarTitle);
    return CALENDAR_TITLE_SAVED;
  }

  async function send(method: 'PUT' | 'DELETE', body?: CalendarChoice) {
    setSending(true);
    try {
      const titled = method === 'PUT' ? await saveTitle() : undefined;
      const r = await request<{ message?: string; calendar?: CalendarView }>(method, '/api/admin/calendar', { session: 'admin', ...(body ? { body } : {}) });
      if (r.ok && r.data.calendar) fill(r.data.calendar);
      setStatus([r.data.message ?? (r.ok ? '' : 'That did not work. Please try again.'), titled].filter(Boolean).join(' '));
    } catch {
      setStatus('The server could not be reached. Please try again.');
    } finally {
      setSending(false);
    }
  }

  function save(ev: FormEvent) {
    ev.preventDefault();
    void send('PUT', { busyCalendarIds: busy, writeCalendarId: write === NO_WRITE ? null : write });
  }

  const heading = (
    <h2 id={`${id}-heading`} tabIndex={-1}>
      Google Calendar
    </h2>
  );
  const statusLine = (
    <p role="status" className="muted" data-calendar-status>
      {status}
    </p>
  );
  if (failed)
    return (
      <section className="admin-panel" id="google-calendar" aria-labelledby={`${id}-heading`}>
        {heading}
        <p role="alert">Your calendar settings could not be loaded. Please reload the page.</p>
      </section>
    );
  if (!view || title === null) return <p role="status">Loading…</p>;

  return (
    <section className="admin-panel" id="google-calendar" aria-labelledby={`${id}-heading`} data-google-calendar>
      {heading}
      {!view.available ? (
        <p>Google Calendar is not set up on this server (it needs GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET).</p>
      ) : !view.connected ? (
        <>
          <p>
            Connect your Google Calendar and the times you are busy there are not offered to clients, and the site can add your sessions to it.
            {view.standIn && ' (This server uses a local stand-in for Google.)'}
          </p>
          <p>
            <a className="button button-small" href="/api/admin/calendar/connect">
              Connect Google Calendar
            </a>
          </p>
        </>
      ) : (
        <form className="product-form settings-form" aria-label="Google Calendar" noValidate onSubmit={save}>
          <p>
            Connected as <strong data-calendar-account>{view.account}</strong>
            {view.standIn && ' (local stand-in)'}.
          </p>
          <p className="muted" data-calendar-refreshed>
            {view.fetchedAt ? `Busy times last refreshed ${formatWhen(view.fetchedAt)}.` : 'Busy times not read yet.'}
          </p>
          {view.error && (
            <p role="alert" data-calendar-error>
              {view.error.message} since {formatWhen(view.error.since)}. Bookings go on with the busy times read{' '}
              {view.fetchedAt ? formatWhen(view.fetchedAt) : 'before'}.
            </p>
          )}
          {view.writes.waiting > 0 && view.writes.lastError && (
            <p role="status" data-calendar-writes>
              {view.writes.waiting === 1 ? '1 change waits' : `${view.writes.waiting} changes wait`} to be written to your calendar ({view.writes.lastError});
              they are tried again on their own.
            </p>
          )}
          <fieldset>
            <legend>Calendars that mean you are busy</legend>
            <p className="muted">A time taken in any of these is not offered to clients and can’t be booked.</p>
            {view.calendars.map((c) => (
              <Checkbox
                key={c.id}
                label={c.primary ? `${c.summary} (main)` : c.summary}
                checked={busy.includes(c.id)}
                onChange={(ev) => setBusy((all) => (ev.target.checked ? [...all, c.id] : all.filter((x) => x !== c.id)))}
              />
            ))}
          </fieldset>
          <SelectInput
            id={`${id}-write`}
            label="The site adds its bookings to"
            value={write}
            onChange={(ev) => setWrite(ev.target.value)}
            choices={[[NO_WRITE, 'No calendar'], ...view.calendars.filter((c) => c.writable).map((c) => [c.id, c.summary] as const)]}
          />
          <SelectInput
            id={`${id}-title`}
            label="Your sessions’ titles there"
            hint="Google receives the title, the time and the place: never the kind of session, the client’s message or intake."
            value={title}
            onChange={(ev) => setTitle(ev.target.value as CalendarTitle)}
            choices={CALENDAR_TITLES.map((t) => [t, CALENDAR_TITLE_CHOICES[t]] as const)}
            data-calendar-title
          />
          <div className="card-actions">
            <button className="button button-small" type="submit" disabled={sending}>
              Save calendars
            </button>
            <button className="button button-small button-quiet" type="button" disabled={sending} onClick={() => void send('DELETE')}>
              Disconnect
            </button>
          </div>
        </form>
      )}
      {statusLine}
    </section>
  );
}

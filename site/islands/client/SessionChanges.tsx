import { useEffect, useMemo, useState } from 'react';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { addMonths, dayOf, localTimeWithZone, monthGrid, monthLabel, monthOfDay, todayIn } from '../../lib/calendar';
import { MonthGrid, MonthHead } from '../MonthGrid';
import type { ClientSessionView, SlotView } from '../../../contract/slots.ts';
import type { BookingCancelledView, BookingRescheduledView, CalendarFeedView } from '../../../contract/booking-changes.ts';

/** Her day of a session, "Monday, November 30" (sessions are dated on her clocks). */
const longDate = (startsAt: string, zone: string) =>
  new Date(startsAt).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: zone });

/**
 * Cancel and Reschedule of one upcoming session on the client's dashboard (issue 15). Within
 * CANCEL_NOTICE_HOURS of the start the buttons give way to the server's too-late text, which
 * says how to reach the teacher. `onChanged` reloads the dashboard's lists.
 */
/** Tells her how a cancel or a move went: the server's words, or that it could not be reached (null). */
async function tellOutcome(res: { ok: boolean; data: { message?: string } } | null, failTitle: string, doneTitle: string): Promise<void> {
  if (!res?.ok) await showAlert({ icon: 'error', title: failTitle, text: res?.data.message ?? 'Please check your connection and try again.' });
  else await showAlert({ icon: 'success', title: doneTitle, text: res.data.message });
}

export function SessionActions(props: { session: ClientSessionView; freeSlots: SlotView[]; tooLateMessage: string; onChanged: () => void; zone: string }) {
  const { session } = props;
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);

  // Inside her notice period a session booked with a credit may still be cancelled (the credit
  // stays used, issue 32); any other gives way to the too-late text.
  const lateWithCredit = !session.canChange && session.withCredit === true;
  if (!session.canChange && !lateWithCredit) {
    return (
      <p className="muted" data-too-late>
        {props.tooLateMessage}
      </p>
    );
  }

  async function cancel() {
    const when = `${longDate(session.startsAt, props.zone)}, ${localTimeWithZone(session.startsAt, props.zone)}.`;
    const sure = await confirmDialog({
      title: 'Cancel this session?',
      text: lateWithCredit
        ? `${when} It is within the notice period, so the session credit it used will not come back.`
        : session.withCredit
          ? `${when} Its session credit comes back to you.`
          : `${when} A paid session is refunded in full.`,
      confirmText: 'Yes, cancel it',
      cancelText: 'Keep it',
    });
    if (!sure) return;
    setBusy(true);
    const res = await request<BookingCancelledView>('POST', `/api/bookings/${encodeURIComponent(session._id)}/cancel`, { session: 'user' }).catch(() => null);
    setBusy(false);
    await tellOutcome(res, 'Not cancelled', 'Session cancelled');
    props.onChanged();
  }

  return (
    <div className="session-actions">
      {lateWithCredit && (
        <p className="muted" data-too-late>
          {props.tooLateMessage}
        </p>
      )}
      <div className="card-actions">
        <button type="button" className="button button-quiet button-small" disabled={busy} onClick={() => void cancel()}>
          Cancel session
        </button>
        {!lateWithCredit && (
          <button type="button" className="button button-quiet button-small" disabled={busy} aria-expanded={picking} onClick={() => setPicking((p) => !p)}>
            Reschedule
          </button>
        )}
      </div>
      {picking && (
        <ReschedulePicker
          session={session}
          freeSlots={props.freeSlots}
          zone={props.zone}
          onDone={() => {
            setPicking(false);
            props.onChanged();
          }}
        />
      )}
    </div>
  );
}

/** The free slots as a month grid and a day's times (as on the booking page); a choice is confirmed, then moved. */
function ReschedulePicker(props: { session: ClientSessionView; freeSlots: SlotView[]; onDone: () => void; zone: string }) {
  const { zone } = props;
  const [cursor, setCursor] = useState(() => monthOfDay(props.freeSlots[0] ? dayOf(props.freeSlots[0].startsAt, zone) : todayIn(zone, new Date())));
  const [day, setDay] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The picker's clock, read when it opens; the server refuses a slot whose time has come anyway.
  const [now] = useState(Date.now);
  const byDay = useMemo(() => {
    const map = new Map<string, SlotView[]>();
    for (const s of props.freeSlots) {
      if (new Date(s.startsAt).getTime() <= now) continue;
      const key = dayOf(s.startsAt, zone);
      map.set(key, [...(map.get(key) ?? []), s]);
    }
    return map;
  }, [props.freeSlots, now, zone]);
  const move = (delta: number) => setCursor((c) => addMonths(c, delta));

  async function choose(slot: SlotView) {
    const sure = await confirmDialog({
      title: 'Move your session?',
      text: `From ${longDate(props.session.startsAt, zone)}, ${localTimeWithZone(props.session.startsAt, zone)} to ${longDate(slot.startsAt, zone)}, ${localTimeWithZone(slot.startsAt, zone)}. Your payment carries over.`,
      confirmText: 'Yes, move it',
      cancelText: 'Keep it',
    });
    if (!sure) return;
    setBusy(true);
    const res = await request<BookingRescheduledView>('POST', `/api/bookings/${encodeURIComponent(props.session._id)}/reschedule`, {
      body: { toSlotId: slot._id },
      session: 'user',
    }).catch(() => null);
    setBusy(false);
    await tellOutcome(res, 'Not moved', 'Session moved');
    props.onDone();
  }

  const daySlots = day ? (byDay.get(day) ?? []) : [];
  return (
    <div className="reschedule" data-reschedule={props.session._id}>
      <MonthHead label={monthLabel(cursor.year, cursor.month)} onMove={move} />
      <MonthGrid
        label={`Move to: ${monthLabel(cursor.year, cursor.month)}`}
        grid={monthGrid(cursor.year, cursor.month)}
        month={cursor.month}
        today={todayIn(zone, new Date(now))}
        selected={day}
        countOf={(key) => byDay.get(key)?.length ?? 0}
        noun={['free slot', 'free slots']}
        onChoose={setDay}
      />
      {day &&
        (daySlots.length === 0 ? (
          <p>No available slots this day.</p>
        ) : (
          <ul className="slot-list" aria-label="Available times">
            {daySlots.map((s) => (
              <li key={s._id}>
                <button type="button" className="button button-small button-quiet" data-slot={s._id} disabled={busy} onClick={() => void choose(s)}>
                  {localTimeWithZone(s.startsAt, zone)}
                </button>
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}

/**
 * The private calendar feed on the account page (issue 15): the secret address a calendar app
 * subscribes to, and a button that makes a new one (the old address stops working).
 */
export function CalendarFeed({ userId }: { userId: string }) {
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const api = `/api/user/${encodeURIComponent(userId)}/calendar-feed`;
  useEffect(() => {
    void request<CalendarFeedView>('GET', api, { session: 'user' })
      .then((r) => setUrl(r.ok ? r.data.url : null))
      .catch(() => setUrl(null));
  }, [api]);

  async function renew() {
    if (
      url &&
      !(await confirmDialog({
        title: 'Make a new address?',
        text: 'Calendars subscribed to the current address stop updating.',
        confirmText: 'Yes, make a new one',
      }))
    ) {
      return;
    }
    setBusy(true);
    const res = await request<CalendarFeedView>('POST', api, { session: 'user' }).catch(() => null);
    setBusy(false);
    if (!res?.ok) {
      await showAlert({ icon: 'error', title: 'No new address', text: res?.data.message ?? 'Please try again later.' });
      return;
    }
    setUrl(res.data.url);
  }

  return (
    <section aria-labelledby="feed-heading" className="calendar-feed">
      <h2 id="feed-heading">Calendar feed</h2>
      <p>
        Subscribe to this private address in Google, Apple or Outlook Calendar to see your booked sessions there. Keep it to yourself: anyone with it can see
        your sessions.
      </p>
      {url === undefined ? (
        <p role="status">Loading…</p>
      ) : url ? (
        <div className="field">
          <label htmlFor="feed-url">Your private calendar address</label>
          <input id="feed-url" value={url} readOnly onFocus={(e) => e.currentTarget.select()} />
        </div>
      ) : (
        <p>No calendar address yet.</p>
      )}
      <button type="button" className="button button-small" disabled={busy || url === undefined} onClick={() => void renew()}>
        {url ? 'New secret address' : 'Make my calendar address'}
      </button>
    </section>
  );
}

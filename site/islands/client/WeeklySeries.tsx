import { useState } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { dayLabel, dayOf, localTimeWithZone } from '../../lib/calendar';
import { MISSED_WORDS, SERIES_MAX_WEEKS, SERIES_MIN_WEEKS, type SeriesSlot, type SeriesView } from '../../../contract/series.ts';
import type { User } from '../../stores/user';
import { bookSlot } from './bookSlot';

/** "Tuesday, March 2, 10:00 AM PST": a session of a series, on her clocks. */
export const seriesWhen = (startsAt: string, zone: string) => `${dayLabel(dayOf(startsAt, zone))}, ${localTimeWithZone(startsAt, zone)}`;

/**
 * The booking page's weekly series (issue 32): with credits for the chosen type and a time
 * picked, "Book this time weekly for N weeks" (N: the credits left, at most 12), folded under "Book this
 * time every week" (issue 50: never a press meant for Continue). The server books
 * each free week with a credit and answers the weeks it could not, each with the free times
 * nearest it: buttons that book that time alone, with a credit.
 */
export function WeeklySeries({
  user,
  slotId,
  sessionType,
  message,
  credits,
  zone,
  onStart,
  onDone,
  onSingle,
}: {
  user: User;
  slotId: string;
  sessionType: string;
  message: string;
  /** The credits the client holds for this type. */
  credits: number;
  zone: string;
  /** The series is asked for. */
  onStart: () => void;
  /** It answered: whether any week was booked. */
  onDone: (booked: boolean) => void;
  /** A nearest time was booked alone: the page reloads its free times. */
  onSingle: () => void;
}) {
  const most = Math.min(credits, SERIES_MAX_WEEKS);
  const [weeks, setWeeks] = useState(most);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<SeriesView | null>(null);
  const [single, setSingle] = useState<Record<string, 'booked' | 'failed'>>({});
  if (most < SERIES_MIN_WEEKS && !result) return null;

  async function bookWeekly() {
    setSending(true);
    onStart();
    let booked = false;
    try {
      const res = await request<SeriesView>('POST', `/api/user/${encodeURIComponent(user.id)}/series`, {
        body: { slotId, weeks, sessionType, message },
        session: 'user',
      });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Weekly booking failed', text: res.data.message ?? 'Please try again.' });
        return;
      }
      setResult(res.data);
      booked = res.data.booked.length > 0;
    } finally {
      setSending(false);
      onDone(booked);
    }
  }

  async function bookOne(slot: SeriesSlot) {
    const res = await bookSlot(user, slot.slotId, { sessionType, message }, { useCredit: true });
    setSingle((s) => ({ ...s, [slot.slotId]: res.ok ? 'booked' : 'failed' }));
    if (res.ok) onSingle();
  }

  if (result) {
    return (
      <div className="weekly-series" data-series-result role="status">
        <p>
          <strong>{result.message}</strong>
        </p>
        {result.booked.length > 0 && (
          <ul aria-label="Booked weeks" data-series-booked>
            {result.booked.map((b) => (
              <li key={b.slotId}>{seriesWhen(b.startsAt, zone)}</li>
            ))}
          </ul>
        )}
        {result.missed.length > 0 && (
          <>
            <p>Not booked:</p>
            <ul aria-label="Weeks not booked" data-series-missed>
              {result.missed.map((m) => (
                <li key={m.startsAt}>
                  {seriesWhen(m.startsAt, zone)} ({MISSED_WORDS[m.reason]})
                  {m.nearest.length > 0 && (
                    <span className="series-nearest">
                      {' '}
                      Nearest free:{' '}
                      {m.nearest.map((n) =>
                        single[n.slotId] === 'booked' ? (
                          <span key={n.slotId}>Booked {seriesWhen(n.startsAt, zone)}. </span>
                        ) : (
                          <button
                            key={n.slotId}
                            type="button"
                            className="button button-small button-quiet"
                            disabled={single[n.slotId] === 'failed'}
                            onClick={() => void bookOne(n)}
                          >
                            Book {seriesWhen(n.startsAt, zone)}
                          </button>
                        ),
                      )}
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </>
        )}
        <a className="link-alone" href={`/user/${encodeURIComponent(user.id)}`}>
          See My Bookings
        </a>
      </div>
    );
  }

  // Issue 50: folded under its own summary, so a tap meant for Continue never books a series.
  return (
    <details className="weekly-series field" data-weekly-series>
      <summary>Book this time every week</summary>
      <label htmlFor="bk-weeks">Book this time weekly for</label>
      <div className="row">
        <input
          id="bk-weeks"
          type="number"
          min={SERIES_MIN_WEEKS}
          max={most}
          step="1"
          inputMode="numeric"
          value={weeks}
          onChange={(e) => setWeeks(Math.max(SERIES_MIN_WEEKS, Math.min(most, Math.floor(Number(e.target.value) || SERIES_MIN_WEEKS))))}
          aria-describedby="bk-weeks-hint"
        />{' '}
        weeks{' '}
        <button type="button" className="button button-quiet" disabled={sending} onClick={() => void bookWeekly()}>
          {sending ? 'Booking…' : `Book weekly for ${weeks} weeks`}
        </button>
      </div>
      <p id="bk-weeks-hint" className="muted">
        One session credit each week; weeks already taken are listed with the nearest free times.
      </p>
    </details>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { formatWhen, herToday } from './admin-ui';
import { request } from '../../lib/http';
import { SESSION_TYPES } from '../../../contract/booking.ts';
import { MISSED_WORDS, SERIES_MAX_WEEKS, SERIES_MIN_WEEKS, type SeriesView } from '../../../contract/series.ts';

/**
 * She books a weekly series for a client (issue 32): the first date and time on her clock, how
 * many weeks, the session type, and whether to make each week's slot where none is offered yet.
 * Each week is booked with one of the client's credits; the answer lists the weeks booked and
 * those not, with why and the nearest free times. For the client's page (props: the client's id).
 */
export default function SeriesForClient({ userId, onBooked }: { userId: string; onBooked?: () => void }) {
  const id = useId();
  const [date, setDate] = useState(herToday);
  const [time, setTime] = useState('10:00');
  const [weeks, setWeeks] = useState(8);
  const [sessionType, setSessionType] = useState<string>(SESSION_TYPES[1]);
  const [createSlots, setCreateSlots] = useState(true);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const [result, setResult] = useState<SeriesView | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSending(true);
    setError('');
    try {
      const res = await request<SeriesView>('POST', `/api/admin/users/${encodeURIComponent(userId)}/series`, {
        body: { date, time, weeks, sessionType, createSlots },
        session: 'admin',
      });
      if (!res.ok) {
        setError(res.data.message ?? 'The series could not be booked.');
        setResult(null);
        return;
      }
      setResult(res.data);
      if (res.data.booked.length > 0) onBooked?.();
    } finally {
      setSending(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-h`} className="series-for-client">
      <h2 id={`${id}-h`}>Book a weekly series</h2>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-date`}>First date</label>
          <input id={`${id}-date`} type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-time`}>Time (your clock)</label>
          <input id={`${id}-time`} type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-weeks`}>Weeks</label>
          <input
            id={`${id}-weeks`}
            type="number"
            min={SERIES_MIN_WEEKS}
            max={SERIES_MAX_WEEKS}
            step="1"
            value={weeks}
            onChange={(e) => setWeeks(Math.floor(Number(e.target.value)))}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`}>Session type</label>
          <select id={`${id}-type`} value={sessionType} onChange={(e) => setSessionType(e.target.value)}>
            {SESSION_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={createSlots} onChange={(e) => setCreateSlots(e.target.checked)} />
          Make the slot of each week that has none
        </label>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button-small" disabled={sending}>
          {sending ? 'Booking…' : `Book ${weeks} weeks with credits`}
        </button>
      </form>
      {result && (
        <div role="status" data-series-result>
          <p>
            <strong>{result.message}</strong>
          </p>
          {result.booked.length > 0 && (
            <ul aria-label="Booked weeks">
              {result.booked.map((b) => (
                <li key={b.slotId}>{formatWhen(b.startsAt)}</li>
              ))}
            </ul>
          )}
          {result.missed.length > 0 && (
            <ul aria-label="Weeks not booked">
              {result.missed.map((m) => (
                <li key={m.startsAt}>
                  {formatWhen(m.startsAt)}: {MISSED_WORDS[m.reason]}
                  {m.nearest.length > 0 && <> (nearest free: {m.nearest.map((n) => formatWhen(n.startsAt)).join('; ')})</>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

import { useId, useState } from 'react';
import { AdminForm, formatWhen, herToday, send } from './admin-ui';
import { Checkbox, SelectInput, TextInput } from '../Field';
import { SESSION_TYPES } from '../../../contract/booking.ts';
import { MISSED_WORDS, SERIES_MAX_WEEKS, SERIES_MIN_WEEKS, type SeriesView } from '../../../contract/series.ts';

/**
 * She books a weekly series for a client (issue 32): the first date and time on her clock, how
 * many weeks, the session type, and whether to make each week's slot where none is offered yet.
 * Each week is booked with one of the client's credits; the answer lists the weeks booked and
 * those not, with why and the nearest free times. On the client's page, under "Book a weekly series".
 */
export default function SeriesForClient({ userId, onBooked }: { userId: string; onBooked?: () => void }) {
  const id = useId();
  const [date, setDate] = useState(herToday);
  const [time, setTime] = useState('10:00');
  const [weeks, setWeeks] = useState(8);
  const [sessionType, setSessionType] = useState<string>(SESSION_TYPES[1]);
  const [createSlots, setCreateSlots] = useState(true);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<SeriesView | null>(null);

  async function submit() {
    setSending(true);
    const answer = await send<SeriesView>(
      'POST',
      `/api/admin/users/${encodeURIComponent(userId)}/series`,
      { date, time, weeks, sessionType, createSlots },
      'The series could not be booked',
    );
    setSending(false);
    setResult(answer);
    if (answer && answer.booked.length > 0) onBooked?.();
  }

  return (
    <>
      <AdminForm
        label="Book a weekly series"
        submit={sending ? 'Booking…' : `Book ${weeks} weeks with credits`}
        onSubmit={() => void submit()}
        disabled={sending}
      >
        <TextInput id={`${id}-date`} label="First date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
        <TextInput id={`${id}-time`} label="Time (your clock)" type="time" required value={time} onChange={(e) => setTime(e.target.value)} />
        <TextInput
          id={`${id}-weeks`}
          label="Weeks"
          type="number"
          min={SERIES_MIN_WEEKS}
          max={SERIES_MAX_WEEKS}
          step="1"
          value={weeks}
          onChange={(e) => setWeeks(Math.floor(Number(e.target.value)))}
        />
        <SelectInput
          id={`${id}-type`}
          label="Session type"
          choices={SESSION_TYPES.map((t) => [t, t] as const)}
          value={sessionType}
          onChange={(e) => setSessionType(e.target.value)}
        />
        <Checkbox label="Make the slot of each week that has none" checked={createSlots} onChange={(e) => setCreateSlots(e.target.checked)} />
      </AdminForm>
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
    </>
  );
}

import { useId } from 'react';
import { Checkboxes, CountInput, TextInput } from '../Field';
import type { MeetingHours } from '../../../contract/settings.ts';

/** Her meeting hours as typed: the numbers kept as text until saved. */
export interface MeetingHoursTyped {
  days: number[];
  from: string;
  to: string;
  daysAhead: string;
  noticeHours: string;
}

const WEEKDAYS = [
  [1, 'Mon'],
  [2, 'Tue'],
  [3, 'Wed'],
  [4, 'Thu'],
  [5, 'Fri'],
  [6, 'Sat'],
  [7, 'Sun'],
] as const;

export const typedHours = (h: MeetingHours): MeetingHoursTyped => ({ ...h, daysAhead: String(h.daysAhead), noticeHours: String(h.noticeHours) });

/** What is sent: an empty number is NaN, which the contract refuses with its words. */
export const hoursToSend = (h: MeetingHoursTyped): MeetingHours => ({
  days: [...h.days].sort((a, b) => a - b),
  from: h.from,
  to: h.to,
  daysAhead: h.daysAhead.trim() === '' ? NaN : Number(h.daysAhead),
  noticeHours: h.noticeHours.trim() === '' ? NaN : Number(h.noticeHours),
});

/**
 * When the home page offers her free 30-minute meeting (issue 35): the weekdays, the hours on her
 * clocks, how far ahead and with how much notice. Her agenda still takes out every time she is busy.
 */
export function MeetingHoursFields(props: { value: MeetingHoursTyped; onChange: (h: MeetingHoursTyped) => void; error: (path: string) => string | undefined }) {
  const id = useId();
  const { value, onChange, error } = props;
  const set = (k: 'from' | 'to' | 'daysAhead' | 'noticeHours') => (ev: { target: { value: string } }) => onChange({ ...value, [k]: ev.target.value });
  return (
    <fieldset data-meeting-hours>
      <legend>Free meeting hours</legend>
      <p className="muted">The times the home page offers for the free 30-minute online meeting; anything in your agenda takes its time out.</p>
      <div className="row-actions" role="group" aria-label="Days offered">
        <Checkboxes<number> choices={WEEKDAYS} chosen={value.days} onChange={(days) => onChange({ ...value, days })} />
      </div>
      {error('meetingHours.days') && <p className="field-error">{error('meetingHours.days')}</p>}
      <div className="form-row">
        <TextInput id={`${id}-from`} label="From" type="time" value={value.from} error={error('meetingHours.from')} onChange={set('from')} />
        <TextInput id={`${id}-to`} label="Until" type="time" value={value.to} error={error('meetingHours.to')} onChange={set('to')} />
      </div>
      <CountInput id={`${id}-ahead`} label="Days ahead offered" value={value.daysAhead} error={error('meetingHours.daysAhead')} onChange={set('daysAhead')} />
      <CountInput
        id={`${id}-notice`}
        label="Notice before a meeting (hours)"
        value={value.noticeHours}
        error={error('meetingHours.noticeHours')}
        onChange={set('noticeHours')}
      />
    </fieldset>
  );
}

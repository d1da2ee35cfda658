import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { adminScreen } from './AdminShell';
import { GoogleCalendarPanel } from './GoogleCalendarPanel';
import { FoodLicencePanel } from './FoodLicencePanel';
import { PostalAddressPanel } from './PostalAddressPanel';
import { MeetingHoursFields, hoursToSend, typedHours, type MeetingHoursTyped } from './MeetingHoursFields';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { MoneyInput } from '../Field';
import { fieldErrors, type FieldIssue } from '../../../contract/check.ts';
import { settingsUpdate, slidingScale, type SessionTypeKey, type Settings, type SettingsView, type TypeAmounts } from '../../../contract/settings.ts';

/**
 * Her settings (issue 20): where her sessions happen unless a slot says otherwise, and the
 * booking page's amount: one range per session type and the words of the sliding-scale sentence
 * that is written from them (issue 30). Checked in the browser by
 * the server's own schema; the server checks again and names the field it refuses.
 */

type TypeFields = { min: string; max: string; note: string };
const toFields = (r: TypeAmounts): TypeFields => ({ min: String(r.min), max: String(r.max), note: r.note });
const fromFields = (r: TypeFields) => ({ min: r.min.trim() === '' ? NaN : Number(r.min), max: r.max.trim() === '' ? NaN : Number(r.max), note: r.note });

/** Each session type's range fields: their id's end, legend and her pages' placeholder. */
const RANGE_FIELDS = [
  { key: 'individualYoga', id: 'yoga', legend: 'Individual yoga', placeholder: '{individual yoga amounts}' },
  { key: 'yogaTherapy', id: 'therapy', legend: 'Yoga therapy', placeholder: '{yoga therapy amounts}' },
] as const satisfies readonly { key: SessionTypeKey; id: string; legend: string; placeholder: string }[];

type PerType<T> = Record<SessionTypeKey, T>;
/** `f` of each session type's entry. */
const eachType = <A, B>(r: PerType<A>, f: (a: A, key: SessionTypeKey) => B): PerType<B> => ({
  individualYoga: f(r.individualYoga, 'individualYoga'),
  yogaTherapy: f(r.yogaTherapy, 'yogaTherapy'),
});
const NO_FIELDS: TypeFields = { min: '', max: '', note: '' };

/** One session type's amounts: its range (side by side on a phone) and the words after it. */
function TypeAmountFields(props: {
  id: string;
  legend: string;
  path: string;
  /** Her pages' placeholder for this range ("{yoga therapy amounts}"). */
  placeholder: string;
  value: TypeFields;
  errors: Record<string, string>;
  onChange: (r: TypeFields) => void;
}) {
  const { id, legend, path, placeholder, value, errors, onChange } = props;
  const error = errors[`${path}.min`] ?? errors[`${path}.max`] ?? errors[path];
  const noteError = errors[`${path}.note`];
  // The range's one error line speaks for both its ends.
  const invalid = !!error || undefined;
  const set = (end: 'min' | 'max') => (e: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [end]: e.target.value });
  return (
    <fieldset className="settings-range" aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`} data-type-amounts={path}>
      <legend>{legend}</legend>
      <p className="muted" id={`${id}-help`}>
        The amount a client pays for this session type, in whole dollars: the booking page’s label, what lets them continue, and what the server accepts. Your
        pages show it wherever you write {placeholder}.
      </p>
      <div className="form-row">
        <MoneyInput id={`${id}-min`} label="Lowest ($)" whole value={value.min} aria-invalid={invalid} onChange={set('min')} />
        <MoneyInput id={`${id}-max`} label="Highest ($)" whole value={value.max} aria-invalid={invalid} onChange={set('max')} />
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-note`}>After “per hour” (optional)</label>
        <input
          id={`${id}-note`}
          value={value.note}
          placeholder="through June 2026"
          aria-invalid={!!noteError || undefined}
          onChange={(e) => onChange({ ...value, note: e.target.value })}
        />
        {noteError && <p className="field-error">{noteError}</p>}
      </div>
    </fieldset>
  );
}

function SettingsPanel() {
  const id = useId();
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [place, setPlace] = useState('');
  const [sliding, setSliding] = useState('');
  const [ranges, setRanges] = useState<PerType<TypeFields>>({ individualYoga: NO_FIELDS, yogaTherapy: NO_FIELDS });
  const [notice, setNotice] = useState('');
  const [pickupHours, setPickupHours] = useState('');
  const [roomUrl, setRoomUrl] = useState('');
  const [hours, setHours] = useState<MeetingHoursTyped | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');

  function fill(s: Settings) {
    setLoaded(s);
    setPlace(s.defaultPlace);
    setSliding(s.bookingAmounts.slidingScaleNote);
    setRanges(eachType(s.bookingAmounts.ranges, toFields));
    setNotice(String(s.cancelNoticeHours));
    setPickupHours(s.pickupHours);
    setRoomUrl(s.meetingRoomUrl);
    setHours(typedHours(s.meetingHours));
  }

  useEffect(() => {
    request<SettingsView>('GET', '/api/admin/settings', { session: 'admin' })
      .then((r) => r.ok && fill(r.data.settings))
      .catch(() => {});
  }, []);

  async function save() {
    const settings = {
      defaultPlace: place,
      bookingAmounts: {
        ranges: eachType(ranges, fromFields),
        slidingScaleNote: sliding,
      },
      cancelNoticeHours: notice.trim() === '' ? NaN : Number(notice),
      pickupHours,
      meetingRoomUrl: roomUrl,
      meetingHours: hours ? hoursToSend(hours) : loaded!.meetingHours,
    };
    // The server's own schema for this PUT: the settings this form holds (the others have their own panels and routes).
    const checked = settingsUpdate.safeParse(settings);
    if (!checked.success) {
      const issues: FieldIssue[] = checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
      setErrors(fieldErrors(issues));
      setStatus('Please correct the fields marked below.');
      return;
    }
    setErrors({});
    try {
      const r = await request<SettingsView & { issues?: FieldIssue[] }>('PUT', '/api/admin/settings', { session: 'admin', body: checked.data });
      if (r.ok) {
        fill(r.data.settings);
        setStatus(r.data.message ?? 'Settings saved.');
      } else {
        setErrors(fieldErrors(r.data.issues ?? []));
        setStatus(r.data.message ?? 'The settings were not saved.');
      }
    } catch {
      await showAlert({ icon: 'error', title: 'The server could not be reached.', text: 'Please try again.' });
    }
  }

  if (!loaded) return <p role="status">Loading…</p>;
  const e = (path: string) => errors[path];
  // The sentence as the booking page will write it from these fields (the saved ones where a field doesn't read yet).
  const typed = (f: TypeFields, saved: TypeAmounts) => {
    const r = fromFields(f);
    return Number.isInteger(r.min) && Number.isInteger(r.max) ? { ...r, note: f.note.trim() } : saved;
  };
  const preview = slidingScale({
    ranges: eachType(ranges, (f, key) => typed(f, loaded.bookingAmounts.ranges[key])),
    slidingScaleNote: sliding.trim(),
  });
  return (
    <section className="admin-panel" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Sessions and the booking page</h2>
      <form
        className="product-form settings-form"
        aria-label="Settings"
        noValidate
        onSubmit={(ev) => {
          ev.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-place`}>Where sessions happen</label>
          <input id={`${id}-place`} value={place} aria-describedby={`${id}-place-help`} onChange={(ev) => setPlace(ev.target.value)} />
          <p className="muted" id={`${id}-place-help`}>
            A street address, or an online link (https://…) that the mails and the client’s dashboard make a link. A slot can have its own on the Bookings page.
          </p>
          {e('defaultPlace') && <p className="field-error">{e('defaultPlace')}</p>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-room`}>Your meeting room link (Zoom, Jitsi, any URL)</label>
          <input
            id={`${id}-room`}
            type="url"
            inputMode="url"
            value={roomUrl}
            placeholder="https://"
            aria-describedby={`${id}-room-help`}
            aria-invalid={!!e('meetingRoomUrl') || undefined}
            onChange={(ev) => setRoomUrl(ev.target.value)}
          />
          <p className="muted" id={`${id}-room-help`}>
            The link of every online session and free meeting: it goes only to the person who booked, in the confirmation, the calendar file, the reminder and
            their bookings. Empty: their mail says the link will follow. With your Google Calendar connected, each online session gets a Google Meet link of its
            own instead.
          </p>
          {e('meetingRoomUrl') && <p className="field-error">{e('meetingRoomUrl')}</p>}
        </div>
        {hours && <MeetingHoursFields value={hours} onChange={setHours} error={e} />}
        <div className="field">
          <label htmlFor={`${id}-notice`}>Notice to cancel or move a session (hours)</label>
          <input
            id={`${id}-notice`}
            type="number"
            inputMode="numeric"
            min={0}
            max={336}
            step={1}
            value={notice}
            aria-describedby={`${id}-notice-help`}
            onChange={(ev) => setNotice(ev.target.value)}
          />
          <p className="muted" id={`${id}-notice-help`}>
            Up to this many hours before a session starts, its client can cancel it (refunded in full) or move it from My Bookings; closer, the dashboard says
            to write to you. The reminders say it, and your pages show it wherever you write {'{notice period}'}.
          </p>
          {e('cancelNoticeHours') && <p className="field-error">{e('cancelNoticeHours')}</p>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-pickup-hours`}>When chocolates can be picked up</label>
          <input
            id={`${id}-pickup-hours`}
            value={pickupHours}
            aria-describedby={`${id}-pickup-hours-help`}
            onChange={(ev) => setPickupHours(ev.target.value)}
          />
          <p className="muted" id={`${id}-pickup-hours-help`}>
            In your words, like “Saturdays, 10 am to 2 pm”. The cart says it beside local pickup, and the “ready for pickup” mail gives it with your shop’s
            address (Tax year → Sales tax). Empty: the mail asks the buyer to reply to find a time.
          </p>
          {e('pickupHours') && <p className="field-error">{e('pickupHours')}</p>}
        </div>
        <h3>Amounts on the booking page</h3>
        {RANGE_FIELDS.map((t) => (
          <TypeAmountFields
            key={t.key}
            id={`${id}-${t.id}`}
            legend={t.legend}
            path={`bookingAmounts.ranges.${t.key}`}
            placeholder={t.placeholder}
            value={ranges[t.key]}
            errors={errors}
            onChange={(r) => setRanges((all) => ({ ...all, [t.key]: r }))}
          />
        ))}
        <div className="field">
          <label htmlFor={`${id}-sliding`}>After the ranges (optional)</label>
          <textarea id={`${id}-sliding`} rows={3} value={sliding} aria-describedby={`${id}-sliding-help`} onChange={(ev) => setSliding(ev.target.value)} />
          {e('bookingAmounts.slidingScaleNote') && <p className="field-error">{e('bookingAmounts.slidingScaleNote')}</p>}
          <p className="muted" id={`${id}-sliding-help`} data-sliding-preview>
            The booking page says: “{preview}”
          </p>
        </div>
        <div className="card-actions">
          <button className="button button-small" type="submit">
            Save settings
          </button>
          <p role="status" className="muted">
            {status}
          </p>
        </div>
      </form>
    </section>
  );
}

/** Her settings, then her Google Calendar (issue 35). */
function SettingsPage() {
  return (
    <>
      <SettingsPanel />
      <FoodLicencePanel />
      <PostalAddressPanel />
      <GoogleCalendarPanel />
    </>
  );
}

export default adminScreen('/admin/settings', 'Settings', SettingsPage);

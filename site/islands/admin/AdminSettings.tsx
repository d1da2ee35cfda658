import { useEffect, useId, useState } from 'react';
import { adminScreen } from './AdminShell';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { fieldErrors, type FieldIssue } from '../../../contract/check.ts';
import { settingsSchema, slidingScale, type Settings, type SettingsView, type TypeAmounts } from '../../../contract/settings.ts';

/**
 * Her settings (issue 20): where her sessions happen unless a slot says otherwise, and the
 * booking page's amount: one range per session type and the words of the sliding-scale sentence
 * that is written from them (issue 30). Checked in the browser by
 * the server's own schema; the server checks again and names the field it refuses.
 */

type TypeFields = { min: string; max: string; note: string };
const toFields = (r: TypeAmounts): TypeFields => ({ min: String(r.min), max: String(r.max), note: r.note });
const fromFields = (r: TypeFields) => ({ min: r.min.trim() === '' ? NaN : Number(r.min), max: r.max.trim() === '' ? NaN : Number(r.max), note: r.note });

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
  return (
    <fieldset className="settings-range" aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`} data-type-amounts={path}>
      <legend>{legend}</legend>
      <p className="muted" id={`${id}-help`}>
        The amount a client pays for this session type, in whole dollars: the booking page’s label, what lets them continue, and what the server accepts. Your
        pages show it wherever you write {placeholder}.
      </p>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-min`}>Lowest ($)</label>
          <input
            id={`${id}-min`}
            inputMode="numeric"
            value={value.min}
            aria-invalid={!!error || undefined}
            onChange={(e) => onChange({ ...value, min: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-max`}>Highest ($)</label>
          <input
            id={`${id}-max`}
            inputMode="numeric"
            value={value.max}
            aria-invalid={!!error || undefined}
            onChange={(e) => onChange({ ...value, max: e.target.value })}
          />
        </div>
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
  const [yoga, setYoga] = useState<TypeFields>({ min: '', max: '', note: '' });
  const [therapy, setTherapy] = useState<TypeFields>({ min: '', max: '', note: '' });
  const [notice, setNotice] = useState('');
  const [pickupHours, setPickupHours] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');

  function fill(s: Settings) {
    setLoaded(s);
    setPlace(s.defaultPlace);
    setSliding(s.bookingAmounts.slidingScaleNote);
    setYoga(toFields(s.bookingAmounts.ranges.individualYoga));
    setTherapy(toFields(s.bookingAmounts.ranges.yogaTherapy));
    setNotice(String(s.cancelNoticeHours));
    setPickupHours(s.pickupHours);
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
        ranges: { individualYoga: fromFields(yoga), yogaTherapy: fromFields(therapy) },
        slidingScaleNote: sliding,
      },
      cancelNoticeHours: notice.trim() === '' ? NaN : Number(notice),
      pickupHours,
    };
    const checked = settingsSchema.safeParse(settings);
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
    ranges: {
      individualYoga: typed(yoga, loaded.bookingAmounts.ranges.individualYoga),
      yogaTherapy: typed(therapy, loaded.bookingAmounts.ranges.yogaTherapy),
    },
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
        <TypeAmountFields
          id={`${id}-yoga`}
          legend="Individual yoga"
          path="bookingAmounts.ranges.individualYoga"
          placeholder="{individual yoga amounts}"
          value={yoga}
          errors={errors}
          onChange={setYoga}
        />
        <TypeAmountFields
          id={`${id}-therapy`}
          legend="Yoga therapy"
          path="bookingAmounts.ranges.yogaTherapy"
          placeholder="{yoga therapy amounts}"
          value={therapy}
          errors={errors}
          onChange={setTherapy}
        />
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

export default adminScreen('/admin/settings', 'Settings', SettingsPanel);

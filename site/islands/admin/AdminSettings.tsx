import { useEffect, useId, useState } from 'react';
import AdminShell from './AdminShell';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { fieldErrors, type FieldIssue } from '../../../contract/check.ts';
import { settingsSchema, type DollarRange, type Settings, type SettingsView } from '../../../contract/settings.ts';

/**
 * Her settings (issue 20): where her sessions happen unless a slot says otherwise, and the
 * booking page's amount (its ranges and the sliding-scale sentence). Checked in the browser by
 * the server's own schema; the server checks again and names the field it refuses.
 */

type Range = { min: string; max: string };
const toRange = (r: DollarRange | null | undefined): Range => ({ min: r ? String(r.min) : '', max: r ? String(r.max) : '' });
const fromRange = (r: Range) => ({ min: Number(r.min), max: Number(r.max) });

function RangeFields(props: {
  id: string;
  legend: string;
  help: string;
  path: string;
  value: Range;
  errors: Record<string, string>;
  onChange: (r: Range) => void;
}) {
  const { id, legend, help, path, value, errors, onChange } = props;
  const error = errors[`${path}.min`] ?? errors[`${path}.max`] ?? errors[path];
  return (
    <fieldset className="settings-range" aria-describedby={`${id}-help${error ? ` ${id}-error` : ''}`}>
      <legend>{legend}</legend>
      <p className="muted" id={`${id}-help`}>
        {help}
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
    </fieldset>
  );
}

function SettingsPanel() {
  const id = useId();
  const [loaded, setLoaded] = useState<Settings | null>(null);
  const [place, setPlace] = useState('');
  const [sliding, setSliding] = useState('');
  const [label, setLabel] = useState<Range>({ min: '', max: '' });
  const [accepted, setAccepted] = useState<Range>({ min: '', max: '' });
  const [cont, setCont] = useState<Range>({ min: '', max: '' });
  const [clickMax, setClickMax] = useState('');
  const [therapyOwn, setTherapyOwn] = useState(false);
  const [therapy, setTherapy] = useState<Range>({ min: '', max: '' });
  const [yogaOwn, setYogaOwn] = useState(false);
  const [yoga, setYoga] = useState<Range>({ min: '', max: '' });
  const [notice, setNotice] = useState('');
  const [pickupHours, setPickupHours] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState('');

  function fill(s: Settings) {
    setLoaded(s);
    setPlace(s.defaultPlace);
    setSliding(s.bookingAmounts.slidingScale);
    setLabel(toRange(s.bookingAmounts.label));
    setAccepted(toRange(s.bookingAmounts.accepted));
    setCont(toRange(s.bookingAmounts.continue));
    setClickMax(String(s.bookingAmounts.clickMax));
    setTherapyOwn(!!s.bookingAmounts.perType.yogaTherapy);
    setTherapy(toRange(s.bookingAmounts.perType.yogaTherapy));
    setYogaOwn(!!s.bookingAmounts.perType.individualYoga);
    setYoga(toRange(s.bookingAmounts.perType.individualYoga));
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
        label: fromRange(label),
        accepted: fromRange(accepted),
        continue: fromRange(cont),
        clickMax: Number(clickMax),
        perType: { individualYoga: yogaOwn ? fromRange(yoga) : null, yogaTherapy: therapyOwn ? fromRange(therapy) : null },
        slidingScale: sliding,
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
        <div className="field">
          <label htmlFor={`${id}-sliding`}>Sliding-scale sentence</label>
          <textarea id={`${id}-sliding`} rows={4} value={sliding} aria-describedby={`${id}-sliding-help`} onChange={(ev) => setSliding(ev.target.value)} />
          <p className="muted" id={`${id}-sliding-help`}>
            Shown under the amount on the booking page.
          </p>
          {e('bookingAmounts.slidingScale') && <p className="field-error">{e('bookingAmounts.slidingScale')}</p>}
        </div>
        <RangeFields
          id={`${id}-label`}
          legend="Amount shown in the label"
          help="The range the amount field’s label names."
          path="bookingAmounts.label"
          value={label}
          errors={errors}
          onChange={setLabel}
        />
        <RangeFields
          id={`${id}-accepted`}
          legend="Amounts accepted"
          help="What the server accepts for a paid session."
          path="bookingAmounts.accepted"
          value={accepted}
          errors={errors}
          onChange={setAccepted}
        />
        <RangeFields
          id={`${id}-continue`}
          legend="Amounts that enable Continue"
          help="Continue is enabled (without a coupon) only in this range."
          path="bookingAmounts.continue"
          value={cont}
          errors={errors}
          onChange={setCont}
        />
        <div className="field">
          <label htmlFor={`${id}-click`}>Highest amount the check on Continue lets through ($)</label>
          <input id={`${id}-click`} inputMode="numeric" value={clickMax} onChange={(ev) => setClickMax(ev.target.value)} />
          {e('bookingAmounts.clickMax') && <p className="field-error">{e('bookingAmounts.clickMax')}</p>}
        </div>
        <div className="field field-check">
          <input id={`${id}-therapy-own`} type="checkbox" checked={therapyOwn} onChange={(ev) => setTherapyOwn(ev.target.checked)} />
          <label htmlFor={`${id}-therapy-own`}>Yoga therapy has its own range</label>
        </div>
        {therapyOwn && (
          <RangeFields
            id={`${id}-therapy`}
            legend="Yoga therapy"
            help="Replaces the three ranges above for yoga therapy."
            path="bookingAmounts.perType.yogaTherapy"
            value={therapy}
            errors={errors}
            onChange={setTherapy}
          />
        )}
        <div className="field field-check">
          <input id={`${id}-yoga-own`} type="checkbox" checked={yogaOwn} onChange={(ev) => setYogaOwn(ev.target.checked)} />
          <label htmlFor={`${id}-yoga-own`}>Individual yoga has its own range</label>
        </div>
        {yogaOwn && (
          <RangeFields
            id={`${id}-yoga`}
            legend="Individual yoga"
            help="Replaces the three ranges above for individual yoga."
            path="bookingAmounts.perType.individualYoga"
            value={yoga}
            errors={errors}
            onChange={setYoga}
          />
        )}
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

export default function AdminSettings() {
  return (
    <AdminShell current="/admin/settings" title="Settings">
      {() => <SettingsPanel />}
    </AdminShell>
  );
}

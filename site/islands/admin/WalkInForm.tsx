import { useState, type FormEvent } from 'react';
import { request } from '../../lib/http';
import { check, fieldErrors } from '../../../contract/check.ts';
import { walkIn, type WaiverTextView, type WalkInAddedView } from '../../../contract/roster.ts';
import { EmailInput, PhoneInput, TextInput } from '../Field';
import SignaturePad from '../SignaturePad';

const blank = { name: '', email: '', phone: '' };

/**
 * Someone who came in at the door (issue 34): name, e-mail, phone if they give it, and the
 * waiver they read and sign on her phone, with the public sign-up's own signature pad. Each
 * stroke hands the drawing over (no Save press with a stranger holding her phone).
 */
export default function WalkInForm(props: { eventId: string; waiver: WaiverTextView; onAdded: (name: string) => void }) {
  const [values, setValues] = useState(blank);
  const [signature, setSignature] = useState<string | null>(null);
  const [padKey, setPadKey] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refused, setRefused] = useState('');
  const [sending, setSending] = useState(false);
  const set = (k: keyof typeof blank) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setRefused('');
    const body = { ...values, ...(signature ? { signature } : {}) };
    const checked = check(walkIn, body);
    setErrors(checked.ok ? {} : fieldErrors(checked.issues));
    if (!checked.ok) return;
    setSending(true);
    try {
      const res = await request<WalkInAddedView>('POST', `/api/admin/events/${encodeURIComponent(props.eventId)}/walk-ins`, { body, session: 'admin' });
      if (!res.ok) {
        setRefused(res.data.message ?? 'The walk-in could not be added.');
        return;
      }
      setValues(blank);
      setSignature(null);
      setPadKey((k) => k + 1);
      props.onAdded(checked.data.name);
    } catch {
      setRefused('The server could not be reached. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="form walk-in-form" onSubmit={submit} noValidate aria-label="Add walk-in">
      <TextInput id="wi-name" label="Full name" name="name" autoComplete="off" required value={values.name} onChange={set('name')} error={errors.name} />
      <EmailInput id="wi-email" autoComplete="off" value={values.email} onChange={set('email')} error={errors.email} />
      <PhoneInput
        id="wi-phone"
        label="Phone (optional)"
        autoComplete="off"
        required={false}
        value={values.phone}
        onChange={set('phone')}
        error={errors.phone}
      />
      <fieldset className="waiver">
        <legend>{props.waiver.heading}</legend>
        {props.waiver.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <p>
          <strong>Signing below: “{props.waiver.agreement}”</strong>
        </p>
      </fieldset>
      <fieldset>
        <legend>Signature</legend>
        <SignaturePad key={padKey} saved={signature !== null} onSave={setSignature} autoSave />
      </fieldset>
      {refused && (
        <p className="field-error" role="alert">
          {refused}
        </p>
      )}
      <div>
        <button className="button" type="submit" disabled={sending}>
          {sending ? 'Adding…' : 'Add walk-in'}
        </button>
      </div>
    </form>
  );
}

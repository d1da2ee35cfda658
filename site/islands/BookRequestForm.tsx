import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SESSION_TYPES, bookingRequest } from '../../api/schemas/forms.ts';
import { check, fieldErrors } from '../../api/schemas/check.ts';
import { getCaptchaToken } from '../lib/captcha';
import { postJson } from '../lib/http';
import { showAlert } from '../lib/alert';
import { Field, TextInput, describedBy } from './Field';
import { useDomValues } from './useDomValues';
import { useHydrated } from './useHydrated';

/** The human-check action of the home page's request (the spec stores its token as captchaToken). */
const ACTION = 'book_request';
const labels: Record<(typeof SESSION_TYPES)[number], string> = {
  'private yoga': 'Private yoga',
  'group yoga': 'Group yoga',
  'yoga therapy': 'Yoga therapy',
  chocolates: 'Chocolates',
};
const empty = { name: '', email: '', phone: '', sessionType: '', message: '' };

async function refreshCaptcha(): Promise<void> {
  try {
    localStorage.setItem('captchaToken', await getCaptchaToken(ACTION));
  } catch {
    // No token: the submit says 'Verification Failed'.
  }
}

/** The free 30-minute meeting request on the home page (SPEC.md sections 3, 5, 8). */
export default function BookRequestForm() {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useDomValues(formRef, setValues);

  useEffect(() => {
    void refreshCaptcha();
  }, []);

  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const result = check(bookingRequest, { ...values });
    if (!result.ok) {
      setErrors(fieldErrors(result.issues));
      return;
    }
    setErrors({});
    await refreshCaptcha();
    const captchaToken = localStorage.getItem('captchaToken');
    if (!captchaToken) {
      await showAlert({ icon: 'warning', title: 'Verification Failed', text: "We couldn't verify that you're human. Please try again." });
      return;
    }
    setSending(true);
    try {
      const res = await postJson('/api/publicBookings/request', { ...result.data, captchaToken });
      if (!res.ok) throw new Error(res.data.message);
      localStorage.removeItem('captchaToken');
      setValues(empty);
      await showAlert({ icon: 'success', title: 'Success!', text: 'Your form has been submitted successfully.' });
    } catch {
      await showAlert({ icon: 'error', title: 'Oops! Something went wrong!', text: "We couldn't submit your form. Please try again later." });
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate aria-label="Request a free meeting">
      <TextInput id="book-name" label="Name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <TextInput id="book-email" label="Email" error={errors.email} name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
      <TextInput id="book-phone" label="Phone" error={errors.phone} name="phone" type="tel" autoComplete="tel" required placeholder="123-456-7890" value={values.phone} onChange={set('phone')} />
      <Field id="book-type" label="Session type" error={errors.sessionType}>
        <select id="book-type" name="sessionType" required value={values.sessionType} onChange={set('sessionType')} {...describedBy('book-type', errors.sessionType)}>
          <option value="">Choose one…</option>
          {SESSION_TYPES.map((t) => (
            <option key={t} value={t}>
              {labels[t]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="book-message" label="Message (optional)" error={errors.message}>
        <textarea id="book-message" name="message" value={values.message} onChange={set('message')} {...describedBy('book-message', errors.message)} />
      </Field>
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Submitting...' : 'Request my free meeting'}
        </button>
      </div>
    </form>
  );
}

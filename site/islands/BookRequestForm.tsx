import { useEffect, type FormEvent } from 'react';
import { SESSION_TYPES, bookingRequest } from '../../contract/forms.ts';
import { getCaptchaToken } from '../lib/captcha';
import { showAlert } from '../lib/alert';
import { Field, EmailInput, PhoneInput, TextInput, describedBy } from './Field';
import { useForm } from './useForm';

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
  const { values, setValues, set, errors, formRef, sending, send, submitting, validate, serverIssues } = useForm(empty);

  useEffect(() => {
    void refreshCaptcha();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Busy from the first click: the human check below takes a moment, and a second click must not send twice.
    await submitting(checkAndSend);
  }

  async function checkAndSend() {
    const data = validate(bookingRequest, { ...values });
    if (!data) return;
    await refreshCaptcha();
    const captchaToken = localStorage.getItem('captchaToken');
    if (!captchaToken) {
      await showAlert({ icon: 'warning', title: 'Verification Failed', text: "We couldn't verify that you're human. Please try again." });
      return;
    }
    await send(
      '/api/publicBookings/request',
      { ...data, captchaToken },
      async (res) => {
        if (!res.ok && serverIssues(res.data)) return;
        if (!res.ok) throw new Error(res.data.message);
        localStorage.removeItem('captchaToken');
        setValues(empty);
        await showAlert({ icon: 'success', title: 'Success!', text: 'Your form has been submitted successfully.' });
      },
      () => showAlert({ icon: 'error', title: 'Oops! Something went wrong!', text: "We couldn't submit your form. Please try again later." }),
    );
  }

  return (
    // POST: should a press ever reach the browser's own submission (no script at all), the visitor's details stay out of the address.
    <form ref={formRef} className="form" method="post" onSubmit={submit} noValidate aria-label="Request a free meeting">
      <TextInput id="book-name" label="Name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <EmailInput id="book-email" error={errors.email} value={values.email} onChange={set('email')} />
      <PhoneInput id="book-phone" error={errors.phone} value={values.phone} onChange={set('phone')} />
      <Field id="book-type" label="Session type" error={errors.sessionType}>
        <select
          id="book-type"
          name="sessionType"
          required
          value={values.sessionType}
          onChange={set('sessionType')}
          {...describedBy('book-type', errors.sessionType)}
        >
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
        {/* Pressed before React has loaded, it is held and pressed again once it has (site/directives/interaction.ts). */}
        <button className="button" type="submit" disabled={sending}>
          {sending ? 'Submitting...' : 'Request my free meeting'}
        </button>
      </div>
    </form>
  );
}

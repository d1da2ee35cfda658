import { useEffect, useState, type FormEvent } from 'react';
// Types only: the schema (zod) is imported when the form is sent, not when it comes alive (issue 36).
import type { SESSION_TYPES } from '../../contract/forms.ts';
import type { FreeMeetingTime, FreeMeetingTimesView } from '../../contract/free-meetings.ts';
import { request } from '../lib/http';
import { getCaptchaToken } from '../lib/captcha';
import { showAlert } from '../lib/alert';
import { Field, EmailInput, PhoneInput, TextInput, describedBy } from './Field';
import { useForm } from './useForm';

/** The human-check action of the home page's request (the spec stores its token as captchaToken). */
const ACTION = 'book_request';
/** Every session type of the schema, in its order (the Record makes the compiler check that none is missing). */
const labels: Record<(typeof SESSION_TYPES)[number], string> = {
  'private yoga': 'Private yoga',
  'group yoga': 'Group yoga',
  'yoga therapy': 'Yoga therapy',
  chocolates: 'Chocolates',
};
const empty = { name: '', email: '', phone: '', sessionType: '', message: '', startsAt: '' };

/** Her free times (issue 35), asked once the form comes alive; none when they can't be read (the request still goes). */
async function freeTimes(): Promise<FreeMeetingTime[]> {
  try {
    const res = await request<FreeMeetingTimesView>('GET', '/api/publicBookings/times');
    return res.ok ? res.data.times : [];
  } catch {
    return [];
  }
}

async function refreshCaptcha(): Promise<void> {
  try {
    localStorage.setItem('captchaToken', await getCaptchaToken(ACTION));
  } catch {
    // No token: the submit says 'Verification Failed'.
  }
}

/** The free 30-minute meeting request on the home page (SPEC.md sections 3, 5, 8). */
export default function BookRequestForm() {
  const { values, setValues, set, errors, formRef, sending, send, submitting, validateLoaded, serverIssues } = useForm(empty);
  const [times, setTimes] = useState<FreeMeetingTime[] | null>(null);
  const loadTimes = () => freeTimes().then(setTimes);

  useEffect(() => {
    void refreshCaptcha();
    void loadTimes();
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Busy from the first click: the human check below takes a moment, and a second click must not send twice.
    await submitting(checkAndSend);
  }

  async function checkAndSend() {
    // No time chosen: the request the spec has, and she writes back to find one.
    const data = await validateLoaded(() => import('../../contract/forms.ts').then((m) => m.bookingRequest), {
      ...values,
      startsAt: values.startsAt || undefined,
    });
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
        if (res.status === 409) {
          // Taken since the list was read: the visitor picks again from the times that are free now.
          setValues((v) => ({ ...v, startsAt: '' }));
          await loadTimes();
          await showAlert({ icon: 'warning', title: 'That time was just taken', text: res.data.message });
          return;
        }
        if (!res.ok && serverIssues(res.data)) return;
        if (!res.ok) throw new Error(res.data.message);
        localStorage.removeItem('captchaToken');
        const booked = times?.find((t) => t.startsAt === data!.startsAt);
        setValues(empty);
        if (booked) {
          await loadTimes();
          await showAlert({ icon: 'success', title: 'Your free meeting is booked', text: `${booked.label}. ${res.data.message}` });
        } else await showAlert({ icon: 'success', title: 'Success!', text: 'Your form has been submitted successfully.' });
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
          {Object.entries(labels).map(([t, label]) => (
            <option key={t} value={t}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <Field
        id="book-time"
        label="Meeting time (optional)"
        error={errors.startsAt}
        hint="My free 30-minute online times. Leave it, and I will write to you to find one."
      >
        <select id="book-time" name="startsAt" value={values.startsAt} onChange={set('startsAt')} {...describedBy('book-time', errors.startsAt, true)}>
          <option value="">{times === null ? 'Loading free times…' : times.length ? 'No time now: write to me' : 'No free times listed: write to me'}</option>
          {times?.map((t) => (
            <option key={t.startsAt} value={t.startsAt}>
              {t.label}
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

/**
 * The home page's free 30-minute meeting request (SPEC.md sections 3, 5 and 8; her free times,
 * issue 35), brought alive by plain-forms.ts without a framework (issue 36, decision 0050): the
 * server drew the form (site/components/BookRequestForm.astro); this module lists her free times,
 * checks the form by the schema the server uses (zod is fetched on the first submit), and sends it.
 */
import { check, fieldErrors } from '../../contract/check.ts';
import type { FreeMeetingTime, FreeMeetingTimesView } from '../../contract/free-meetings.ts';
import { showAlert } from '../lib/alert';
import { getCaptchaToken } from '../lib/captcha';
import { request } from '../lib/http';
import { formValues, showFieldErrors, showServerIssues } from '../lib/plain-form';

/** The human-check action of the home page's request (the spec stores its token as captchaToken). */
const ACTION = 'book_request';

/** Her free times as last listed; null until they have been read. */
let times: FreeMeetingTime[] | null = null;

const timeSelect = (form: HTMLFormElement) => form.elements.namedItem('startsAt') as HTMLSelectElement;

/** Her free times (issue 35) into the time list, the visitor's choice kept while it is still free; none when they can't be read (the request still goes). */
async function listTimes(form: HTMLFormElement): Promise<void> {
  try {
    const res = await request<FreeMeetingTimesView>('GET', '/api/publicBookings/times');
    times = res.ok ? res.data.times : [];
  } catch {
    times = [];
  }
  const select = timeSelect(form);
  const chosen = select.value;
  select.replaceChildren(
    new Option(times.length ? 'No time now: write to me' : 'No free times listed: write to me', ''),
    ...times.map((t) => new Option(t.label, t.startsAt)),
  );
  if (times.some((t) => t.startsAt === chosen)) select.value = chosen;
}

async function refreshCaptcha(): Promise<void> {
  try {
    localStorage.setItem('captchaToken', await getCaptchaToken(ACTION));
  } catch {
    // No token: the submit says 'Verification Failed'.
  }
}

export function wake(form: HTMLFormElement): void {
  void refreshCaptcha();
  void listTimes(form);
}

export async function submit(form: HTMLFormElement): Promise<void> {
  const values = formValues(form);
  // No time chosen: the request the spec has, and she writes back to find one.
  const { bookingRequest } = await import('../../contract/forms.ts');
  const checked = check(bookingRequest, { ...values, startsAt: values.startsAt || undefined });
  showFieldErrors(form, checked.ok ? {} : fieldErrors(checked.issues));
  if (!checked.ok) return;
  const data = checked.data;
  await refreshCaptcha();
  const captchaToken = localStorage.getItem('captchaToken');
  if (!captchaToken) {
    await showAlert({ icon: 'warning', title: 'Verification Failed', text: "We couldn't verify that you're human. Please try again." });
    return;
  }
  const res = await request<{ message: string }>('POST', '/api/publicBookings/request', { body: { ...data, captchaToken } });
  if (res.status === 409) {
    // Taken since the list was read: the visitor picks again from the times that are free now.
    timeSelect(form).value = '';
    await listTimes(form);
    await showAlert({ icon: 'warning', title: 'That time was just taken', text: res.data.message });
    return;
  }
  if (!res.ok && showServerIssues(form, res.data)) return;
  // Any other refusal: the form's failure line (plain-forms.ts).
  if (!res.ok) throw new Error(res.data.message);
  localStorage.removeItem('captchaToken');
  const booked = times?.find((t) => t.startsAt === data.startsAt);
  form.reset();
  if (booked) {
    await listTimes(form);
    await showAlert({ icon: 'success', title: 'Your free meeting is booked', text: `${booked.label}. ${res.data.message}` });
  } else await showAlert({ icon: 'success', title: 'Success!', text: 'Your form has been submitted successfully.' });
}

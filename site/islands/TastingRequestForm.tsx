import type { FormEvent } from 'react';
import type { PageClock } from '../../contract/content.ts';
import { TASTING_CAPTCHA_ACTION, tastingRequest } from '../../contract/tastings.ts';
import { captchaTokenOrSay } from '../lib/captcha';
import { showAlert } from '../lib/alert';
import type { JsonResult } from '../lib/http';
import { zoneWords } from '../lib/calendar';
import { CountInput, EmailInput, PhoneInput, SubmitButton, TextInput } from './Field';
import { useForm } from './useForm';
import { useToday } from './useToday';

/** `dates` stands for the three day fields together: the schema's and the server's issues about the days land there. */
const empty = { name: '', email: '', phone: '', occasion: '', guests: '', date1: '', date2: '', date3: '', place: '', dates: '' };
const DAYS = ['date1', 'date2', 'date3'] as const;
const NOT_SENT = 'Your request could not be sent. Please try again later.';
const notSent = (text: string) => showAlert({ icon: 'error', title: 'Request Not Sent', text });

/**
 * The tasting request on /chocolates (issue 34): who, what for, how many, two or three possible
 * days (her calendar; the server refuses a day before her today) and where. Checked with the
 * server's schema, then sent with the human check's token for `tasting_request`; she answers with
 * a quote by e-mail.
 */
export default function TastingRequestForm({ clock }: { clock: PageClock }) {
  const { values, setValues, set, errors, hydrated, formRef, sending, send, submitting, validate, serverIssues } = useForm(empty);
  const today = useToday(clock);
  // The days' one line: the whole list's issue, or the first day's own.
  const datesError = errors.dates ?? errors['dates.0'] ?? errors['dates.1'] ?? errors['dates.2'];

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Busy from the first click: the human check takes a moment, and a second click must not send twice.
    await submitting(checkAndSend);
  }

  async function checkAndSend() {
    const dates = DAYS.map((k) => values[k]).filter(Boolean);
    const data = validate(tastingRequest.omit({ recaptchaToken: true }), {
      ...values,
      guests: values.guests === '' ? undefined : Number(values.guests),
      dates,
    });
    if (!data) return;
    const recaptchaToken = await captchaTokenOrSay(TASTING_CAPTCHA_ACTION);
    if (recaptchaToken === undefined) return;
    await send<{ message: string }>('/api/tastings', { ...data, recaptchaToken }, answered, () => notSent(NOT_SENT));
  }

  /** The server's answer: the thanks, its field issues beside their fields, or its reason. */
  async function answered(res: JsonResult<{ message: string }>) {
    if (res.ok) {
      setValues(empty);
      return showAlert({ icon: 'success', title: 'Request Sent!', text: res.data.message });
    }
    if (!serverIssues(res.data)) await notSent(res.data.message || NOT_SENT);
  }

  const field = (k: keyof typeof empty) => ({ id: `tasting-${k}`, name: k, value: values[k], error: errors[k], onChange: set(k) });
  return (
    // POST: should a press ever reach the browser's own submission, the visitor's details stay out of the address.
    <form ref={formRef} className="form" method="post" onSubmit={submit} noValidate aria-label="Ask for a tasting">
      <TextInput label="Name" autoComplete="name" required {...field('name')} />
      <EmailInput hint="Your quote comes here." {...field('email')} />
      <PhoneInput {...field('phone')} />
      <TextInput label="Occasion" hint="A birthday, a team day, a retreat…" required maxLength={100} {...field('occasion')} />
      <CountInput label="Number of guests" min={1} max={200} required {...field('guests')} />
      <fieldset className="choices" aria-describedby={datesError ? 'tasting-dates-error' : 'tasting-dates-hint'}>
        <legend>Possible days</legend>
        <p className="field-hint" id="tasting-dates-hint">
          Two or three days that suit you, by the calendar in {zoneWords(clock.zone)}.
        </p>
        {DAYS.map((k, i) => (
          <TextInput
            key={k}
            label={i === 2 ? 'Third day (optional)' : i === 0 ? 'First day' : 'Second day'}
            type="date"
            required={i < 2}
            min={hydrated ? today : undefined}
            {...field(k)}
            aria-invalid={datesError && (i < 2 || values[k]) ? true : undefined}
          />
        ))}
        {datesError && (
          <span className="field-error" id="tasting-dates-error" role="alert">
            {datesError}
          </span>
        )}
      </fieldset>
      <TextInput label="Place" hint="The address, or where you would like it." required maxLength={300} autoComplete="street-address" {...field('place')} />
      {/* Pressed before React has loaded, it is held and pressed again once it has (site/directives/interaction.ts). */}
      <SubmitButton busy={sending} busyLabel="Sending…">
        Ask for a quote
      </SubmitButton>
    </form>
  );
}

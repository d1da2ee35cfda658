import { useEffect, useRef, useState, type FormEvent } from 'react';
import { classSignup } from '../../api/schemas/signups.ts';
import { check, fieldErrors } from '../../api/schemas/check.ts';
import { CaptchaError, getCaptchaToken } from '../lib/captcha';
import { classFromQuery } from '../lib/query';
import { postJson } from '../lib/http';
import { showAlert } from '../lib/alert';
import { TextInput, describedBy } from './Field';
import SignaturePad from './SignaturePad';
import { useDomValues } from './useDomValues';
import { useHydrated } from './useHydrated';

interface Waiver {
  heading: string;
  paragraphs: string[];
  agreement: string;
}

const blank = { name: '', email: '', phone: '', classTitle: '', date: '' };

/** /signup: the new student's class sign-up with the waiver and a drawn signature (SPEC.md sections 4, 5, 8). */
export default function SignupForm({ waiver }: { waiver: Waiver }) {
  const [values, setValues] = useState(blank);
  const [accepted, setAccepted] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [padKey, setPadKey] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useDomValues(formRef, setValues);

  // Prefill class title and date from the query.
  useEffect(() => {
    const c = classFromQuery();
    setValues((v) => ({ ...v, classTitle: v.classTitle || c.title, date: v.date || c.date }));
  }, []);

  const set = (k: keyof typeof blank) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));
  const reset = () => {
    setValues((v) => ({ ...blank, classTitle: v.classTitle, date: v.date }));
    setAccepted(false);
    setSignature(null);
    setPadKey((k) => k + 1);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!signature) {
      await showAlert({ icon: 'warning', title: 'Signature Required', text: 'Please sign your name and save your signature before submitting the form.' });
      return;
    }
    const result = check(classSignup, { ...values, waiver: accepted, signature });
    if (!result.ok) {
      setErrors(fieldErrors(result.issues));
      return;
    }
    setErrors({});
    let recaptchaToken: string;
    try {
      recaptchaToken = await getCaptchaToken('signup_form_submit');
    } catch (err) {
      if (err instanceof CaptchaError && err.loadFailed) await showAlert({ icon: 'error', title: 'reCAPTCHA Failed to Load', text: err.message });
      else await showAlert({ icon: 'warning', title: 'Verification Not Ready', text: 'Please wait a moment and try again.' });
      return;
    }
    setSending(true);
    try {
      const res = await postJson('/api/signup', { ...result.data, recaptchaToken });
      const message = res.data.message ?? '';
      if (res.ok) {
        await showAlert({ icon: 'success', title: 'Sign up successful', text: 'A confirmation e-mail is on its way. See you on the mat!' });
        window.location.assign('/calendar');
      } else if (message.includes('already')) {
        await showAlert({ icon: 'info', title: 'Already Signed Up', text: message });
        reset();
      } else if (message.includes("email doesn't exist")) {
        await showAlert({ icon: 'info', title: 'Student Not Found', text: message });
      } else {
        await showAlert({ icon: 'error', title: 'Sign-Up Failed', text: message || 'Please try again later.' });
      }
    } catch {
      await showAlert({ icon: 'error', title: 'Sign-Up Failed', text: 'Server error. Please try again.' });
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={formRef} className="form signup-form" onSubmit={submit} noValidate aria-label="Class sign-up">
      <TextInput id="su-name" label="Full name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <TextInput id="su-email" label="Email" error={errors.email} name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
      <TextInput id="su-phone" label="Phone" hint="e.g. 123-456-7890" error={errors.phone} name="phone" type="tel" autoComplete="tel" required placeholder="123-456-7890" value={values.phone} onChange={set('phone')} />
      <TextInput id="su-class" label="Class" error={errors.classTitle} name="classTitle" required value={values.classTitle} onChange={set('classTitle')} />
      <TextInput id="su-date" label="Date" error={errors.date} name="date" type="date" required value={values.date} onChange={set('date')} />
      <fieldset className="waiver">
        <legend>{waiver.heading}</legend>
        {waiver.paragraphs.map((p) => (
          <p key={p}>{p}</p>
        ))}
        <label className="checkbox">
          <input type="checkbox" required checked={accepted} onChange={(e) => setAccepted(e.target.checked)} {...describedBy('su-waiver', errors.waiver)} />{' '}
          {waiver.agreement}
        </label>
        {errors.waiver && (
          <span className="field-error" id="su-waiver-error" role="alert">
            {errors.waiver}
          </span>
        )}
      </fieldset>
      <fieldset>
        <legend>Signature</legend>
        <SignaturePad key={padKey} saved={signature !== null} onSave={setSignature} />
      </fieldset>
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Submitting...' : 'Sign Up'}
        </button>
      </div>
    </form>
  );
}

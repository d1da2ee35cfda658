import { useEffect, useState, type FormEvent } from 'react';
import { classSignup } from '../../contract/signups.ts';
import { CaptchaError, getCaptchaToken } from '../lib/captcha';
import { classFromQuery } from '../lib/query';
import { showAlert } from '../lib/alert';
import { EmailInput, PhoneInput, TextInput, describedBy } from './Field';
import SignaturePad from './SignaturePad';
import { useForm } from './useForm';

interface Waiver {
  heading: string;
  paragraphs: string[];
  agreement: string;
}

const blank = { name: '', email: '', phone: '', classTitle: '', date: '' };

/** /signup: the new student's class sign-up with the waiver and a drawn signature (SPEC.md sections 4, 5, 8). */
export default function SignupForm({ waiver }: { waiver: Waiver }) {
  const { values, setValues, set, errors, hydrated, formRef, sending, send, validate } = useForm(blank);
  const [accepted, setAccepted] = useState(false);
  const [signature, setSignature] = useState<string | null>(null);
  const [padKey, setPadKey] = useState(0);

  // Prefill class title and date from the query.
  useEffect(() => {
    const c = classFromQuery();
    setValues((v) => ({ ...v, classTitle: v.classTitle || c.title, date: v.date || c.date }));
    // setValues is useState's setter (through useForm): the same on every render, so this runs once.
  }, [setValues]);

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
    const data = validate(classSignup, { ...values, waiver: accepted, signature });
    if (!data) return;
    let recaptchaToken: string;
    try {
      recaptchaToken = await getCaptchaToken('signup_form_submit');
    } catch (err) {
      if (err instanceof CaptchaError && err.loadFailed) await showAlert({ icon: 'error', title: 'reCAPTCHA Failed to Load', text: err.message });
      else await showAlert({ icon: 'warning', title: 'Verification Not Ready', text: 'Please wait a moment and try again.' });
      return;
    }
    await send(
      '/api/signup',
      { ...data, recaptchaToken },
      async (res) => {
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
      },
      () => showAlert({ icon: 'error', title: 'Sign-Up Failed', text: 'Server error. Please try again.' }),
    );
  }

  return (
    <form ref={formRef} className="form signup-form" onSubmit={submit} noValidate aria-label="Class sign-up">
      <TextInput id="su-name" label="Full name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <EmailInput id="su-email" error={errors.email} value={values.email} onChange={set('email')} />
      <PhoneInput id="su-phone" hint="e.g. 123-456-7890" error={errors.phone} value={values.phone} onChange={set('phone')} />
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

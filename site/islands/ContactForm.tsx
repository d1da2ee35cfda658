import { useRef, useState, type FormEvent } from 'react';
import { contactMessage } from '../../api/schemas/forms.ts';
import { check, fieldErrors } from '../../api/schemas/check.ts';
import { CaptchaError, getCaptchaToken } from '../lib/captcha';
import { postJson } from '../lib/http';
import { showAlert } from '../lib/alert';
import { Field, TextInput, describedBy } from './Field';
import { useDomValues } from './useDomValues';
import { useHydrated } from './useHydrated';

const empty = { name: '', email: '', message: '' };

/** The contact form (SPEC.md sections 3, 5, 8); human check per action contact_form_submit. */
export default function ContactForm() {
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  useDomValues(formRef, setValues);
  const set = (k: keyof typeof empty) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const result = check(contactMessage, values);
    if (!result.ok) {
      setErrors(fieldErrors(result.issues));
      return;
    }
    setErrors({});
    let recaptchaToken: string;
    try {
      recaptchaToken = await getCaptchaToken('contact_form_submit');
    } catch (err) {
      await showAlert({
        icon: 'warning',
        title: 'Verification Not Ready',
        text: err instanceof CaptchaError ? err.message : 'Please wait a moment and try again.',
      });
      return;
    }
    setSending(true);
    try {
      const res = await postJson('/api/contact', { ...result.data, recaptchaToken });
      if (!res.ok) {
        await showAlert({ icon: 'error', title: 'Message Not Sent', text: res.data.message || 'Failed to send message. Please try again later.' });
        return;
      }
      setValues(empty);
      await showAlert({ icon: 'success', title: 'Message Sent!', text: res.data.message || 'Thank you for your message.' });
    } catch {
      await showAlert({ icon: 'error', title: 'Message Not Sent', text: 'Failed to send message. Please try again later.' });
    } finally {
      setSending(false);
    }
  }

  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate aria-label="Contact form">
      <TextInput id="contact-name" label="Name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <TextInput id="contact-email" label="Email" error={errors.email} name="email" type="email" autoComplete="email" required value={values.email} onChange={set('email')} />
      <Field id="contact-message" label="Message" error={errors.message}>
        <textarea id="contact-message" name="message" required value={values.message} onChange={set('message')} {...describedBy('contact-message', errors.message)} />
      </Field>
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Sending...' : 'Send message'}
        </button>
      </div>
    </form>
  );
}

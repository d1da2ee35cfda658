import type { FormEvent } from 'react';
import { captchaTokenOrSay } from '../lib/captcha';
import { showAlert } from '../lib/alert';
import { Field, EmailInput, TextInput, describedBy } from './Field';
import { useForm } from './useForm';

const empty = { name: '', email: '', message: '' };

/** The contact form (SPEC.md sections 3, 5, 8); human check per action contact_form_submit. */
export default function ContactForm() {
  const { values, setValues, set, errors, formRef, sending, send, submitting, validateLoaded, serverIssues } = useForm(empty);

  async function submit(e: FormEvent) {
    e.preventDefault();
    // Busy from the first click: the human check below takes a moment, and a second click must not send twice.
    await submitting(checkAndSend);
  }

  async function checkAndSend() {
    // The schema (zod) is imported when the form is sent, not when it comes alive (issue 36).
    const data = await validateLoaded(() => import('../../contract/forms.ts').then((m) => m.contactMessage), values);
    if (!data) return;
    const recaptchaToken = await captchaTokenOrSay('contact_form_submit');
    if (recaptchaToken === undefined) return;
    await send(
      '/api/contact',
      { ...data, recaptchaToken },
      async (res) => {
        if (!res.ok && serverIssues(res.data)) return;
        if (!res.ok) {
          await showAlert({ icon: 'error', title: 'Message Not Sent', text: res.data.message || 'Failed to send message. Please try again later.' });
          return;
        }
        setValues(empty);
        await showAlert({ icon: 'success', title: 'Message Sent!', text: res.data.message || 'Thank you for your message.' });
      },
      () => showAlert({ icon: 'error', title: 'Message Not Sent', text: 'Failed to send message. Please try again later.' }),
    );
  }

  return (
    // POST: should a press ever reach the browser's own submission (no script at all), the visitor's details stay out of the address.
    <form ref={formRef} className="form" method="post" onSubmit={submit} noValidate aria-label="Contact form">
      <TextInput id="contact-name" label="Name" error={errors.name} name="name" autoComplete="name" required value={values.name} onChange={set('name')} />
      <EmailInput id="contact-email" error={errors.email} value={values.email} onChange={set('email')} />
      <Field id="contact-message" label="Message" error={errors.message}>
        <textarea
          id="contact-message"
          name="message"
          required
          value={values.message}
          onChange={set('message')}
          {...describedBy('contact-message', errors.message)}
        />
      </Field>
      <div>
        {/* Pressed before React has loaded, it is held and pressed again once it has (site/directives/interaction.ts). */}
        <button className="button" type="submit" disabled={sending}>
          {sending ? 'Sending...' : 'Send message'}
        </button>
      </div>
    </form>
  );
}

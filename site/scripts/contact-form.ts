/**
 * The contact form (SPEC.md sections 3, 5 and 8; human check per action contact_form_submit),
 * brought alive by plain-forms.ts without a framework (decision 0050): the server drew it
 * (site/components/ContactForm.astro); this module checks it by the schema the server uses (zod is
 * fetched on the first submit) and sends it.
 */
import { check, fieldErrors } from '../../contract/check.ts';
import { showAlert } from '../lib/alert';
import { captchaTokenOrSay } from '../lib/captcha';
import { request } from '../lib/http';
import { formValues, showFieldErrors, showServerIssues } from '../lib/plain-form';

/** Nothing to start before the visitor sends: the human check is asked for on submit. */
export function wake(): void {}

export async function submit(form: HTMLFormElement): Promise<void> {
  const { contactMessage } = await import('../../contract/forms.ts');
  const checked = check(contactMessage, formValues(form));
  showFieldErrors(form, checked.ok ? {} : fieldErrors(checked.issues));
  if (!checked.ok) return;
  const recaptchaToken = await captchaTokenOrSay('contact_form_submit');
  if (recaptchaToken === undefined) return;
  const res = await request<{ message?: string }>('POST', '/api/contact', { body: { ...checked.data, recaptchaToken } });
  if (!res.ok && showServerIssues(form, res.data)) return;
  if (!res.ok) {
    await showAlert({ icon: 'error', title: 'Message Not Sent', text: res.data.message || 'Failed to send message. Please try again later.' });
    return;
  }
  form.reset();
  await showAlert({ icon: 'success', title: 'Message Sent!', text: res.data.message || 'Thank you for your message.' });
}

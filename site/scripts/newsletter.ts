import { showAlert } from '../lib/alert';
import { request } from '../lib/http';
import { whileSending } from '../lib/plain-form';

/** Any non-space, an @, any non-space, a dot, any non-space (SPEC.md section 5). */
export const NEWSLETTER_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The footer's newsletter form: SPEC.md sections 4, 5 and 8, word for word. */
export function initNewsletter(): void {
  const form = document.querySelector<HTMLFormElement>('[data-newsletter]');
  if (!form) return;
  const input = form.querySelector<HTMLInputElement>('input[name="email"]')!;

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const email = input.value.trim();
    if (!email) return;
    if (!NEWSLETTER_EMAIL.test(email)) {
      await showAlert({ icon: 'warning', title: 'Invalid Email', text: 'Please enter a valid email address.' });
      return;
    }
    await whileSending(form, 'Submitting...', async () => {
      try {
        const res = await request('POST', '/api/subscribers/subscribe', { body: { email } });
        if (res.status === 409) {
          input.value = '';
          await showAlert({ icon: 'info', title: 'Already Subscribed', text: 'This email is already on our list.' });
        } else if (!res.ok) {
          await showAlert({ icon: 'error', title: 'Oops!', text: "We couldn't process your subscription." });
        } else {
          input.value = '';
          await showAlert({ icon: 'success', title: 'Subscribed!', text: 'Thanks for signing up!' });
        }
      } catch {
        await showAlert({ icon: 'error', title: 'Oops!', text: "We couldn't process your subscription." });
      }
    });
  });
}

/**
 * Forms the server draws whole and a small module of their own brings alive, with no framework
 * (issue 36, decision 0050): the home page's free-meeting request and the contact form. Their first
 * tap then costs their own few KB rather than React's 59. They come alive as `client:interaction` islands do
 * (site/directives/interaction.ts):
 *  - a pointer landing on one of the form's controls fetches its module, without running it: a
 *    finger that lands and then scrolls costs the download only;
 *  - focus moving in, a key or typing wakes it (what it needs first: her free times, the human check);
 *  - a submit before its module is there is held, and handed to it once it is; a module that can't
 *    be fetched (offline) says the form's failure line, and the next submit tries again.
 * A form names its module in `data-plain-form`; the table holds each one's import, so the bundler
 * makes one file per form and none of them loads with the page.
 */
import { showAlert } from '../lib/alert';
import { whileSending } from '../lib/plain-form';

/** What a plain form's module exports. */
export interface PlainForm {
  /** The visitor reached for the form: start what it needs. Runs once. */
  wake(form: HTMLFormElement): void;
  /** The form was sent (its default already prevented; its button busy meanwhile). A throw says the form's failure line. */
  submit(form: HTMLFormElement): Promise<void>;
}

/** Each form's module, what its button says while it sends, and the line when it can't send (SPEC.md section 8). */
const FORMS: Record<string, { load: () => Promise<PlainForm>; busy: string; failed: Parameters<typeof showAlert>[0] }> = {
  'book-request': {
    load: () => import('./book-request-form'),
    busy: 'Submitting...',
    failed: { icon: 'error', title: 'Oops! Something went wrong!', text: "We couldn't submit your form. Please try again later." },
  },
  contact: {
    load: () => import('./contact-form'),
    busy: 'Sending...',
    failed: { icon: 'error', title: 'Message Not Sent', text: 'Failed to send message. Please try again later.' },
  },
};

/** A pointer on these means to use the form; on the rest of it, it may only be scrolling. */
const CONTROLS = 'input, select, textarea, button, label';
const WAKE = ['focusin', 'keydown', 'input'] as const;

function plainForm(form: HTMLFormElement, { load, busy, failed }: (typeof FORMS)[string]): void {
  let code: Promise<PlainForm> | undefined;
  const fetchCode = () =>
    (code ??= load().catch((err: unknown) => {
      code = undefined;
      throw err;
    }));
  let woken = false;
  const wake = () => {
    if (woken) return;
    woken = true;
    fetchCode().then(
      (m) => m.wake(form),
      () => (woken = false),
    );
  };
  form.addEventListener(
    'pointerdown',
    (e) => {
      if (e.target instanceof Element && e.target.closest(CONTROLS)) void fetchCode().catch(() => {});
    },
    { capture: true, passive: true },
  );
  for (const type of WAKE) form.addEventListener(type, wake, { capture: true });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    wake();
    // Busy from the first press (the module's fetch and the human check take a moment): a second press sends nothing.
    void whileSending(form, busy, async () => {
      try {
        await (await fetchCode()).submit(form);
      } catch {
        await showAlert(failed);
      }
    });
  });
}

/** Brings every plain form of the page alive on first use. */
export function initPlainForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-plain-form]')) {
    const known = FORMS[form.dataset.plainForm ?? ''];
    if (known) plainForm(form, known);
  }
}

import { useEffect, useState, type FormEvent } from 'react';
import { showAlert } from '../../lib/alert';
import { captchaTokenOrSay } from '../../lib/captcha';
import { publicConfig } from '../../lib/config';
import { useSend } from '../useForm';
import { useHydrated } from '../useHydrated';
import { SESSION_TYPE_SLUGS, SESSION_TYPE_WORDS, sessionTypeKeyOfSlug, type SessionTypeSlug } from '../../../contract/settings.ts';

/** The offering the visitor pressed "Book a Session" on (/yoga sets it, issue 30); cleared once used. */
export const BOOK_HINT_KEY = 'yc-book-type';

/** A session type's slug, or '' for anything else. */
const asSlug = (v: unknown): SessionTypeSlug | '' => (typeof v === 'string' && sessionTypeKeyOfSlug(v) ? (v as SessionTypeSlug) : '');

const readHint = (): SessionTypeSlug | '' => {
  try {
    const hint = sessionStorage.getItem(BOOK_HINT_KEY);
    return sessionTypeKeyOfSlug(hint) ? (hint as SessionTypeSlug) : '';
  } catch {
    return '';
  }
};

/**
 * /register: first name, last name, e-mail; the verification link arrives by mail. Issue 30: the
 * visitor says what they came to book (preset from the card they pressed on /yoga), the link
 * leads straight to that booking, and this page waits for it: opened in another tab of this
 * browser, the sign-in is heard here (the stored profile's `storage` event) and the page goes on.
 */
export function RegisterForm() {
  // Uncontrolled inputs read at submit: text typed before hydration still counts.
  const { sending, send } = useSend();
  const hydrated = useHydrated();
  const [book, setBook] = useState<SessionTypeSlug | ''>('');
  const [sentTo, setSentTo] = useState<{ email: string; message: string } | null>(null);
  // The card's session from /yoga, unless one was ticked before the page came to life.
  useEffect(() => setBook(asSlug(document.querySelector<HTMLInputElement>('input[name="book"]:checked')?.value) || readHint()), []);

  useEffect(() => {
    if (!sentTo) return;
    const onStorage = (e: StorageEvent) => {
      if (e.key !== 'user' || !e.newValue) return;
      try {
        const id = (JSON.parse(e.newValue) as { id?: string }).id;
        if (id) window.location.assign(`/user/${encodeURIComponent(id)}${book ? `/book/${book}` : ''}`);
      } catch {
        // not a profile
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [sentTo, book]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const v = { firstName: String(data.get('firstName') ?? ''), lastName: String(data.get('lastName') ?? ''), email: String(data.get('email') ?? '') };
    // A session ticked before the page came to life is in the form, not yet in the state: the form's wins.
    const chosen = asSlug(data.get('book')) || book;
    if (chosen !== book) setBook(chosen);
    if (!v.firstName.trim() || !v.lastName.trim() || !v.email.trim()) {
      await showAlert({ icon: 'warning', title: 'Registration Failed', text: 'Please fill in your first name, last name and email.' });
      return;
    }
    // Registration mails an address nobody has proven yet: the human check keeps it from being a relay.
    const recaptchaToken = await captchaTokenOrSay('register');
    if (recaptchaToken === undefined) return;
    await send(
      '/api/user/register',
      { firstName: v.firstName.trim(), lastName: v.lastName.trim(), email: v.email.trim(), recaptchaToken, ...(chosen ? { book: chosen } : {}) },
      async (res) => {
        if (!res.ok) {
          await showAlert({ icon: 'error', title: 'Registration Failed', text: res.data.message || 'Registration failed. Please try again.' });
          return;
        }
        try {
          sessionStorage.removeItem(BOOK_HINT_KEY);
        } catch {
          // storage off: nothing to clear
        }
        setSentTo({ email: v.email.trim(), message: res.data.message || 'Please check your email to verify your account.' });
      },
      () => showAlert({ icon: 'error', title: 'Registration Failed', text: 'Registration failed. Please try again.' }),
    );
  }

  if (sentTo) {
    return (
      <section className="card check-email" aria-labelledby="check-email-heading" data-check-email>
        <h2 id="check-email-heading">Check your email</h2>
        <p role="status">{sentTo.message}</p>
        <p>
          We sent a link to <strong>{sentTo.email}</strong>. Open it on this device within 10 minutes: it signs you in and takes you{' '}
          {book ? `straight to booking your ${SESSION_TYPE_WORDS[sessionTypeKeyOfSlug(book)!]} session` : 'to your bookings'}.
        </p>
        <p>
          <button type="button" className="button button-quiet button-small" onClick={() => setSentTo(null)}>
            Use another address
          </button>
        </p>
      </section>
    );
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Create account">
      <fieldset className="field register-book">
        <legend>What would you like to book?</legend>
        {(
          [
            [SESSION_TYPE_SLUGS.yogaTherapy, 'A yoga therapy session'],
            [SESSION_TYPE_SLUGS.individualYoga, 'An individual yoga session'],
            ['', 'Nothing yet, just an account'],
          ] as const
        ).map(([value, label]) => (
          <label key={value || 'none'} className="check">
            <input type="radio" name="book" value={value} checked={book === value} onChange={() => setBook(value)} /> {label}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor="reg-first">First name</label>
        <input id="reg-first" name="firstName" autoComplete="given-name" required />
      </div>
      <div className="field">
        <label htmlFor="reg-last">Last name</label>
        <input id="reg-last" name="lastName" autoComplete="family-name" required />
      </div>
      <div className="field">
        <label htmlFor="reg-email">Email</label>
        <input id="reg-email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Creating…' : 'Create account'}
        </button>
      </div>
      <p>
        Already have an account? <a href="/login">Log in</a>
      </p>
      <GoogleButton />
    </form>
  );
}

/** Shown only when Google sign-in is configured on the server. */
function GoogleButton() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    publicConfig()
      .then((c) => setOn(c.googleSignIn))
      .catch(() => setOn(false));
  }, []);
  if (!on) return null;
  return (
    <p>
      <a className="button button-quiet" href="/api/user/auth/google">
        Continue with Google
      </a>
    </p>
  );
}

/** /login: a one-time link by e-mail (or Google). */
export function LoginForm() {
  const { sending, send } = useSend();
  const hydrated = useHydrated();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '');
    if (!email.trim()) {
      await showAlert({ icon: 'warning', title: 'Login Failed', text: 'Please enter your email.' });
      return;
    }
    await send(
      '/api/user/login',
      { email: email.trim() },
      async (res) => {
        if (!res.ok) {
          await showAlert({ icon: 'error', title: 'Login Failed', text: res.data.message || 'Could not send login email. Please try again.' });
          return;
        }
        await showAlert({ icon: 'success', title: 'Login Email Sent', text: res.data.message || 'Check your inbox for the login link.' });
      },
      () => showAlert({ icon: 'error', title: 'Login Failed', text: 'Could not send login email. Please try again.' }),
    );
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Log in">
      <div className="field">
        <label htmlFor="login-email">Email</label>
        <input id="login-email" name="email" type="email" autoComplete="email" required />
      </div>
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Sending…' : 'Email me a login link'}
        </button>
      </div>
      <p>
        New here? <a href="/register">Create an account</a>
      </p>
      <GoogleButton />
    </form>
  );
}

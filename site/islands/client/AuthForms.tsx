import { useEffect, useState, type FormEvent } from 'react';
import { showAlert } from '../../lib/alert';
import { captchaTokenOrSay } from '../../lib/captcha';
import { publicConfig } from '../../lib/config';
import { useSend } from '../useForm';
import { useHydrated } from '../useHydrated';

/** /register: first name, last name, e-mail; the verification link arrives by mail. */
export function RegisterForm() {
  // Uncontrolled inputs read at submit: text typed before hydration still counts.
  const { sending, send } = useSend();
  const hydrated = useHydrated();

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const v = { firstName: String(data.get('firstName') ?? ''), lastName: String(data.get('lastName') ?? ''), email: String(data.get('email') ?? '') };
    if (!v.firstName.trim() || !v.lastName.trim() || !v.email.trim()) {
      await showAlert({ icon: 'warning', title: 'Registration Failed', text: 'Please fill in your first name, last name and email.' });
      return;
    }
    // Registration mails an address nobody has proven yet: the human check keeps it from being a relay.
    const recaptchaToken = await captchaTokenOrSay('register');
    if (recaptchaToken === undefined) return;
    await send(
      '/api/user/register',
      { firstName: v.firstName.trim(), lastName: v.lastName.trim(), email: v.email.trim(), recaptchaToken },
      async (res) => {
        if (!res.ok) {
          await showAlert({ icon: 'error', title: 'Registration Failed', text: res.data.message || 'Registration failed. Please try again.' });
          return;
        }
        form.reset();
        await showAlert({ icon: 'success', title: 'Check your email', text: res.data.message || 'Please check your email to verify your account.' });
      },
      () => showAlert({ icon: 'error', title: 'Registration Failed', text: 'Registration failed. Please try again.' }),
    );
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Create account">
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

import { useEffect, useState, type FormEvent } from 'react';
import { CaptchaError, getCaptchaToken } from '../../lib/captcha';
import type { AdminSessionView } from '../../../contract/admin.ts';
import { request } from '../../lib/http';
import { rememberAdmin, storedAdmin } from '../../lib/profile';
import { showAlert } from '../../lib/alert';
import { useHydrated } from '../useHydrated';
import { TextInput } from '../Field';

/** /admin: e-mail, password and the human check (action admin_login). A logged-in admin goes straight on. */
export default function AdminLogin() {
  // Uncontrolled: read at submit, so what was typed before hydration still counts.
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();

  useEffect(() => {
    if (!storedAdmin()) return;
    request('GET', '/api/admin/verify')
      .then((r) => {
        if (r.ok) window.location.replace('/admin/dashboard');
      })
      .catch(() => {
        // offline: the form stays
      });
  }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const email = String(data.get('email') ?? '');
    const password = String(data.get('password') ?? '');
    if (!email.trim() || !password) {
      await showAlert({ icon: 'warning', title: 'Login Failed', text: 'Please enter your email and password.' });
      return;
    }
    setSending(true);
    try {
      let recaptchaToken: string;
      try {
        recaptchaToken = await getCaptchaToken('admin_login');
      } catch (err) {
        throw new Error(err instanceof CaptchaError ? err.message : 'Verification failed.');
      }
      const res = await request<AdminSessionView>('POST', '/api/admin/login', { body: { email: email.trim(), password, recaptchaToken } });
      if (!res.ok || !res.data.admin) {
        await showAlert({ icon: 'error', title: 'Login Failed', text: res.data.message || 'Invalid email or password. Please try again.' });
        return;
      }
      rememberAdmin(res.data.admin);
      window.location.assign('/admin/dashboard');
    } catch (err) {
      await showAlert({ icon: 'error', title: 'Login Failed', text: (err as Error).message || 'Invalid email or password. Please try again.' });
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="admin-panel form admin-login" onSubmit={submit} noValidate aria-label="Admin login">
      <h1>Admin login</h1>
      <TextInput id="admin-email" label="Email" name="email" type="email" autoComplete="username" required />
      <TextInput id="admin-password" label="Password" name="password" type="password" autoComplete="current-password" required />
      <div>
        <button className="button" type="submit" disabled={!hydrated || sending}>
          {sending ? 'Logging in...' : 'Log in'}
        </button>
      </div>
    </form>
  );
}

import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import { showAlert } from '../../lib/alert';
import { setUser } from '../../stores/user';
import { SESSION_TYPE_SLUGS, sessionTypeKeyOfSlug } from '../../../contract/settings.ts';
import type { EmailVerifiedView, LoginVerifiedView, TokenCheckView } from '../../../contract/user.ts';

const token = () => new URLSearchParams(location.search).get('token');

/**
 * Where the link leads once signed in: the guided booking of the session type the newcomer set
 * out to book (`book`, issue 30), else My Bookings (SPEC.md: /user/{id}).
 */
function destination(userId: string): string {
  const key = sessionTypeKeyOfSlug(new URLSearchParams(location.search).get('book'));
  return `/user/${encodeURIComponent(userId)}${key ? `/book/${SESSION_TYPE_SLUGS[key]}` : ''}`;
}
const booking = () => sessionTypeKeyOfSlug(new URLSearchParams(location.search).get('book')) !== undefined;

/** How long 'Login Successful' shows before the page goes on to the client's dashboard. */
const LOGIN_REDIRECT_MS = 500;

/**
 * /verify-email and /verify-login: the page sends the link's token in a POST body, so mail
 * scanners that open links (GET) never burn them. History is replaced on the way in.
 */
export function VerifyEmail() {
  const [text, setText] = useState('Verifying your email…');
  useEffect(() => {
    const t = token();
    if (!t) {
      setText('Invalid verification link.');
      return;
    }
    request<EmailVerifiedView>('POST', '/api/user/verify-email', { body: { token: t } })
      .then(async (res) => {
        if (!res.ok) {
          setText(res.data.message || 'Verification failed.');
          return;
        }
        setText(res.data.message);
        if (res.data.user) setUser({ ...res.data.user, id: res.data.userId ?? res.data.user.id }, 'login');
        const next = destination(res.data.userId);
        // On the way to a booking the message shows while the page goes on (issue 30): nothing to close.
        if (booking()) {
          void showAlert({ icon: 'success', title: 'Email Verified!', text: res.data.message });
          setTimeout(() => window.location.replace(next), LOGIN_REDIRECT_MS);
          return;
        }
        await showAlert({ icon: 'success', title: 'Email Verified!', text: res.data.message });
        window.location.replace(next);
      })
      .catch(() => setText('Verification failed.'));
  }, []);
  return <p role="status">{text}</p>;
}

export function VerifyLogin() {
  const [text] = useState('Verifying login...');
  useEffect(() => {
    const t = token();
    const fail = async () => {
      await showAlert({ icon: 'error', title: 'Login Failed', text: 'Your login link is invalid or has expired. Please request a new link and try again.' });
      window.location.replace('/login');
    };
    if (!t) return void fail();
    request<LoginVerifiedView>('POST', '/api/user/verify-login', { body: { token: t } })
      .then(async (res) => {
        if (!res.ok || !res.data.user) return fail();
        setUser({ ...res.data.user, id: res.data.userId ?? res.data.user.id }, 'login');
        // SPEC.md: after login the user goes to /user/{id}, history replaced. The message stays on
        // top while the page goes on by itself after half a second; no OK click is needed (issue 15).
        void showAlert({ icon: 'success', title: 'Login Successful', text: `Welcome back, ${res.data.user.firstName || 'friend'}!` });
        const home = destination(res.data.userId);
        setTimeout(() => window.location.replace(home), LOGIN_REDIRECT_MS);
      })
      .catch(fail);
  }, []);
  return <p role="status">{text}</p>;
}

/** /user/oauth?userId=…: Google sign-in lands here with the session cookie already set. */
export function OAuthLanding() {
  useEffect(() => {
    const userId = new URLSearchParams(location.search).get('userId');
    if (!userId) return void window.location.replace('/login');
    request<TokenCheckView>('POST', '/api/user/validate-token', { body: { token: null } })
      .then(async (res) => {
        if (!res.ok || !res.data.isValid || res.data.user.id !== userId) {
          window.location.replace('/login');
          return;
        }
        setUser(res.data.user, 'login');
        window.location.replace(`/user/${encodeURIComponent(userId)}`);
      })
      .catch(async () => {
        await showAlert({ icon: 'error', title: 'Session expired', text: 'Please try signing in again.' });
        window.location.replace('/login');
      });
  }, []);
  return <p role="status">Signing you in...</p>;
}

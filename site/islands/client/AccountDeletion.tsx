import { useEffect, useState } from 'react';
import { request } from '../../lib/http';
import { clearUser } from '../../stores/user';
import { DELETE_LINK_INVALID, SESSIONS_AHEAD_ON_DELETION } from '../../../contract/practice.ts';

/** /account-deletion?token=…: the link of the confirmation mail; one more press deletes the account. */
export default function AccountDeletion() {
  // Read after hydration: the server draws the page without the link's query, and the first frame must match it.
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => setToken(new URLSearchParams(window.location.search).get('token') ?? ''), []);
  const [state, setState] = useState<'ready' | 'working' | 'done' | 'failed'>('ready');
  const [message, setMessage] = useState('');

  if (token === null) return <p role="status">Checking the link…</p>;
  if (!token) return <p role="alert">{DELETE_LINK_INVALID}</p>;

  async function confirm() {
    setState('working');
    const res = await request<{ message: string }>('POST', '/api/user/delete-account', { body: { token } }).catch(() => null);
    setMessage(res?.data.message ?? 'Something went wrong. Please try again later.');
    if (res?.ok) {
      clearUser();
      setState('done');
    } else setState('failed');
  }

  if (state === 'done' || state === 'failed') return <p role={state === 'done' ? 'status' : 'alert'}>{message}</p>;
  return (
    <div className="card">
      <p>
        This erases your profile, your intake answers, your class sign-ups and your newsletter subscription. Payment records stay for the books, without your
        name or address. It can’t be undone.
      </p>
      <p>{SESSIONS_AHEAD_ON_DELETION}</p>
      <button type="button" className="button danger" disabled={state === 'working'} onClick={() => void confirm()}>
        {state === 'working' ? 'Deleting…' : 'Yes, delete my account'}
      </button>
    </div>
  );
}

import { useState } from 'react';
import { request } from '../../lib/http';
import { confirmDialog, showAlert } from '../../lib/alert';
import { DELETE_MAIL_NOT_SENT, SESSIONS_AHEAD_ON_DELETION } from '../../../contract/practice.ts';
import type { ClientSlotsView } from '../../../contract/slots.ts';
import type { User } from '../../stores/user';

/**
 * The account page's "Your data" (issue 23; GDPR articles 15, 17, 20): download everything the
 * site holds about you (a JSON file, or a page to read), and delete the account, confirmed by a
 * link mailed to the account's address.
 */
export default function MyData({ user }: { user: User }) {
  const [status, setStatus] = useState('');
  const base = `/api/user/${encodeURIComponent(user.id)}`;

  async function askDeletion() {
    // Her sessions to come, so she knows what the deletion does to them before she confirms (issue 30).
    const mine = await request<ClientSlotsView>('GET', `/api/bookings?userId=${encodeURIComponent(user.id)}`, { session: 'user' }).catch(() => null);
    const ahead = mine?.ok ? mine.data.bookedSlots.filter((s) => !s.isPast) : [];
    const sessions = ahead.length
      ? ` You have ${ahead.length === 1 ? 'a session' : `${ahead.length} sessions`} still to come. ${SESSIONS_AHEAD_ON_DELETION}`
      : '';
    const sure = await confirmDialog({
      title: 'Delete your account?',
      text: `We will e-mail you a link to confirm. Your profile, intake answers, class sign-ups and newsletter subscription are then erased; payment records stay for the books without your name or address.${sessions}`,
      confirmText: 'Send the link',
    });
    if (!sure) return;
    const res = await request<{ message: string }>('POST', `${base}/delete-request`, { session: 'user' }).catch(() => null);
    const message = res?.data.message ?? DELETE_MAIL_NOT_SENT;
    setStatus(message);
    await showAlert({ icon: res?.ok ? 'success' : 'error', title: res?.ok ? 'Check your e-mail' : 'Not sent', text: message });
  }

  return (
    <section aria-labelledby="data-heading" data-my-data>
      <h2 id="data-heading">Your data</h2>
      <p>
        Download everything this site holds about you: your profile, bookings, payments, class sign-ups and intake answers.{' '}
        <a href="/privacy">What is kept, why and for how long</a>.
      </p>
      <div className="card-actions">
        <a className="button button-small" href={`${base}/export`} download>
          Download my data (JSON)
        </a>
        <a className="button button-quiet button-small" href={`${base}/export/html`} download>
          Download as a page to read
        </a>
      </div>
      <h3>Delete my account</h3>
      <p>We send a confirmation link to {user.email}; nothing is deleted until you open it.</p>
      <div className="card-actions">
        <button type="button" className="button danger button-small" onClick={() => void askDeletion()}>
          Delete my account
        </button>
        <p role="status" className="muted">
          {status}
        </p>
      </div>
    </section>
  );
}

import { useBalance } from './useCredits';
import { refundOwedWords, type LedgerReason } from '../../../contract/packages.ts';

/** Each ledger row's reason, in the client's words. */
const REASONS: Record<LedgerReason, string> = {
  bought: 'Bought',
  used: 'Used for a session',
  returned: 'Returned: cancelled in time',
  forfeited: 'Kept: cancelled late',
  expired: 'Expired',
  refunded: 'Refunded',
  adjusted: 'Adjusted',
};

/** Her day (YYYY-MM-DD, already in the teacher's zone) in words: "Mar 28, 2027". */
const dayInWords = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The client's session credits on her dashboard (issue 32): sessions left per package with the
 * last day they can book (her day, as the server dates lots on the teacher's clock), and the
 * history, each row dated in the teacher's zone (the page's clock). Nothing shows until she holds
 * or held a credit. A refund owed to her (issue 47) shows until PayPal makes it. GET /api/user/{id}/balance.
 */
export default function MyBalance({ userId, zone }: { userId: string; zone: string }) {
  const balance = useBalance(userId);
  if (!balance || balance.history.length === 0) return null;
  const at = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: zone });
  return (
    <section aria-labelledby="balance-heading" data-balance>
      <h2 id="balance-heading">My Sessions</h2>
      <p data-sessions-remaining>
        {balance.sessionsRemaining} {balance.sessionsRemaining === 1 ? 'session' : 'sessions'} left to book
      </p>
      {balance.refundsOwed.length > 0 && (
        <ul className="item-list" aria-label="Refunds owed">
          {balance.refundsOwed.map((r) => (
            <li key={r._id} className="item" data-refund-owed>
              <strong>{refundOwedWords(r)}</strong>
              <div className="muted">Being refunded through PayPal; it may take a little while.</div>
            </li>
          ))}
        </ul>
      )}
      {balance.credits.length > 0 && (
        <ul className="item-list">
          {balance.credits.map((c) => (
            <li key={c.lotId} className="item" data-credit={c.packageName}>
              <strong>{c.packageName}</strong>: {c.remaining} {c.remaining === 1 ? 'session' : 'sessions'} left
              {c.expiresOn ? `, until ${dayInWords(c.expiresOn)}` : ''}
              <div className="muted">{c.sessionTypes.join(', ')}</div>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>History</summary>
        <ul className="item-list" aria-label="Session history">
          {balance.history.map((h, i) => (
            <li key={`${h.at}-${i}`} className="item">
              {at(h.at)} · {REASONS[h.reason]} · {h.packageName} · {h.change > 0 ? `+${h.change}` : h.change}
              {h.note ? ` · ${h.note}` : ''}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

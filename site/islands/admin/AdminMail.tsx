import { useState } from 'react';
import { adminScreen } from './AdminShell';
import { AdminTable, formatWhen, useAdminList, useFocusRow } from './admin-ui';
import { request } from '../../lib/http';
import { mailKindLabel, type UnsentMailView } from '../../../contract/mail.ts';
import { adminLinks } from '../../../contract/admin-links.ts';
import type { NewsletterView } from '../../../contract/backoffice.ts';
import { Listing } from '../Listing';

const COLUMNS = ['Mail', 'To', 'When', 'Why', 'Try again'] as const;

/**
 * Mails that did not leave (issue 21): the outbox gave up on them (the mail service refused them,
 * or kept failing) or skipped them (the address bounced or complained). Who and why, never the
 * text; a failed one can be tried again once its cause is fixed. Below them, the newsletters some
 * of whose mails failed: the Today panel counts both as one group (issue 29), and links here.
 */
function MailPanel() {
  const { items, setItems } = useAdminList<UnsentMailView>('/api/admin/mail/unsent', 'Failed to fetch the mails that did not leave.');
  const letters = useAdminList<NewsletterView>('/api/admin/newsletters', 'Failed to fetch newsletters.');
  const failedLetters = letters.items?.filter((n) => n.failed > 0) ?? [];
  const [status, setStatus] = useState('');
  // A Today item (issue 30): a mail by its id, a newsletter's failures by the newsletter's; both lists drawn first.
  const { rowProps } = useFocusRow(items !== null && letters.items !== null);

  async function retry(m: UnsentMailView) {
    setStatus('');
    const r = await request<{ message: string; sent: boolean }>('POST', `/api/admin/mail/${encodeURIComponent(m.id)}/retry`, { session: 'admin' });
    if (!r.ok) return setStatus(r.data.message || 'Could not try again.');
    setStatus(r.data.sent ? `Sent to ${m.to}.` : `Queued: the mail to ${m.to} will be tried again shortly.`);
    if (r.data.sent) setItems((list) => (list ?? []).filter((x) => x.id !== m.id));
  }

  return (
    <section className="admin-panel" aria-labelledby="mail-heading">
      <h2 id="mail-heading">Mails that did not leave</h2>
      <p className="muted">
        Every mail is kept until the mail service takes it, and tried again for about an hour if the service is down. Listed here: the mails it refused or that
        kept failing, and those skipped because the address bounced or was reported as spam.
      </p>
      <p role="status">{status}</p>
      <Listing items={items} empty={<p>{failedLetters.length > 0 ? 'Every mail went out but the newsletters’ below.' : 'Every mail went out.'}</p>}>
        {(items) => (
          <AdminTable caption="Mails that did not leave" columns={COLUMNS}>
            {items.map((m) => (
              <tr key={m.id} data-unsent-mail={m.state} {...rowProps(m.id)}>
                <td>
                  <strong>{mailKindLabel(m.kind)}</strong>
                  <br />
                  <span className="muted">{m.subject}</span>
                </td>
                <td>{m.to}</td>
                <td>{formatWhen(m.createdAt)}</td>
                <td>{m.state === 'skipped' ? `Skipped: ${m.error.replace(/^not sent: /, '')}` : m.error}</td>
                <td>
                  {m.state === 'failed' ? (
                    <button className="button button-small" type="button" onClick={() => void retry(m)}>
                      Try again<span className="sr-only"> the mail to {m.to}</span>
                    </button>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
        )}
      </Listing>
      {failedLetters.length > 0 && (
        <>
          <h3>Newsletters</h3>
          <AdminTable caption="Newsletters with mails that failed" columns={['Newsletter', 'Failed']}>
            {failedLetters.map((n) => (
              <tr key={n.id} data-newsletter-failed={n.failed} {...rowProps(n.id)}>
                <td>{n.subject}</td>
                <td>{n.failed}</td>
              </tr>
            ))}
          </AdminTable>
          <p>
            <a href={adminLinks.failedNewsletters()}>See them in Newsletters</a>
          </p>
        </>
      )}
    </section>
  );
}

export default adminScreen('/admin/mail', 'Mail', MailPanel);

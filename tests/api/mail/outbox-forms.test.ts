/**
 * Issue 21 (decision 0024) for the visitors' forms and the login link: the mail is written to
 * the outbox in the transaction of the change it reports. With the mail service down the
 * change is kept and its mail waits in the outbox ('pending', due later); once the service is
 * back the outbox's sender delivers it exactly once. A refused request writes no mail at all.
 */
import { rowCount } from '../../helpers/row-count.ts';
import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { sendDueMails } from '../../../api/mail/outbox.ts';
import { MailError, type Mailer } from '../../../api/services/mail/index.ts';
import { useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { createUser } from '../../helpers/auth.ts';
import { itemAt } from '../../helpers/guards.ts';

// The periodic sender stays out of the way: the test runs the sender's tick itself.
const server = useTestServer({ env: { OUTBOX_INTERVAL_MS: '3600000' }, resetRateLimits: true });

const HOUR = 3_600_000;
const post = (path: string, json: unknown) => server.api(path, { method: 'POST', json });
const mailbox = (to: string) => readMailbox(server, to);
const outboxTo = (to: string) =>
  server.services.db
    .selectFrom('mailOutbox')
    .select(['id', 'kind', 'to', 'state', 'attempts', 'nextAttemptAt', 'lastError', 'createdAt'])
    .where('to', '=', to)
    .execute();
const outboxCount = () => rowCount(server.services.db, 'mailOutbox');

/** The outbox rows written in the transaction that wrote row `id` of `table` (same now(), to the microsecond). */
async function writtenWith(table: 'contact_messages' | 'login_tokens', id: string) {
  const { rows } = await sql<{ kind: string; to: string; state: string }>`
    select o.kind, o."to", o.state from mail_outbox o join ${sql.table(table)} t on t.created_at = o.created_at
    where t.id = ${id} order by o."to"`.execute(server.services.db);
  return rows;
}

/** Runs `fn` while every send is refused by a provider that is down (503: worth another try). */
async function withProviderDown(fn: () => Promise<void>): Promise<void> {
  const original = server.services.mailer;
  const down: Mailer = { kind: 'resend', send: async () => Promise.reject(new MailError('Service Unavailable', 503)) };
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  server.services.mailer = down;
  try {
    await fn();
  } finally {
    server.services.mailer = original;
    logged.mockRestore();
  }
}

/** Its mail waits: pending, tried once, due again later than it was written. */
function expectWaiting(row: Awaited<ReturnType<typeof outboxTo>>[number]) {
  expect(row.state).toBe('pending');
  expect(row.attempts).toBe(1);
  expect(row.lastError).toContain('Service Unavailable');
  expect(new Date(row.nextAttemptAt).getTime()).toBeGreaterThan(new Date(row.createdAt).getTime());
}

describe(`the mail outbox for the forms and the login link on ${testDbKind()}`, () => {
  const contact = { name: 'Oli Park', email: 'outbox-visitor@example.com', message: 'Is there a class on Sundays?', recaptchaToken: 'dev:contact_form_submit' };

  it('keeps a contact message whose mails could not leave, and sends them once the mail service is back, exactly once', async () => {
    await withProviderDown(async () => {
      const res = await post('/api/contact', contact);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: 'Message sent successfully!' });
    });

    const message = await server.services.db
      .selectFrom('contactMessages')
      .select(['id', 'createdAt'])
      .where('email', '=', contact.email)
      .executeTakeFirstOrThrow();
    const [copy] = await outboxTo(contact.email);
    expect(copy).toMatchObject({ kind: 'contact-message' });
    expectWaiting(copy!);
    // Both mails were written in the message's transaction: now(), the transaction's start, is
    // the same to the microsecond in the three rows. The teacher's notification waits too.
    expect(await writtenWith('contact_messages', message.id)).toEqual([
      { kind: 'contact-message', to: contact.email, state: 'pending' },
      { kind: 'contact-message', to: 'teacher@example.com', state: 'pending' },
    ]);
    expect(await mailbox(contact.email)).toEqual([]);

    // The service is back; the sender's tick once their retry is due delivers them.
    const later = new Date(Date.now() + 2 * HOUR);
    expect((await sendDueMails(server.services, later)).sent).toBeGreaterThanOrEqual(2);
    expect(await sendDueMails(server.services, later)).toMatchObject({ claimed: 0, sent: 0 });
    const delivered = await mailbox(contact.email);
    expect(delivered).toHaveLength(1);
    expect(itemAt(delivered, 0).subject).toBe('Thank you for your message');
    expect((await outboxTo(contact.email))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('writes no mail for a contact message it refuses', async () => {
    const before = await outboxCount();
    const messages = async () => (await server.services.db.selectFrom('contactMessages').select('id').execute()).length;
    const stored = await messages();
    for (const body of [
      { ...contact, email: 'not-an-address', message: 'refused by validation' },
      { ...contact, message: '' },
      { ...contact, recaptchaToken: 'dev:some_other_action' },
    ]) {
      const res = await post('/api/contact', body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await outboxCount()).toBe(before);
    expect(await messages()).toBe(stored);
  });

  it('writes the login link with its token, and delivers it once the mail service is back', async () => {
    const user = await createUser(server, { email: 'outbox-login@example.com' });
    await withProviderDown(async () => {
      const res = await post('/api/user/login', { email: user.email });
      // As before the outbox: the visitor is told the mail did not leave (it will, later).
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Could not send login email. Please try again.' });
    });

    const token = await server.services.db
      .selectFrom('loginTokens')
      .select('id')
      .where('userId', '=', user.id)
      .where('purpose', '=', 'login')
      .executeTakeFirstOrThrow();
    const [link] = await outboxTo(user.email);
    expect(link).toMatchObject({ kind: 'login-link' });
    expectWaiting(link!);
    // The token and its mail were written in one transaction.
    expect(await writtenWith('login_tokens', token.id)).toEqual([{ kind: 'login-link', to: user.email, state: 'pending' }]);
    expect(await mailbox(user.email)).toEqual([]);

    const later = new Date(Date.now() + 2 * HOUR);
    expect((await sendDueMails(server.services, later)).sent).toBeGreaterThanOrEqual(1);
    expect(await sendDueMails(server.services, later)).toMatchObject({ claimed: 0, sent: 0 });
    const delivered = await mailbox(user.email);
    expect(delivered).toHaveLength(1);
    // The link it carries works: the token it names was committed with the mail.
    const url = itemAt(delivered, 0).links.find((l) => l.includes('/verify-login?token='))!;
    const res = await post('/api/user/verify-login', { token: new URL(url).searchParams.get('token') });
    expect(res.status).toBe(200);
  });

  it('sends the login link before answering when the mail service works', async () => {
    const user = await createUser(server, { email: 'outbox-login-ok@example.com' });
    const res = await post('/api/user/login', { email: user.email });
    expect(res.status).toBe(200);
    expect(await mailbox(user.email)).toHaveLength(1);
    expect(await outboxTo(user.email)).toEqual([expect.objectContaining({ kind: 'login-link', state: 'sent', attempts: 1 })]);
  });
});

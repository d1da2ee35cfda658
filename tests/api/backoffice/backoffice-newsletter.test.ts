/**
 * Newsletter sending through the outbox (issue 16, decision 0018): a send to 200 subscribers
 * delivers each exactly one mail with the RFC 8058 headers and a one-click unsubscribe that
 * works; a sender that dies half way leaves its claims to be retried only after the stale
 * window, and the rest goes out once; whoever unsubscribes during the send gets nothing; the
 * Markdown never becomes script or a javascript: link; bad input and wrong states get clear 4xx.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, useTestServer } from '../../helpers/server.ts';
import { testDbKind } from '../../helpers/database.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { sendNewsletterBatch } from '../../../api/backoffice/newsletter-sender.ts';
import { writeSettings } from '../../../api/settings/settings.repo.ts';
import type { Mailer } from '../../../api/services/mail/index.ts';
import type { NewsletterView } from '../../../contract/backoffice.ts';
import { itemAt, must } from '../../helpers/guards.ts';

const STALE_MS = 60_000;

async function subscribe(server: TestServer, n: number, prefix: string): Promise<string[]> {
  const emails = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}@example.com`);
  await server.services.db
    .insertInto('subscribers')
    .values(emails.map((email) => ({ email })))
    .execute();
  return emails;
}

/** Mails per recipient with this subject, read from the stand-in mailbox's table (it holds more than the API's page of 200). */
async function mailsPerRecipient(server: TestServer, subject: string): Promise<Map<string, number>> {
  const rows = await server.services.db.selectFrom('mails').select('to').where('subject', '=', subject).execute();
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  return counts;
}

async function draft(server: TestServer, cookie: string, subject: string, body: string): Promise<NewsletterView> {
  const res = await server.api('/api/admin/newsletters', { method: 'POST', headers: { cookie }, json: { subject, body } });
  expect(res.status).toBe(201);
  return res.json();
}

async function status(server: TestServer, cookie: string, id: string): Promise<NewsletterView> {
  return (await server.api(`/api/admin/newsletters/${id}`, { headers: { cookie } })).json();
}

describe(`a newsletter to 200 subscribers on ${testDbKind()}`, () => {
  // The server's own sender job does the work, fast.
  const server = useTestServer({ env: { NEWSLETTER_INTERVAL_MS: '50', NEWSLETTER_RATE_PER_MINUTE: '60000' } });
  let cookie: string;
  beforeAll(async () => {
    cookie = await adminCookie(server);
    resetRateLimits();
    // Issue 48: a newsletter carries her postal address, and is not sent without one.
    await writeSettings(server.services.db, { postalAddress: 'PO Box 4120, Portland, OR 97208' });
  });

  it('reaches each subscriber exactly once, with the RFC 8058 headers, a text part, a visible unsubscribe link and a working one-click URL', async () => {
    const emails = await subscribe(server, 200, 'reader');
    const body = '# Spring classes\n\nHello **friends**! <script>alert(1)</script>\n\n[Sign up](https://example.com/calendar) · [bad](javascript:alert(1))';
    const letter = await draft(server, cookie, 'Spring at the studio', body);
    expect(letter.status).toBe('draft');

    const sent = await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } });
    expect(sent.status).toBe(202);
    expect((await sent.json()).newsletter).toMatchObject({ status: 'sending', total: 200 });

    let view = await status(server, cookie, letter.id);
    for (let i = 0; i < 200 && view.status !== 'sent'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      view = await status(server, cookie, letter.id);
    }
    expect(view).toMatchObject({ status: 'sent', total: 200, sent: 200, skipped: 0, failed: 0 });
    expect(view.sentAt).not.toBeNull();

    const counts = await mailsPerRecipient(server, 'Spring at the studio');
    expect([...counts.keys()].sort()).toEqual(emails);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);

    const [mail] = await readMailbox(server, emails[7]);
    expect(must(mail, 'mail').headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = /^<(https?:\/\/[^>]+\/api\/subscribers\/one-click\?token=[^>]+)>, <mailto:[^>]+>$/.exec(
      must(mail, 'mail').headers['List-Unsubscribe']!,
    )?.[1];
    expect(oneClick).toBeDefined();
    // The plain-text part is text, not Markdown (issue 20).
    expect(must(mail, 'mail').text).toContain('Hello friends!');
    expect(must(mail, 'mail').text).toContain('Sign up (https://example.com/calendar)');
    expect(must(mail, 'mail').text).not.toContain('**');
    expect(must(mail, 'mail').text).toMatch(/Unsubscribe: https?:\/\/\S+\/unsubscribe\?token=/);
    expect(must(mail, 'mail').html).toContain('<strong>friends</strong>');
    expect(must(mail, 'mail').html).toContain('<a href="https://example.com/calendar">Sign up</a>');
    expect(must(mail, 'mail').html).not.toContain('<script');
    expect(must(mail, 'mail').html).not.toMatch(/href="javascript:/i);
    expect(must(mail, 'mail').html).toMatch(/<a href="[^"]+\/unsubscribe\?token=[^"]+"[^>]*>Unsubscribe<\/a>/);

    // RFC 8058: the provider POSTs List-Unsubscribe=One-Click to the URL; the address leaves the list.
    const u = new URL(oneClick!);
    const res = await server.api(`${u.pathname}${u.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const left = await server.services.db.selectFrom('subscribers').select('email').where('email', '=', emails[7]!).execute();
    expect(left).toEqual([]);

    // The archive lists it with its numbers.
    const list: NewsletterView[] = await (await server.api('/api/admin/newsletters', { headers: { cookie } })).json();
    expect(list.find((n) => n.id === letter.id)).toMatchObject({ subject: 'Spring at the studio', status: 'sent', total: 200, sent: 200 });
  });
});

describe(`a send killed half way on ${testDbKind()}`, () => {
  // The server's own job stays asleep: the test plays every sender itself.
  const server = useTestServer({ env: { NEWSLETTER_INTERVAL_MS: '3600000', NEWSLETTER_CLAIM_STALE_MS: String(STALE_MS) } });
  let cookie: string;
  beforeAll(async () => {
    cookie = await adminCookie(server);
    await writeSettings(server.services.db, { postalAddress: 'PO Box 4120, Portland, OR 97208' });
  });

  it('resumes: a dead sender’s claims wait for the stale window, everyone else is mailed once, and who unsubscribed meanwhile gets nothing', async () => {
    const emails = await subscribe(server, 100, 'crash');
    const letter = await draft(server, cookie, 'Summer retreat', 'See you in **July**.');
    expect((await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } })).status).toBe(202);

    // Sender A claims 50 rows, sends 30, then hangs on the 31st for ever: a process that died.
    let delivered = 0;
    const real = server.services.mailer;
    const dying: Mailer = {
      kind: 'mailbox',
      send: (mail) => (delivered++ < 30 ? real.send(mail) : new Promise<void>(() => {})),
    };
    void sendNewsletterBatch({ ...server.services, mailer: dying }, { limit: 50 });
    for (let i = 0; i < 200 && delivered < 31; i++) await new Promise((r) => setTimeout(r, 20));
    expect(delivered).toBe(31);
    expect((await mailsPerRecipient(server, 'Summer retreat')).size).toBe(30);

    // Three subscribers still waiting leave the list during the send, through the unsubscribe page's API.
    const leaving = emails.slice(90, 93);
    for (const email of leaving) expect((await server.api('/api/subscribers/unsubscribe', { method: 'POST', json: { email } })).status).toBe(200);

    // Two live senders at once take the 50 pending rows between them, and not A's 20 claims.
    const [b, c] = await Promise.all([sendNewsletterBatch(server.services, { limit: 30 }), sendNewsletterBatch(server.services, { limit: 30 })]);
    expect(b.claimed + c.claimed).toBe(50);
    expect(b.skipped + c.skipped).toBe(3);
    expect(await sendNewsletterBatch(server.services, { limit: 1000 })).toMatchObject({ claimed: 0 });
    expect((await status(server, cookie, letter.id)).status).toBe('sending');

    // Past the stale window A's 20 claims are taken over and sent.
    const later = new Date(Date.now() + STALE_MS + 1000);
    expect(await sendNewsletterBatch(server.services, { limit: 1000, now: later })).toMatchObject({ claimed: 20, sent: 20 });

    const counts = await mailsPerRecipient(server, 'Summer retreat');
    expect([...counts.keys()].sort()).toEqual(emails.filter((e) => !leaving.includes(e)));
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await status(server, cookie, letter.id)).toMatchObject({ status: 'sent', total: 100, sent: 97, skipped: 3, failed: 0 });
  });

  it('retries a mail the service refused on the next tick, and gives up after three tries', async () => {
    await server.services.db.deleteFrom('subscribers').execute();
    await subscribe(server, 2, 'flaky');
    const letter = await draft(server, cookie, 'Flaky day', 'Hello');
    await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } });
    const failing: Mailer = { kind: 'mailbox', send: async () => Promise.reject(new Error('503 from the mail service')) };
    const quiet = console.error;
    console.error = () => {};
    try {
      for (let i = 0; i < 3; i++) expect(await sendNewsletterBatch({ ...server.services, mailer: failing })).toMatchObject({ claimed: 2, failed: 2 });
    } finally {
      console.error = quiet;
    }
    expect(await sendNewsletterBatch(server.services)).toMatchObject({ claimed: 0 });
    expect(await status(server, cookie, letter.id)).toMatchObject({ status: 'sent', total: 2, sent: 0, failed: 2 });
  });

  it('answers bad input and wrong states with clear 4xx, and sends a test to the admin only', async () => {
    const bad = await server.api('/api/admin/newsletters', { method: 'POST', headers: { cookie }, json: { subject: '  ', body: 'x' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/Subject is required/);
    const twoLines = await server.api('/api/admin/newsletters', { method: 'POST', headers: { cookie }, json: { subject: 'a\nBcc: x', body: 'x' } });
    expect(twoLines.status).toBe(400);
    expect((await server.api('/api/admin/newsletters/nope', { headers: { cookie } })).status).toBe(404);

    const letter = await draft(server, cookie, 'Draft one', 'First words');
    const edited = await server.api(`/api/admin/newsletters/${letter.id}`, {
      method: 'PUT',
      headers: { cookie },
      json: { subject: 'Draft two', body: 'Second words' },
    });
    expect(await edited.json()).toMatchObject({ subject: 'Draft two', body: 'Second words', status: 'draft' });

    const preview = await (
      await server.api('/api/admin/newsletters/preview', { method: 'POST', headers: { cookie }, json: { subject: 'P', body: '*hi* <b>x</b>' } })
    ).json();
    expect(preview.html).toContain('<em>hi</em> &lt;b&gt;x&lt;/b&gt;');
    expect(preview.text).toContain('hi <b>x</b>');
    expect(preview.text).not.toContain('*hi*');

    const test = await server.api(`/api/admin/newsletters/${letter.id}/test`, { method: 'POST', headers: { cookie } });
    expect(test.status).toBe(200);
    const mail = itemAt(await readMailbox(server, server.env.ADMIN_EMAIL), 0);
    expect(mail.subject).toBe('[Test] Draft two');
    expect((await status(server, cookie, letter.id)).status).toBe('draft');

    await server.services.db.deleteFrom('subscribers').execute();
    const none = await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } });
    expect(none.status).toBe(409);
    expect((await none.json()).message).toBe('There are no subscribers to send this newsletter to.');

    await subscribe(server, 1, 'last');
    expect((await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } })).status).toBe(202);
    const again = await server.api(`/api/admin/newsletters/${letter.id}/send`, { method: 'POST', headers: { cookie } });
    expect(again.status).toBe(409);
    const late = await server.api(`/api/admin/newsletters/${letter.id}`, { method: 'PUT', headers: { cookie }, json: { subject: 'Too late', body: 'x' } });
    expect(late.status).toBe(409);
  });
});

/**
 * The mail outbox (issue 21, decision 0024) against a local fake of Resend's API, through the
 * real `resend` package: each mail sent with its row's Idempotency-Key; 5xx, 429 and timeouts
 * retried with backoff, other 4xx given up at once and shown to the teacher; several senders
 * claiming at once send each mail once; Resend's signed bounce and complaint webhooks (a bad
 * signature refused and nothing changed; a good one suppresses the address, the next mail to it
 * is skipped and listed for the teacher); the stand-in posts such events through the same route.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../../helpers/server.ts';
import { adminCookie } from '../../helpers/auth.ts';
import { testDbKind } from '../../helpers/database.ts';
import { readMailbox } from '../../helpers/mail.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { createResendMailer } from '../../../api/services/mail/resend.ts';
import { createMailboxMailer } from '../../../api/services/mail/mailbox.ts';
import { queueMails } from '../../../api/mail/outbox.repo.ts';
import { isRetryable, retryDelayMs, sendDueMails, sendQueued } from '../../../api/mail/outbox.ts';
import { DEV_WEBHOOK_SECRET, mailEventPayload, signMailEvent } from '../../../api/mail/resend-webhook.ts';
import { MailError, type OutgoingMail } from '../../../api/services/mail/index.ts';
import { resetRateLimits } from '../../../api/middleware/rate-limit.ts';
import { itemAt } from '../../helpers/guards.ts';

// Retries after 50 ms, doubling, at most 3 tries; claims stale after a second.
const server = useTestServer({ env: { OUTBOX_RETRY_BASE_MS: '50', OUTBOX_MAX_ATTEMPTS: '3', OUTBOX_CLAIM_STALE_MS: '1000', OUTBOX_INTERVAL_MS: '3600000' } });
let resend: FakeServer;
/** What the fake Resend took, by Idempotency-Key: a repeat of a key is answered and not counted, as Resend does. */
const delivered = new Map<string, string>();
let answer: (key: string) => { status: number; body?: unknown; delayMs?: number } = () => ({ status: 200 });

beforeAll(async () => {
  resend = await startFakeServer(async (req) => {
    const key = String(req.headers['idempotency-key'] ?? '');
    const a = answer(key);
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (a.status !== 200) return { status: a.status, body: a.body ?? { statusCode: a.status, name: 'application_error', message: `status ${a.status}` } };
    if (!delivered.has(key)) delivered.set(key, JSON.parse(req.body).to[0]);
    return { status: 200, body: { id: `email-${key}` } };
  });
  server.services.mailer = createResendMailer({ apiKey: 're_test', from: 'Studio <hello@example.com>', baseUrl: resend.url, timeoutMs: 300 });
});
afterAll(async () => {
  await resend?.close();
});
beforeEach(async () => {
  resetRateLimits();
  delivered.clear();
  resend.requests.length = 0;
  answer = () => ({ status: 200 });
  await server.services.db.deleteFrom('mailOutbox').execute();
  await server.services.db.deleteFrom('mailSuppressions').execute();
});

const mail = (to: string, subject = 'Your booking'): OutgoingMail => ({ to, subject, text: `Hello ${to}` });
const queue = (kind: string, mails: OutgoingMail[]) => server.services.db.transaction().execute((trx) => queueMails(trx, kind, mails));
const row = (id: string) => server.services.db.selectFrom('mailOutbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const later = (ms: number) => new Date(Date.now() + ms);

describe(`the mail outbox on ${testDbKind()}`, () => {
  it('sends through Resend with the row id as Idempotency-Key, and a rolled-back change queues nothing', async () => {
    const [id] = await queue('booking-confirmation', [mail('ana@example.com')]);
    expect(await sendQueued(server.services, [id!])).toBe(1);
    expect(resend.requests).toHaveLength(1);
    expect(itemAt(resend.requests, 0).headers['idempotency-key']).toBe(`mail/${id}`);
    expect(itemAt(resend.requests, 0).headers.authorization).toBe('Bearer re_test');
    expect(await row(id!)).toMatchObject({ state: 'sent', attempts: 1 });
    // Sent already: neither the request's send nor the periodic sender sends it again.
    expect(await sendQueued(server.services, [id!])).toBe(0);
    expect((await sendDueMails(server.services, later(60_000))).claimed).toBe(0);

    // A change that rolls back takes its mails with it.
    await expect(
      server.services.db.transaction().execute(async (trx) => {
        await queueMails(trx, 'booking-confirmation', [mail('rolled@example.com')]);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await server.services.db.selectFrom('mailOutbox').select('id').where('to', '=', 'rolled@example.com').execute()).toEqual([]);
  });

  it('retries a 503, a 429 and a timeout with backoff, and sends each mail once when the service is back', async () => {
    const ids = await queue('order-confirmation', [mail('b1@example.com'), mail('b2@example.com'), mail('b3@example.com')]);
    const failing = new Map([
      [`mail/${ids[0]}`, { status: 503 }],
      [`mail/${ids[1]}`, { status: 429 }],
      [`mail/${ids[2]}`, { status: 200, delayMs: 1_000 }],
    ]);
    answer = (key) => failing.get(key) ?? { status: 200 };
    expect(await sendQueued(server.services, ids)).toBe(0);
    for (const id of ids) {
      const r = await row(id);
      expect(r.state).toBe('pending');
      expect(r.attempts).toBe(1);
      // Not before the backoff (50 ms ± 20 %).
      expect(new Date(r.nextAttemptAt).getTime()).toBeGreaterThan(Date.now() - 1_000);
      expect(r.lastError).toMatch(/503|429|no answer/);
    }
    // Due now, not yet: a tick before the backoff sends nothing.
    expect((await sendDueMails(server.services, new Date(Date.now() - 10_000))).claimed).toBe(0);
    answer = () => ({ status: 200 });
    const result = await sendDueMails(server.services, later(10_000));
    expect(result).toMatchObject({ claimed: 3, sent: 3 });
    // The timed-out try may have reached Resend: its retry carries the same key, so it is one mail.
    expect([...delivered.values()].sort()).toEqual(['b1@example.com', 'b2@example.com', 'b3@example.com']);
    expect(new Set(resend.requests.map((r) => r.headers['idempotency-key'])).size).toBe(3);
  });

  it('gives up at once on a 422 and after the last try on 5xx; the teacher sees both, never the text, and can try again', async () => {
    const [refused] = await queue('login-link', [mail('typo@exmaple.con', 'Your login link')]);
    const [flaky] = await queue('booking-confirmation', [mail('flaky@example.com')]);
    answer = (key) =>
      key === `mail/${refused}`
        ? { status: 422, body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' } }
        : key === `mail/${flaky}`
          ? { status: 500 }
          : { status: 200 };
    await sendQueued(server.services, [refused!, flaky!]);
    expect(await row(refused!)).toMatchObject({ state: 'failed', attempts: 1 });
    expect((await row(refused!)).lastError).toContain('422');
    // Two more tries (OUTBOX_MAX_ATTEMPTS 3), each after its backoff, then given up.
    await sendDueMails(server.services, later(60_000));
    expect(await row(flaky!)).toMatchObject({ state: 'pending', attempts: 2 });
    await sendDueMails(server.services, later(3_600_000));
    expect(await row(flaky!)).toMatchObject({ state: 'failed', attempts: 3 });
    expect((await sendDueMails(server.services, later(7_200_000))).claimed).toBe(0);

    const cookie = await adminCookie(server);
    const unsent = await (await server.api('/api/admin/mail/unsent', { headers: { cookie } })).json();
    expect(unsent.map((m: { to: string; state: string; kind: string }) => [m.kind, m.to, m.state]).sort()).toEqual([
      ['booking-confirmation', 'flaky@example.com', 'failed'],
      ['login-link', 'typo@exmaple.con', 'failed'],
    ]);
    expect(JSON.stringify(unsent)).not.toContain('Hello ');
    // Today counts them, and links to the Mail page.
    const today = await (await server.api('/api/admin/today', { headers: { cookie } })).json();
    expect(today.failedMails).toMatchObject({ count: 2, href: '/admin/mail' });
    // Refused without the admin; tried again with her once the service is back.
    expect((await server.api('/api/admin/mail/unsent')).status).toBe(401);
    expect((await server.api(`/api/admin/mail/${flaky}/retry`, { method: 'POST' })).status).toBe(401);
    answer = () => ({ status: 200 });
    const retried = await server.api(`/api/admin/mail/${flaky}/retry`, { method: 'POST', headers: { cookie } });
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ sent: true });
    expect(await row(flaky!)).toMatchObject({ state: 'sent' });
    expect((await server.api(`/api/admin/mail/${flaky}/retry`, { method: 'POST', headers: { cookie } })).status).toBe(404);
  });

  it('gives each mail to one of several senders claiming at once, and takes over a claim whose sender died', async () => {
    const ids = await queue(
      'reminder-day',
      Array.from({ length: 30 }, (_, i) => mail(`r${i}@example.com`)),
    );
    const results = await Promise.all(Array.from({ length: 4 }, () => sendDueMails(server.services, later(10_000))));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(30);
    expect(resend.requests).toHaveLength(30);
    expect(delivered.size).toBe(30);

    // A sender that claimed and died (the row stays 'sending'): taken over once the claim is stale, same key.
    const [orphan] = await queue('order-confirmation', [mail('orphan@example.com')]);
    await server.services.db
      .updateTable('mailOutbox')
      .set({ state: 'sending', claimedBy: 'dead-process', claimedAt: new Date(), attempts: 1 })
      .where('id', '=', orphan!)
      .execute();
    expect((await sendDueMails(server.services, later(100))).claimed).toBe(0);
    expect(await sendDueMails(server.services, later(5_000))).toMatchObject({ claimed: 1, sent: 1 });
    expect(itemAt(resend.requests, -1).headers['idempotency-key']).toBe(`mail/${orphan}`);
    expect(ids).toHaveLength(30);
  });

  it('classifies failures: no answer, 408, 409, 429 and 5xx are retried, other 4xx are not; backoff doubles up to an hour', () => {
    for (const status of [0, 408, 409, 429, 500, 503]) expect(isRetryable(new MailError('x', status)), String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 422]) expect(isRetryable(new MailError('x', status)), String(status)).toBe(false);
    expect(isRetryable(new Error('socket hang up'))).toBe(true);
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 30_000, mid))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(retryDelayMs(20, 30_000, mid)).toBe(3_600_000);
  });
});

describe(`Resend's delivery webhook on ${testDbKind()}`, () => {
  const post = (payload: string, headers: Record<string, string>) =>
    server.api('/api/webhooks/resend', { method: 'POST', body: payload, headers: { 'content-type': 'application/json', ...headers } });
  const signed = (payload: string, secret = DEV_WEBHOOK_SECRET, now = new Date()) => {
    const s = signMailEvent(secret, payload, now);
    return { 'svix-id': s.id, 'svix-timestamp': s.timestamp, 'svix-signature': s.signature };
  };
  const suppressions = () => server.services.db.selectFrom('mailSuppressions').selectAll().execute();

  it('refuses a bad, foreign, stale or missing signature with 401 and changes nothing', async () => {
    const payload = mailEventPayload('bounced', 'gone@example.com');
    const good = signed(payload);
    expect((await post(payload, { ...good, 'svix-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' })).status).toBe(401);
    expect((await post(payload, signed(payload, `whsec_${Buffer.from('someone else').toString('base64')}`))).status).toBe(401);
    expect((await post(payload, signed(payload, DEV_WEBHOOK_SECRET, new Date(Date.now() - 3_600_000)))).status).toBe(401);
    expect((await post(payload, {})).status).toBe(401);
    // A good signature over another body.
    const res = await post(mailEventPayload('bounced', 'other@example.com'), good);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'The event’s signature could not be verified.' });
    expect(await suppressions()).toEqual([]);
  });

  it('marks a bounced address; the next mail to it is skipped, not sent, and shown to the teacher', async () => {
    const payload = mailEventPayload('bounced', 'Gone+shop@Example.com');
    const res = await post(payload, signed(payload));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true, suppressed: 1 });
    expect(await suppressions()).toMatchObject([{ email: 'gone@example.com', reason: 'bounced' }]);

    const [skipped] = await queue('booking-confirmation', [mail('gone@example.com')]);
    const [sent] = await queue('booking-confirmation', [mail('here@example.com')]);
    expect(await sendQueued(server.services, [skipped!, sent!])).toBe(1);
    expect(resend.requests.map((r) => JSON.parse(r.body).to[0])).toEqual(['here@example.com']);
    expect(await row(skipped!)).toMatchObject({ state: 'skipped', lastError: 'not sent: the address bounced' });
    const unsent = await (await server.api('/api/admin/mail/unsent', { headers: { cookie: await adminCookie(server) } })).json();
    expect(unsent).toMatchObject([{ to: 'gone@example.com', state: 'skipped', kind: 'booking-confirmation' }]);
    // Other event types are acknowledged and change nothing.
    const delivery = JSON.stringify({ type: 'email.delivered', data: { to: ['here@example.com'] } });
    expect(await (await post(delivery, signed(delivery))).json()).toEqual({ received: true, ignored: 'email.delivered' });
    expect(await suppressions()).toHaveLength(1);
  });

  it('the stand-in posts a signed complaint through the same route', async () => {
    const res = await server.api('/api/dev/mailbox/events', { method: 'POST', json: { type: 'complained', email: 'spam@example.com' } });
    expect(res.status).toBe(200);
    expect(await suppressions()).toMatchObject([{ email: 'spam@example.com', reason: 'complained' }]);
    expect((await server.api('/api/dev/mailbox/events', { method: 'POST', json: { type: 'delivered', email: 'x@example.com' } })).status).toBe(400);
  });

  it('the mailbox page’s Bounce button posts a form through the same route and comes back to the page', async () => {
    const form = (fields: Record<string, string>) =>
      server.api('/dev/mailbox/events', { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual', headers: { origin: server.url } });
    const res = await form({ email: 'button@example.com', type: 'bounced' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dev/mailbox?event=bounced&email=button%40example.com');
    expect(await suppressions()).toMatchObject([{ email: 'button@example.com', reason: 'bounced' }]);
    expect((await form({ email: 'button@example.com', type: 'delivered' })).status).toBe(400);
    const page = await (await server.api('/dev/mailbox?event=bounced&email=button%40example.com')).text();
    expect(page).toContain('button@example.com bounced');
  });
});

describe(`the mailbox stand-in on ${testDbKind()}`, () => {
  it('stores a mail once per Idempotency-Key, as Resend sends it once', async () => {
    const mailbox = createMailboxMailer(server.services.db);
    const once = { ...mail('twice@example.com', 'Once only'), idempotencyKey: 'mail/test-once' };
    await mailbox.send(once);
    await mailbox.send(once);
    expect((await readMailbox(server, 'twice@example.com')).filter((m) => m.subject === 'Once only')).toHaveLength(1);
  });
});

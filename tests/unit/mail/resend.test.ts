import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createResendMailer } from '../../../api/services/mail/resend.ts';
import { MailError } from '../../../api/services/mail/index.ts';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.ts';
import { itemAt } from '../../helpers/guards.ts';

describe('createResendMailer against a fake Resend API', () => {
  let resend: FakeServer;

  beforeAll(async () => {
    resend = await startFakeServer();
  });
  afterAll(async () => {
    await resend.close();
  });
  beforeEach(() => {
    resend.requests.length = 0;
    resend.handle(() => ({ status: 200, body: { id: 'email-1' } }));
  });

  it("sends Reply-To as Resend's reply_to field, not as a raw header", async () => {
    const mailer = createResendMailer({ apiKey: 'k', from: 'Studio <hello@example.com>', baseUrl: resend.url });
    await mailer.send({ to: 'teacher@example.com', subject: 'New message', text: 'x', headers: { 'Reply-To': 'ana@example.com' } });
    const body = JSON.parse(itemAt(resend.requests, 0).body);
    expect(body.reply_to).toBe('ana@example.com');
    expect(body.headers).toBeUndefined();
  });

  it("sends a mail's idempotency key as the Idempotency-Key HTTP header, outside the mail", async () => {
    const mailer = createResendMailer({ apiKey: 'k', from: 'Studio <hello@example.com>', baseUrl: resend.url });
    await mailer.send({ to: 'ana@example.com', subject: 'News', text: 'x', idempotencyKey: 'newsletter/abc/123' });
    await mailer.send({ to: 'ana@example.com', subject: 'News', text: 'x' });
    expect(itemAt(resend.requests, 0).headers['idempotency-key']).toBe('newsletter/abc/123');
    expect(JSON.parse(itemAt(resend.requests, 0).body)).not.toHaveProperty('idempotencyKey');
    expect(itemAt(resend.requests, 1).headers['idempotency-key']).toBeUndefined();
  });

  it('POSTs /emails with the bearer key and the full JSON body', async () => {
    const mailer = createResendMailer({ apiKey: 're_test_123', from: 'Studio <hello@example.com>', baseUrl: resend.url });
    expect(mailer.kind).toBe('resend');

    // What Resend is sent as the mail gave it: the subject, the text and HTML bodies, the headers.
    const said = {
      subject: 'Your booking',
      text: 'See you on Tuesday',
      html: '<p>See you on <b>Tuesday</b></p>',
      headers: { 'List-Unsubscribe': '<https://example.com/u/abc>' },
    };
    await mailer.send({
      to: 'ana@example.com',
      ...said,
      attachments: [
        { filename: 'invite.ics', contentType: 'text/calendar', content: 'QkVHSU46VkNBTEVOREFS' },
        { filename: 'receipt.txt', contentType: 'text/plain', content: 'aGVsbG8=' },
      ],
    });

    expect(resend.requests).toHaveLength(1);
    const req = resend.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/emails');
    expect(req.headers.authorization).toBe('Bearer re_test_123');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(req.body)).toEqual({
      from: 'Studio <hello@example.com>',
      to: ['ana@example.com'],
      ...said,
      attachments: [
        { filename: 'invite.ics', content: 'QkVHSU46VkNBTEVOREFS', content_type: 'text/calendar' },
        { filename: 'receipt.txt', content: 'aGVsbG8=', content_type: 'text/plain' },
      ],
    });
  });

  it('leaves out html, headers and attachments when the mail has none, and tolerates a trailing slash', async () => {
    const mailer = createResendMailer({ apiKey: 'k', from: 'a@example.com', baseUrl: `${resend.url}/` });
    await mailer.send({ to: 'b@example.com', subject: 'Hi', text: 'Plain', attachments: [] });

    expect(resend.requests).toHaveLength(1);
    expect(itemAt(resend.requests, 0).url).toBe('/emails');
    expect(JSON.parse(itemAt(resend.requests, 0).body)).toEqual({
      from: 'a@example.com',
      to: ['b@example.com'],
      subject: 'Hi',
      text: 'Plain',
    });
  });

  it('rejects with a MailError carrying the status when Resend answers 422', async () => {
    resend.handle(() => ({
      status: 422,
      body: { statusCode: 422, name: 'validation_error', message: 'Invalid `to` field.' },
    }));
    const mailer = createResendMailer({ apiKey: 'k', from: 'a@example.com', baseUrl: resend.url });

    const error = await mailer.send({ to: 'not-an-address', subject: 'x', text: 'y' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).status).toBe(422);
    expect((error as MailError).name).toBe('MailError');
    expect((error as MailError).message).toContain('422');
    expect((error as MailError).message).toContain('validation_error');
    expect(resend.requests).toHaveLength(1);
  });

  it('rejects with the status of a server error too (500)', async () => {
    resend.handle(() => ({ status: 500, body: 'boom' }));
    const mailer = createResendMailer({ apiKey: 'k', from: 'a@example.com', baseUrl: resend.url });
    await expect(mailer.send({ to: 'b@example.com', subject: 'x', text: 'y' })).rejects.toMatchObject({
      name: 'MailError',
      status: 500,
    });
  });

  it('gives up on a Resend that does not answer in time', async () => {
    resend.handle(() => new Promise((r) => setTimeout(() => r({ status: 200, body: { id: 'late' } }), 2000)));
    const mailer = createResendMailer({ apiKey: 'k', from: 'a@example.com', baseUrl: resend.url, timeoutMs: 100 });
    const started = Date.now();
    // No answer: a MailError with status 0, which the outbox retries (api/mail/outbox.ts isRetryable).
    await expect(mailer.send({ to: 'b@example.com', subject: 'x', text: 'y' })).rejects.toMatchObject({ name: 'MailError', status: 0 });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

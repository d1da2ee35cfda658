import { Resend } from 'resend';
import { MailError, type Mailer } from './index.ts';

/**
 * Resend through its `resend` package: the mail's idempotency key as its `idempotencyKey` option
 * (the Idempotency-Key header: Resend drops a repeat within 24 hours), a timeout per call. A
 * refusal is thrown as a MailError with Resend's status (0 when no answer came: network or
 * timeout), which the outbox reads to retry or give up (api/mail/outbox.ts).
 */
export function createResendMailer(options: { apiKey: string; from: string; baseUrl: string; timeoutMs?: number }): Mailer {
  const resend = new Resend(options.apiKey, { baseUrl: options.baseUrl.replace(/\/$/, '') });
  return {
    kind: 'resend',
    async send(mail) {
      // Resend takes Reply-To as its own field; other headers pass through as given.
      const { 'Reply-To': replyTo, ...headers } = mail.headers ?? {};
      const { error } = await resend.emails.send(
        {
          from: options.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(replyTo ? { replyTo } : {}),
          ...(Object.keys(headers).length ? { headers } : {}),
          ...(mail.attachments?.length
            ? { attachments: mail.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })) }
            : {}),
        },
        {
          ...(mail.idempotencyKey ? { idempotencyKey: mail.idempotencyKey } : {}),
          // A Resend that hangs must not hold the sender (or a request sending right after its commit).
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        },
      );
      if (error) {
        const status = typeof error.statusCode === 'number' ? error.statusCode : 0;
        throw new MailError(`Resend refused the mail (${status || 'no answer'}, ${error.name}): ${String(error.message).slice(0, 200)}`, status);
      }
    },
  };
}

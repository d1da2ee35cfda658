import { MailError, type Mailer } from './index.ts';

/** Resend's REST API (POST /emails). `baseUrl` is changed only by tests. */
export function createResendMailer(options: { apiKey: string; from: string; baseUrl: string; fetch?: typeof fetch; timeoutMs?: number }): Mailer {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: 'resend',
    async send(mail) {
      // Resend takes Reply-To as its own field; other headers pass through as given.
      const { 'Reply-To': replyTo, ...headers } = mail.headers ?? {};
      const res = await doFetch(`${options.baseUrl.replace(/\/$/, '')}/emails`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
          ...(mail.idempotencyKey ? { 'idempotency-key': mail.idempotencyKey } : {}),
        },
        // Mails are sent during the request: a Resend that hangs must not hang the visitor's form.
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        body: JSON.stringify({
          from: options.from,
          to: [mail.to],
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          ...(replyTo ? { reply_to: replyTo } : {}),
          ...(Object.keys(headers).length ? { headers } : {}),
          ...(mail.attachments?.length
            ? {
                attachments: mail.attachments.map((a) => ({
                  filename: a.filename,
                  content: a.content,
                  content_type: a.contentType,
                })),
              }
            : {}),
        }),
      });
      if (!res.ok) {
        const detail = await res.text().catch(() => '');
        throw new MailError(`Resend refused the mail (${res.status}): ${detail.slice(0, 200)}`, res.status);
      }
    },
  };
}

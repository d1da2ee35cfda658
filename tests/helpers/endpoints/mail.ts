/** The endpoint table's mail part (tests/helpers/endpoints.ts holds the whole table, in order). */
import { DEV_WEBHOOK_SECRET, mailEventPayload, signMailEvent } from '../../../api/mail/resend-webhook.ts';
import { plainGet, text, optionalText, match, type Endpoint } from './common.ts';

export const MAIL_ENDPOINTS: Endpoint[] = [
  // --- mail (issue 21): Resend's signed delivery events, and what did not leave ----------------
  // The body is verified as a whole by its signature: any altered field fails it (401).
  {
    method: 'POST',
    route: '/api/webhooks/resend',
    auth: 'none',
    body: 'json',
    writes: ['mailSuppressions'],
    example: async (fx) => {
      const json = JSON.parse(mailEventPayload('bounced', fx.email('bounce')));
      const signed = signMailEvent(DEV_WEBHOOK_SECRET, JSON.stringify(json));
      return { json, headers: { 'svix-id': signed.id, 'svix-timestamp': signed.timestamp, 'svix-signature': signed.signature } };
    },
  },
  plainGet('/api/admin/mail/unsent', 'admin'),
  {
    method: 'POST',
    route: '/api/admin/mail/:id/retry',
    auth: 'admin',
    body: 'none',
    writes: ['mailOutbox', 'mails'],
    example: async (fx) => {
      const row = await fx.db
        .insertInto('mailOutbox')
        .values({
          kind: 'contact-message',
          to: fx.email('failed'),
          canonicalTo: fx.email('failed'),
          about: fx.email('failed'),
          subject: 'A failed mail',
          text: 'x',
          state: 'failed',
          lastError: 'refused (422)',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { params: { id: row.id } };
    },
  },
];

export const MAILBOX_ENDPOINTS: Endpoint[] = [
  // --- the mailbox stand-in's JSON (development and tests only) -------------------------------
  {
    method: 'GET',
    route: '/api/dev/mailbox',
    auth: 'none',
    body: 'none',
    fields: { to: optionalText({ in: 'query', role: 'lookup' }) },
    writes: [],
    example: async () => ({ query: { to: 'teacher@example.com' } }),
  },
  {
    method: 'POST',
    route: '/api/dev/mailbox/events',
    auth: 'none',
    body: 'json',
    // The address is stored as its mailbox (lower-cased, +tag dropped), not as typed: a lookup.
    fields: { type: match({ bad: ['bounce', 'BOUNCED', 'delivered'] }), email: text({ role: 'lookup' }) },
    writes: ['mailSuppressions'],
    example: async (fx) => ({ json: { type: 'complained', email: fx.email('complaint') } }),
  },
];

/**
 * Resend's delivery webhooks (issue 21): an address that bounced or complained is suppressed, so
 * the outbox skips later mails to it (and the teacher sees why under Mail). Every event is
 * verified with its Standard Webhooks signature through the `resend` package before anything
 * changes; the development mailbox posts signed events too (POST /api/dev/mailbox/events), with a
 * development secret, through this same route.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Resend } from 'resend';
import { z } from 'zod';
import type { Env } from '../env.ts';

/** The secret the stand-in signs its events with when RESEND_WEBHOOK_SECRET is unset (never in production: the stand-in is off there). */
export const DEV_WEBHOOK_SECRET = `whsec_${Buffer.from('yoga-and-chocolates development webhook').toString('base64')}`;

/** The secret events are verified with: hers, else (with the local mailbox only) the development one. */
export function webhookSecret(env: Pick<Env, 'RESEND_WEBHOOK_SECRET' | 'standIns' | 'NODE_ENV'>): string | undefined {
  if (env.RESEND_WEBHOOK_SECRET) return env.RESEND_WEBHOOK_SECRET;
  return env.standIns.mail && env.NODE_ENV !== 'production' ? DEV_WEBHOOK_SECRET : undefined;
}

/** The part of Resend's email events this site reads. Other event types are acknowledged and ignored. */
const mailEvent = z.object({
  type: z.string().max(100),
  created_at: z.string().max(100).optional(),
  data: z
    .object({
      email_id: z.string().max(200).optional(),
      to: z.array(z.string().max(320)).max(50).optional(),
      bounce: z
        .object({ message: z.string().max(2000).optional(), type: z.string().max(100).optional() })
        .passthrough()
        .optional(),
    })
    .passthrough(),
});

export type MailEvent = { kind: 'bounced' | 'complained'; addresses: string[]; detail: string | null } | { kind: 'ignored'; type: string };

/** Verifies the signature (throws when it is wrong, old or missing) and reads the event. */
export function verifyMailEvent(secret: string, payload: string, headers: { id: string; timestamp: string; signature: string }): MailEvent {
  // The webhook helper needs no API key; the constructor wants one all the same.
  const verified = new Resend('re_webhook_only').webhooks.verify({ payload, headers, webhookSecret: secret });
  const event = mailEvent.parse(verified);
  const addresses = (event.data.to ?? []).filter((a) => a.includes('@'));
  if (event.type === 'email.bounced') {
    const b = event.data.bounce;
    return { kind: 'bounced', addresses, detail: [b?.type, b?.message].filter(Boolean).join(': ') || null };
  }
  if (event.type === 'email.complained') return { kind: 'complained', addresses, detail: 'marked as spam' };
  return { kind: 'ignored', type: event.type };
}

/** Signs an event as Resend does (Standard Webhooks: HMAC-SHA256 of "id.timestamp.payload"): the stand-in's and the tests' events. */
export function signMailEvent(secret: string, payload: string, now = new Date()): { id: string; timestamp: string; signature: string } {
  const id = `msg_${randomUUID()}`;
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${payload}`).digest('base64')}`;
  return { id, timestamp, signature };
}

/** A Resend-shaped bounce or complaint event for `email` (the stand-in's). */
export function mailEventPayload(kind: 'bounced' | 'complained', email: string): string {
  return JSON.stringify({
    type: `email.${kind}`,
    created_at: new Date().toISOString(),
    data: {
      email_id: randomUUID(),
      to: [email],
      ...(kind === 'bounced' ? { bounce: { type: 'Permanent', message: 'The mailbox does not exist (development mailbox).' } } : {}),
    },
  });
}

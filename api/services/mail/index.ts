/**
 * Sending mail: one interface, two implementations. Resend with RESEND_API_KEY (always in
 * production); otherwise the development mailbox, which stores each mail in the database
 * and shows it at /dev/mailbox.
 */
import type { MailAttachment } from '../../../db/schema.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
  /**
   * The address of the person a mail to someone else is about (a mail telling the teacher of a
   * client's booking names the client): the outbox files it under that person, so erasing her
   * account erases it too (decision 0029). Unset: the recipient. Never sent.
   */
  about?: string;
  /**
   * The addresses of the others the mail names by name (the gift card to its recipient names the
   * buyer): the outbox records their mailboxes, so erasing one of them empties it (decision 0053). Never sent.
   */
  names?: string[];
  /**
   * Sent to Resend as its Idempotency-Key header: a repeat within 24 hours is not sent again
   * (the newsletter outbox retries a claim a dead sender left with the same key).
   */
  idempotencyKey?: string;
}

export interface Mailer {
  readonly kind: 'resend' | 'mailbox';
  send(mail: OutgoingMail): Promise<void>;
}

export class MailError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'MailError';
    this.status = status;
  }
}

/** Every http(s) link in a mail, in order of appearance, without duplicates. */
export function extractLinks(html: string, text: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/href\s*=\s*"([^"]+)"/gi)) found.push(m[1]!.replaceAll('&amp;', '&'));
  for (const m of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) found.push(m[0]);
  return [...new Set(found.filter((l) => /^https?:\/\//.test(l)))];
}

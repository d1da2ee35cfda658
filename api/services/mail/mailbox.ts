import type { DB } from '../../../db/client.ts';
import { extractLinks, type Mailer } from './index.ts';
import { storedMails, storeMail } from './mailbox.repo.ts';

/**
 * The development mailbox: "sending" stores the mail; /dev/mailbox shows it. Like Resend, it
 * takes a mail with an Idempotency-Key once: a repeat (the outbox resending after a crash) is
 * accepted and not stored again, so the mailbox shows what a real provider would deliver.
 */
export function createMailboxMailer(db: DB): Mailer {
  return {
    kind: 'mailbox',
    async send(mail) {
      await storeMail(db, mail);
    },
  };
}

export interface MailboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  headers: Record<string, string>;
  /** Each attachment with its content: as text for text/* types (an .ics), else base64. */
  attachments: { filename: string; contentType: string; size: number; encoding: 'utf-8' | 'base64'; content: string }[];
  sentAt: string;
}

/** Stored mails, newest first; `to` filters by recipient (case-insensitive). */
export async function listMailbox(db: DB, options: { to?: string; limit?: number } = {}): Promise<MailboxEntry[]> {
  const rows = await storedMails(db, { to: options.to, limit: options.limit ?? 200 });
  return rows.map((r) => ({
    to: r.to,
    subject: r.subject,
    text: r.text,
    html: r.html,
    links: extractLinks(r.html, r.text),
    headers: r.headers,
    attachments: r.attachments.map((a) => {
      const bytes = Buffer.from(a.content, 'base64');
      const text = a.contentType.startsWith('text/');
      return {
        filename: a.filename,
        contentType: a.contentType,
        size: bytes.length,
        encoding: text ? ('utf-8' as const) : ('base64' as const),
        content: text ? bytes.toString('utf8') : a.content,
      };
    }),
    sentAt: new Date(r.sentAt).toISOString(),
  }));
}

import { vi } from 'vitest';
import type { TestServer } from './server.ts';
import type { MailboxEntry } from '../../api/services/mail/mailbox.ts';
import { itemAt } from './guards.ts';

export const MAIL_DOWN = 'mail service down';

/**
 * Runs `fn` while the server's mailer fails every send, with console.error silenced and
 * recorded (the server logs each failed mail): for tests that a failing mail never fails the
 * request or undoes what it stored.
 */
export async function withMailerDown(server: TestServer, fn: (logged: ReturnType<typeof vi.spyOn>) => Promise<void>): Promise<void> {
  const { mailer } = server.services;
  const send = mailer.send;
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  mailer.send = async () => {
    throw new Error(MAIL_DOWN);
  };
  try {
    await fn(logged);
  } finally {
    mailer.send = send;
    logged.mockRestore();
  }
}

/** The stand-in mailbox (GET /api/dev/mailbox): the mails to `to`, or all, newest first. */
export async function readMailbox(server: TestServer, to?: string): Promise<MailboxEntry[]> {
  return (await server.api(`/api/dev/mailbox${to ? `?to=${encodeURIComponent(to)}` : ''}`)).json();
}

/** The .ics attached to the newest mail to `to`, read from the stored mail (the mailbox API gives metadata only). */
export async function icsTo(server: TestServer, to: string): Promise<string> {
  const row = await server.services.db
    .selectFrom('mails')
    .select('attachments')
    .where('to', '=', to)
    .orderBy('sentAt', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return Buffer.from(itemAt(row.attachments, 0).content, 'base64').toString('utf8');
}

/** The development mailbox's table, `mails` (api/services/mail/mailbox.ts). */
import type { DB } from '../../../db/client.ts';
import type { OutgoingMail } from './index.ts';

/** Stores `mail`, unless one with its Idempotency-Key is stored already. */
export async function storeMail(db: DB, mail: OutgoingMail): Promise<void> {
  await db
    .insertInto('mails')
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? '',
      headers: JSON.stringify(mail.headers ?? {}),
      attachments: JSON.stringify(mail.attachments ?? []),
      idempotencyKey: mail.idempotencyKey ?? null,
    })
    .onConflict((oc) => oc.column('idempotencyKey').doNothing())
    .execute();
}

/** Stored mails, newest first, at most `limit`; `to` filters by recipient (case-insensitive). */
export async function storedMails(db: DB, options: { to?: string | undefined; limit: number }) {
  let query = db
    .selectFrom('mails')
    .select(['to', 'subject', 'text', 'html', 'headers', 'attachments', 'sentAt'])
    .orderBy('sentAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.to) query = query.where((eb) => eb(eb.fn('lower', ['to']), '=', options.to!.toLowerCase()));
  return query.execute();
}

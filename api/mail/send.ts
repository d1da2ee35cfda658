/**
 * The one way a use-case sends mail: after its change is committed, each mail is sent; a
 * failure is logged and never fails the request (the submission, order or booking is stored by
 * then, and the teacher sees it in the admin area even if a mail never leaves).
 */
import type { Mailer, OutgoingMail } from '../services/mail/index.ts';

/** How many of `mails` were sent; the others are logged. */
export async function deliver(mailer: Mailer, mails: OutgoingMail[]): Promise<number> {
  let sent = 0;
  for (const m of mails) {
    try {
      await mailer.send(m);
      sent++;
    } catch (err) {
      console.error(`[mail] could not send "${m.subject}" to ${m.to}:`, err instanceof Error ? err.message : err);
    }
  }
  return sent;
}

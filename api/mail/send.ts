/**
 * The one way a use-case sends mail: after its change is committed, each mail is sent; a
 * failure is logged and never fails the request (the submission, order or booking is stored by
 * then, and the teacher sees it in the admin area even if a mail never leaves).
 */
import type { Mailer, OutgoingMail } from '../services/mail/index.ts';

/** An address as the server log may show it: enough to tell mails apart, not to read who. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}…${email.slice(at)}` : '…';
}

/** How many of `mails` were sent; the others are logged (with the address masked). */
export async function deliver(mailer: Mailer, mails: OutgoingMail[]): Promise<number> {
  let sent = 0;
  for (const m of mails) {
    try {
      await mailer.send(m);
      sent++;
    } catch (err) {
      console.error(`[mail] could not send "${m.subject}" to ${maskedAddress(m.to)}:`, err instanceof Error ? err.message : err);
    }
  }
  return sent;
}

/**
 * Class reminders the day before (issue 15), as api/booking/reminders.ts does for sessions:
 * every server process checks each minute; the claim (places.repo.ts claimDueClassReminders)
 * makes each reminder go out once, and its mail is written to the outbox in the claim's
 * transaction, so a crash after the claim never loses it (the outbox's idempotency key keeps a
 * resend from doubling it). Answers how many reminders left now.
 */
import type { Services } from '../services/index.ts';
import { claimDueClassReminders } from './places.repo.ts';
import { classReminderMail } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';

export async function sendDueClassReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, now = new Date()): Promise<number> {
  // The claim and its mails commit together; the mails leave after the commit.
  const { sent } = await commitWithMails(services, async (trx) => {
    const due = await claimDueClassReminders(trx, now);
    if (due.length === 0) return { result: undefined, mails: [] };
    // Her yoga brand, read once per batch (and only when there is something to send).
    const brand = (await brandNames(trx)).yoga;
    const mails = due.map((r) =>
      classReminderMail(
        services.env,
        brand,
        { id: r.id, name: r.name, email: r.email },
        { title: r.title, date: r.date, time: r.time, startsAt: new Date(r.startsAt), location: r.location },
      ),
    );
    return { result: undefined, mails: await queueMails(trx, 'class-reminder', mails) };
  });
  return sent;
}

/**
 * Session reminders a day and two hours before (issue 5). Every server process runs the check
 * each minute; the claim in the database makes each reminder go out once (api/booking/reminders.repo.ts),
 * and the reminder's mail is written to the outbox in the claim's transaction, so a crash after
 * the claim never loses it (the outbox's idempotency key keeps a resend from doubling it).
 */
import type { Services } from '../services/index.ts';
import { claimDueReminders, type ReminderKind } from './reminders.repo.ts';
import { reminderMail } from './mails.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { readSettings } from '../settings/settings.repo.ts';

export async function sendDueReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, now = new Date()): Promise<Record<ReminderKind, number>> {
  const sent: Record<ReminderKind, number> = { day: 0, soon: 0 };
  for (const kind of ['day', 'soon'] as const) {
    // The claim and its mails commit together; the mails leave after the commit.
    const done = await commitWithMails(services, async (trx) => {
      const due = await claimDueReminders(trx, kind, now);
      if (due.length === 0) return { result: undefined, mails: [] };
      // Her yoga brand and notice period, read once per batch (and only when there is something to send).
      const [brand, { cancelNoticeHours }] = await Promise.all([brandNames(trx).then((b) => b.yoga), readSettings(trx)]);
      const mails = due.map((r) =>
        reminderMail(
          services.env,
          brand,
          {
            email: r.email!,
            firstName: r.firstName ?? '',
            sessionType: r.sessionType ?? 'Session',
            startsAt: new Date(r.startsAt),
            duration: r.duration,
            link: r.link,
            userId: r.bookedBy,
            // Online (issue 35) the link is the way in; the slot's place is not where it happens.
            place: r.online ? 'Online' : r.place,
          },
          kind,
          cancelNoticeHours,
        ),
      );
      return { result: undefined, mails: await queueMails(trx, `reminder-${kind}`, mails) };
    });
    sent[kind] += done.sent;
  }
  return sent;
}

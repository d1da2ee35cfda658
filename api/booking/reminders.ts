/**
 * Session reminders a day and two hours before (issue 5). Every server process runs the check
 * each minute; the claim in the database makes each reminder go out once (api/booking/reminders.repo.ts).
 * A mail that fails after its claim is logged and not retried: a missed reminder is better
 * than a doubled one.
 */
import type { Services } from '../services/index.ts';
import { claimDueReminders, type ReminderKind } from './reminders.repo.ts';
import { reminderMail } from './mails.ts';
import { deliver } from '../mail/send.ts';
import { runEvery } from '../lib/periodic.ts';
import { brandNames } from '../pages/brand.ts';

export async function sendDueReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, now = new Date()): Promise<Record<ReminderKind, number>> {
  const sent: Record<ReminderKind, number> = { day: 0, soon: 0 };
  let brand: string | undefined;
  for (const kind of ['day', 'soon'] as const) {
    // The claim commits before the sends: a reminder claimed is a reminder at most once.
    const due = await services.db.transaction().execute((trx) => claimDueReminders(trx, kind, now));
    // Her yoga brand, read once per batch (and only when there is something to send).
    if (due.length) brand ??= (await brandNames(services.db)).yoga;
    for (const r of due) {
      const mail = reminderMail(
        services.env,
        brand!,
        {
          email: r.email!,
          firstName: r.firstName ?? '',
          sessionType: r.sessionType ?? 'Session',
          startsAt: new Date(r.startsAt),
          duration: r.duration,
          link: r.link,
          userId: r.bookedBy,
          place: r.place,
        },
        kind,
      );
      sent[kind] += await deliver(services.mailer, [mail]);
    }
  }
  return sent;
}

/** Starts the check every REMINDER_INTERVAL_MS (a minute by default); returns a function that stops it. */
export function startReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>): () => void {
  return runEvery('reminders', services.env.REMINDER_INTERVAL_MS, () => sendDueReminders(services));
}

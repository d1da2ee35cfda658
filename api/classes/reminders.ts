/**
 * Class reminders the day before (issue 15), as api/booking/reminders.ts does for sessions:
 * every server process checks each minute; the claim (places.repo.ts claimDueClassReminders)
 * commits before any mail goes out, so each reminder goes out once. A mail that fails after its
 * claim is logged, not retried: a missed reminder is better than a doubled one.
 */
import type { Services } from '../services/index.ts';
import { claimDueClassReminders } from './places.repo.ts';
import { classReminderMail } from './mails.ts';
import { deliver } from '../mail/send.ts';
import { brandNames } from '../pages/brand.ts';
import { runEvery } from '../lib/periodic.ts';

export async function sendDueClassReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, now = new Date()): Promise<number> {
  const due = await services.db.transaction().execute((trx) => claimDueClassReminders(trx, now));
  let sent = 0;
  // Her yoga brand, read once per batch.
  const brand = due.length ? (await brandNames(services.db)).yoga : '';
  for (const r of due) {
    const mail = classReminderMail(
      services.env,
      brand,
      { id: r.id, name: r.name, email: r.email },
      { title: r.title, date: r.date, time: r.time, startsAt: new Date(r.startsAt), location: r.location },
    );
    sent += await deliver(services.mailer, [mail]);
  }
  return sent;
}

/** Starts the check every REMINDER_INTERVAL_MS (a minute by default); returns a function that stops it. */
export function startClassReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>): () => void {
  return runEvery('class reminders', services.env.REMINDER_INTERVAL_MS, () => sendDueClassReminders(services));
}

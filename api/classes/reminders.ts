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
import { REMINDER_CHECK_MS } from '../booking/reminders.ts';

export async function sendDueClassReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, now = new Date()): Promise<number> {
  const due = await services.db.transaction().execute((trx) => claimDueClassReminders(trx, now));
  let sent = 0;
  for (const r of due) {
    const mail = classReminderMail(
      services.env,
      { id: r.id, name: r.name, email: r.email },
      { title: r.title, date: r.date, time: r.time, startsAt: new Date(r.startsAt), location: r.location },
    );
    sent += await deliver(services.mailer, [mail]);
  }
  return sent;
}

/** Starts the minute-by-minute check; returns a function that stops it. */
export function startClassReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>): () => void {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await sendDueClassReminders(services);
    } catch (err) {
      console.error('[class reminders] check failed:', (err as Error).message);
    } finally {
      running = false;
    }
  }, REMINDER_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}

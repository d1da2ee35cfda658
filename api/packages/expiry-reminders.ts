/**
 * A week before a client's session credits lapse, one reminder (issue 32). Every process runs it
 * on the periodic runner; the claim marks the lots in the database (ledger.repo.ts
 * claimExpiryReminders), so each lot is reminded once however many replicas run, and the mails
 * are written to the outbox in the claim's transaction (commitWithMails): a crash after the claim
 * never loses them. Lots already spent to nothing are never claimed.
 */
import type { Services } from '../services/index.ts';
import { addDays } from '../lib/time.ts';
import { commitWithMails } from '../mail/commit.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { claimExpiryReminders } from '../money/ledger.repo.ts';
import { expiryReminderMail, type LapsingLot } from './mails.ts';

/** How long before the last day the reminder goes. */
export const EXPIRY_REMINDER_DAYS = 7;

/** Sends the reminders due on `today` (her day); how many mails were queued. */
export async function sendExpiryReminders(services: Pick<Services, 'db' | 'env' | 'mailer'>, today: string): Promise<number> {
  const done = await commitWithMails(services, async (trx) => {
    const lots = await claimExpiryReminders(trx, today, addDays(today, EXPIRY_REMINDER_DAYS));
    if (lots.length === 0) return { result: 0, mails: [] };
    // One mail per client, however many of their lots lapse this week.
    const byClient = new Map<string, { email: string; firstName: string; lots: LapsingLot[] }>();
    for (const lot of lots) {
      if (!lot.userId || !lot.expiresOn) continue;
      const client = byClient.get(lot.userId) ?? { email: lot.email, firstName: lot.firstName, lots: [] };
      client.lots.push({ name: lot.name, remaining: lot.remaining, expiresOn: lot.expiresOn });
      byClient.set(lot.userId, client);
    }
    const brand = (await brandNames(trx)).yoga;
    const mails = [...byClient].map(([userId, c]) => expiryReminderMail(services.env, brand, { ...c, userId }));
    return { result: mails.length, mails: await queueMails(trx, 'credit-expiry-reminder', mails) };
  });
  return done.result;
}

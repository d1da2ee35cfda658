import { sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

export type ReminderKind = 'day' | 'soon';

/**
 * Claims the reminders due now, in one conditional UPDATE: a row is returned to exactly one
 * caller however many processes run this at once.
 * - 'day': sessions starting in the next 24 hours but more than 2 hours away, booked more than
 *   24 hours before they start (a booking made the day before has just had its confirmation);
 * - 'soon': sessions starting within the next 2 hours.
 * Takes a transaction, which the caller keeps to this one statement and commits before any mail
 * goes out: no row stays locked while a mail service answers.
 */
export async function claimDueReminders(trx: Transaction<Database>, kind: ReminderKind, now: Date) {
  const column = kind === 'day' ? 'reminderDaySentAt' : 'reminderSoonSentAt';
  let query = trx
    .updateTable('slots')
    .set({ [column]: now })
    .where('bookedAt', 'is not', null)
    .where(column, 'is', null)
    .where('email', 'is not', null)
    .where('startsAt', '>', now)
    // A slot whose payment is still in progress is not booked yet (issue 21): no reminder until it is.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('paymentAttempts')
            .select('paymentAttempts.id')
            .whereRef('paymentAttempts.slotId', '=', 'slots.id')
            .where('paymentAttempts.state', 'in', ['claimed', 'capturing']),
        ),
      ),
    );
  if (kind === 'day') {
    query = query
      .where('startsAt', '<=', sql<Date>`${now}::timestamptz + interval '24 hours'`)
      .where('startsAt', '>', sql<Date>`${now}::timestamptz + interval '2 hours'`)
      .where('bookedAt', '<', sql<Date>`starts_at - interval '24 hours'`);
  } else {
    query = query.where('startsAt', '<=', sql<Date>`${now}::timestamptz + interval '2 hours'`);
  }
  return query.returning(['id', 'email', 'firstName', 'sessionType', 'startsAt', 'duration', 'link', 'bookedBy', 'place', 'online']).execute();
}

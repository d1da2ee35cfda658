/**
 * The first-booking gate (issue 23): while she requires the intake, a client who has never
 * booked a session and has not answered it can't start paying for one (nor finalize one with
 * the coupon). A client who booked before the intake existed is not held back.
 */
import type { DB } from '../../db/client.ts';
import { intakeRequired } from './intake-forms.repo.ts';
import { hasIntakeAnswers } from './records.ts';

export async function intakeMissingForFirstBooking(db: DB, userId: string): Promise<boolean> {
  if (!(await intakeRequired(db))) return false;
  if (await hasIntakeAnswers(db, userId)) return false;
  const booked = await db.selectFrom('slots').select('id').where('bookedBy', '=', userId).limit(1).executeTakeFirst();
  if (booked) return false;
  const cancelled = await db.selectFrom('bookingCancellations').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
  return !cancelled;
}

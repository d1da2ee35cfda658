/**
 * The first-booking gate (issue 23): while she requires the intake for the session type (issue
 * 30: yoga therapy by default), a client who has never booked a session and has not answered it
 * can't start paying for one (nor finalize one with the coupon). A client who booked before the
 * intake existed is not held back.
 */
import type { DB } from '../../db/client.ts';
import { intakeRequiredFor } from './intake-forms.repo.ts';
import { hasIntakeAnswers } from './records.ts';
import { hasBookedBefore } from './practice.repo.ts';
import { sessionTypeKeyOf } from '../../contract/settings.ts';

export async function intakeMissingForFirstBooking(db: DB, userId: string, sessionType: string): Promise<boolean> {
  const requiredFor = await intakeRequiredFor(db);
  const key = sessionTypeKeyOf(sessionType);
  // A type she has not named (none today): required if any is.
  if (!(key ? requiredFor[key] : Object.values(requiredFor).some(Boolean))) return false;
  if (await hasIntakeAnswers(db, userId)) return false;
  return !(await hasBookedBefore(db, userId));
}

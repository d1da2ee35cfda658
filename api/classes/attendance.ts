/**
 * Her check-in and no-show mark on the roster (issue 34): one sign-up of one event marked
 * present or no-show, in one transaction that holds the sign-up's row, so two taps (or two
 * phones) mark one after the other and the second knows what the first did.
 */
import type { Services } from '../services/index.ts';
import type { Attendance } from '../../contract/roster.ts';
import { findRosterEvent, lockSignupOfEvent, setAttendance } from './roster.repo.ts';
import { forfeitCreditOfNoShow } from './refunds.ts';

export type AttendanceRefusal = 'event-not-found' | 'event-cancelled' | 'signup-not-found' | 'still-paying' | 'not-started';

export type AttendanceResult =
  { ok: true; signupId: string; attendance: Attendance; attendanceAt: Date; previous: Attendance | null } | { ok: false; kind: AttendanceRefusal };

/**
 * Marks sign-up `signupId` of event `eventId` as `status`. Marking what is marked already
 * changes nothing (the first mark's time stays): a second tap is harmless.
 */
export async function markAttendance(deps: Pick<Services, 'db' | 'clock'>, eventId: string, signupId: string, status: Attendance): Promise<AttendanceResult> {
  const event = await findRosterEvent(deps.db, eventId);
  if (!event) return { ok: false, kind: 'event-not-found' };
  if (event.cancelledAt) return { ok: false, kind: 'event-cancelled' };
  return deps.db.transaction().execute(async (trx): Promise<AttendanceResult> => {
    const signup = await lockSignupOfEvent(trx, eventId, signupId);
    if (!signup) return { ok: false, kind: 'signup-not-found' };
    // A place whose buyer is still paying is not an attendee yet: nothing to mark, nothing to forfeit.
    if (signup.payment === 'held') return { ok: false, kind: 'still-paying' };
    // A no-show only once the class has begun (issue 50): before, they may still come.
    if (status === 'noShow' && deps.clock.now().getTime() < new Date(event.startsAt).getTime()) return { ok: false, kind: 'not-started' };
    const previous = signup.attendance;
    if (previous === status) return { ok: true, signupId, attendance: status, attendanceAt: new Date(signup.attendanceAt!), previous };

    // Both marks are known here, under the sign-up's row lock: the place for what a change of
    // mark does to what the client holds (issue 34: "a no-show forfeits a credit under her
    // policy; a paid place is not refunded"). Going to 'noShow' from anything else forfeits,
    // coming back from 'noShow' (a wrong tap) gives it back; write it through the ledger in
    // this transaction, so the mark and the credit commit or roll back together.

    // A no-show's class credit is forfeited under her policy, once (issue 34); a paid place is simply not refunded.
    if (status === 'noShow') await forfeitCreditOfNoShow(trx, signupId);
    const saved = await setAttendance(trx, signupId, status, deps.clock.now());
    return { ok: true, signupId, attendance: status, attendanceAt: new Date(saved.attendanceAt!), previous };
  });
}

/**
 * The class sign-up use-case, shared by a new student's sign-up and a returning student's
 * check-in (api/classes/signups.routes.ts): the route validates and verifies the human, this
 * decides and writes the sign-up's mails to the outbox with it (decision 0024), sent after the
 * commit (commitAnswer); the route answers a refusal.
 */
import type { DB } from '../../db/client.ts';
import type { Services } from '../services/index.ts';
import { ALREADY_SIGNED_UP, CLASS_EXTERNAL, CLASS_FULL, CLASS_NOT_FOUND, CLASS_PAST } from '../../contract/signups.ts';
import { classSeats, insertSignup, lockClass, type ClassEvent } from './signups.repo.ts';
import { currentWaiver } from '../pages/pages.repo.ts';
import { signupMails } from './mails.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { EVENT_CANCELLED, EVENT_PAYMENT_REQUIRED, isPaidEvent } from '../../contract/event-prices.ts';

/**
 * Keeps or leaves out the student's own copy among a change's mails: decided by the route
 * before the transaction (the limiter counts on a connection of its own), applied inside it.
 */
export type { VisitorCopy } from '../middleware/rate-limit.ts';
import type { VisitorCopy } from '../middleware/rate-limit.ts';

export interface Student {
  classTitle: string;
  date: string;
  name: string;
  email: string;
  phone: string;
  signaturePng: Uint8Array | null;
  /**
   * The waiver revision the student accepted, and its text's hash: a returning student's from
   * their earlier sign-up; absent for a new student, who accepts the one published now.
   */
  waiver?: AcceptedWaiver;
}

export interface AcceptedWaiver {
  waiverRevision: number | null;
  waiverHash: string | null;
}

/** The waiver published now, as a sign-up records it (read in the sign-up's transaction). */
export async function waiverNow(db: DB): Promise<AcceptedWaiver> {
  const waiver = await currentWaiver(db);
  return { waiverRevision: waiver?.revision ?? null, waiverHash: waiver?.hash ?? null };
}

/** The student's own fields of a place or a waitlist entry: who, and the waiver signed (theirs, or the one published now). */
export async function studentFields(db: DB, student: Student) {
  return {
    name: student.name,
    email: student.email,
    phone: student.phone,
    waiverAccepted: true,
    signaturePng: student.signaturePng,
    ...(student.waiver ?? (await waiverNow(db))),
  };
}

export type Enrolment = { ok: true; id: string; event: ClassEvent; mails: QueuedMails } | { ok: false; status: 400 | 402 | 404 | 409; message: string };

/**
 * Signs `student` up for the class, all checks and the insert in one transaction that holds the
 * event's row lock: concurrent sign-ups for one class queue on it, so the count each one sees
 * includes the others and the class never goes over capacity. The unique constraint on
 * (class_title, date, email) settles twins from one person. The teacher's notice and the
 * student's confirmation (kept or left out by `visitorCopy`) are written in the same transaction.
 */
export async function enrol(
  deps: Pick<Services, 'db' | 'env' | 'mailer'>,
  student: Student,
  options: { alreadyStatus: 400 | 409; returning: boolean; visitorCopy: VisitorCopy },
): Promise<Enrolment> {
  const { env } = deps;
  const { alreadyStatus } = options;
  return commitAnswer(deps, async (trx): Promise<Enrolment> => {
    const event = await lockClass(trx, student.classTitle, student.date);
    if (!event) return { ok: false, status: 404, message: CLASS_NOT_FOUND };
    if (event.isExternal) return { ok: false, status: 400, message: CLASS_EXTERNAL };
    if (new Date(event.startsAt).getTime() <= Date.now()) return { ok: false, status: 400, message: CLASS_PAST };
    if (event.cancelledAt) return { ok: false, status: 400, message: EVENT_CANCELLED };
    // A paid place is signed up for with its payment (paid-places.ts): nothing is held here.
    if (isPaidEvent(event)) return { ok: false, status: 402, message: EVENT_PAYMENT_REQUIRED };
    const seats = await classSeats(trx, event, student.email);
    if (seats.mine) return { ok: false, status: alreadyStatus, message: ALREADY_SIGNED_UP };
    if (seats.taken >= event.capacity) return { ok: false, status: 409, message: CLASS_FULL };
    const row = await insertSignup(trx, { eventId: event.id, classTitle: student.classTitle, date: student.date, ...(await studentFields(trx, student)) });
    if (!row) return { ok: false, status: alreadyStatus, message: ALREADY_SIGNED_UP };
    const mailed = { id: row.id, name: student.name, email: student.email, phone: student.phone, returning: options.returning };
    const mails = await queueMails(trx, 'class-signup', options.visitorCopy(signupMails(env, (await brandNames(trx)).yoga, mailed, event)));
    return { ok: true, id: row.id, event, mails };
  });
}

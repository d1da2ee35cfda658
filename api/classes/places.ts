/**
 * Class places after sign-up (issue 15, decision 0017): giving a place back, the waitlist, and
 * the promotion that hands a freed place to the first in line. Every change happens while the
 * class's row is locked (the lock enrol() takes), so sign-ups, give-backs and promotions of one
 * class run one at a time: two places freed at once promote the first two in line, in order,
 * and the class never goes over capacity. Each change writes its mails to the outbox in its own
 * transaction (decision 0024) and sends them after the commit (commitAnswer, api/mail/commit.ts).
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Env } from '../env.ts';
import type { Services } from '../services/index.ts';
import { ALREADY_SIGNED_UP, CLASS_EXTERNAL, CLASS_NOT_FOUND, CLASS_PAST } from '../../contract/signups.ts';
import { WAITLIST_ALREADY } from '../../contract/class-places.ts';
import { classSeats, deleteSignup, insertSignup, lockClass, type ClassEvent } from './signups.repo.ts';
import { findSignupById, insertWaitlistEntry, lockEventById, placesTaken, takeFirstInLine, waitlistPosition } from './places.repo.ts';
import { studentFields, type Student, type VisitorCopy } from './enrol.ts';
import { classMail, offeredPlaceMail, placeGivenBackMail, promotedMails, signupMails, waitlistMail } from './mails.ts';
import { EVENT_CANCELLED, isPaidEvent, PLACE_FREE_PAY_INSTEAD, priceRange } from '../../contract/event-prices.ts';
import { refundOnGiveBack, type PlaceRefund } from './refunds.ts';
import { queueMails, type QueuedMails } from '../mail/outbox.repo.ts';
import { commitAnswer } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { zonedNow } from '../lib/time.ts';

type PlaceDeps = Pick<Services, 'db' | 'env' | 'mailer'>;

/**
 * A waitlisted student who now holds a place: the new sign-up's id and who it is. In a paid
 * event (issue 34) the place is held for them until `heldUntil`, to pay for it.
 */
export interface Promoted {
  id: string;
  name: string;
  email: string;
  heldUntil?: Date;
}

/** How long a paid place offered to the first in line is held for them to pay: a day, and never past the start. */
export const OFFER_HOURS = 24;

/** Whether a class has started at `now`: from then on, no place is given back online or handed on. */
export const hasStarted = (event: Pick<ClassEvent, 'startsAt'>, now: Date) => new Date(event.startsAt).getTime() <= now.getTime();

/**
 * Fills the class's free places from its waitlist, first in line first. The caller holds the
 * class's row lock. A class that has started promotes nobody: a place freed then is no use.
 */
export async function promoteFromWaitlist(trx: Transaction<Database>, event: ClassEvent, now: Date): Promise<Promoted[]> {
  const promoted: Promoted[] = [];
  if (hasStarted(event, now) || event.cancelledAt) return promoted;
  // A paid event offers the place: held for them with a time to pay, not given.
  const range = priceRange(event);
  const heldUntil = range ? new Date(Math.min(now.getTime() + OFFER_HOURS * 3_600_000, new Date(event.startsAt).getTime())) : undefined;
  while ((await placesTaken(trx, event)) < event.capacity) {
    const next = await takeFirstInLine(trx, event.id);
    if (!next) break;
    const row = await insertSignup(trx, {
      ...(range ? { payment: 'held' as const, heldUntil, holdAmountCents: range.suggested } : {}),
      eventId: event.id,
      classTitle: event.title,
      date: event.date,
      name: next.name,
      email: next.email,
      phone: next.phone,
      waiverAccepted: next.waiverAccepted,
      signaturePng: next.signaturePng,
      // The waiver they accepted when they joined the line, not whatever is published now.
      waiverRevision: next.waiverRevision,
      waiverHash: next.waiverHash,
    });
    // Signed up for it meanwhile (a sign-up slipped in before joining the line): the entry just goes.
    if (row) promoted.push({ id: row.id, name: next.name, email: next.email, ...(heldUntil ? { heldUntil } : {}) });
  }
  return promoted;
}

/** The "you're in" mails (or a paid place's offer) of those a freed place went to, written in the transaction that promoted them. */
export async function queuePromotedMails(trx: Transaction<Database>, env: Env, event: ClassEvent | undefined, promoted: Promoted[]): Promise<QueuedMails> {
  if (!event || promoted.length === 0) return [];
  const brand = (await brandNames(trx)).yoga;
  return queueMails(
    trx,
    'waitlist-promotion',
    promoted.flatMap((p) =>
      p.heldUntil ? [offeredPlaceMail(env, brand, { ...p, heldUntil: p.heldUntil }, classMail(event))] : promotedMails(env, brand, p, classMail(event)),
    ),
  );
}

/** The sign-up's class, locked: by its event id, or by title and date as enrol() finds it. */
async function lockClassOf(trx: Transaction<Database>, signup: { eventId: string | null; classTitle: string; date: string }) {
  return (signup.eventId ? await lockEventById(trx, signup.eventId) : undefined) ?? (await lockClass(trx, signup.classTitle, signup.date));
}

export type GiveBack =
  | { ok: true; already: true }
  | {
      ok: true;
      already: false;
      signup: { id: string; name: string; email: string };
      event: ClassEvent | undefined;
      promoted: Promoted[];
      /** The teacher's notice (not when she removed it herself) and the promoted's mails, queued. */
      mails: QueuedMails;
      /** A paid place (issue 34): what comes back under her policy; null for a free place. */
      refund: PlaceRefund | null;
    }
  | { ok: false; kind: 'started' | 'not-yours' };

/**
 * Gives the place `signupId` back (the student's link or dashboard: `onlyEmail` is the
 * dashboard's account e-mail, which must match) or removes it (the admin: `byAdmin`, allowed
 * after the start too). Idempotent: a place already gone answers `already` (by the dashboard,
 * `not-yours`, whose message says it may have been given back already). A freed place goes
 * to the first on the waitlist in the same transaction, and the mails are written with it.
 */
export async function giveBackPlace(deps: PlaceDeps, signupId: string, options: { onlyEmail?: string; byAdmin?: boolean; now?: Date } = {}): Promise<GiveBack> {
  const { db, env } = deps;
  const now = options.now ?? new Date();
  const signup = await findSignupById(db, signupId);
  // By the dashboard a missing place can't be told apart from someone else's id: not-yours (404).
  if (!signup) return options.onlyEmail !== undefined ? { ok: false, kind: 'not-yours' } : { ok: true, already: true };
  if (options.onlyEmail !== undefined && signup.email !== options.onlyEmail) return { ok: false, kind: 'not-yours' };
  return commitAnswer(deps, async (trx): Promise<GiveBack> => {
    const event = await lockClassOf(trx, signup);
    if (event && !options.byAdmin && hasStarted(event, now)) return { ok: false, kind: 'started' };
    // Its money's refund decided under the class's lock, before the place goes (issue 34).
    const refund = await refundOnGiveBack(trx, signup.id, event, { byAdmin: options.byAdmin === true, now, today: zonedNow(env.SITE_TIMEZONE, now).date });
    // Under the class's lock: of two give-backs of one place, the second deletes nothing.
    if (!(await deleteSignup(trx, signup.id))) return { ok: true, already: true };
    const promoted = event ? await promoteFromWaitlist(trx, event, now) : [];
    const given = { id: signup.id, name: signup.name, email: signup.email };
    // The teacher is told of a place given back, not of one she removed herself.
    const notice =
      event && !options.byAdmin
        ? await queueMails(trx, 'place-given-back', [placeGivenBackMail(env, (await brandNames(trx)).yoga, given, classMail(event))])
        : [];
    const mails = [...notice, ...(await queuePromotedMails(trx, env, event, promoted))];
    return { ok: true, already: false, signup: given, event, promoted, mails, refund };
  });
}

export type WaitlistJoin =
  | { ok: true; status: 'waiting'; id: string; position: number; event: ClassEvent; mails: QueuedMails }
  | { ok: true; status: 'signedUp'; id: string; event: ClassEvent; promoted: Promoted[]; mails: QueuedMails }
  | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * Puts `student` at the end of the class's waitlist, with the same checks as a sign-up. If a
 * place is free after all (a give-back since the page loaded, or more places), those already in
 * line get theirs first, and then `student` is signed up at once if one is still free. The mails
 * (the student's, kept or left out by `visitorCopy`, and the promoted's) are written with it.
 */
export async function joinWaitlist(deps: PlaceDeps, student: Student, visitorCopy: VisitorCopy, now = new Date()): Promise<WaitlistJoin> {
  const { env } = deps;
  return commitAnswer(deps, async (trx): Promise<WaitlistJoin> => {
    const event = await lockClass(trx, student.classTitle, student.date);
    if (!event) return { ok: false, status: 404, message: CLASS_NOT_FOUND };
    if (event.isExternal) return { ok: false, status: 400, message: CLASS_EXTERNAL };
    if (hasStarted(event, now)) return { ok: false, status: 400, message: CLASS_PAST };
    if (event.cancelledAt) return { ok: false, status: 400, message: EVENT_CANCELLED };
    if ((await classSeats(trx, event, student.email)).mine) return { ok: false, status: 409, message: ALREADY_SIGNED_UP };
    // A paid place that is free is bought on the sign-up page, never given by joining the line
    // (a place freed in a paid event is offered to those in line by the give-back or the hold runner).
    const paid = isPaidEvent(event);
    if (paid && (await placesTaken(trx, event)) < event.capacity) return { ok: false, status: 409, message: PLACE_FREE_PAY_INSTEAD };
    const promoted = paid ? [] : await promoteFromWaitlist(trx, event, now);
    const fields = await studentFields(trx, student);
    // Signed up (now or by the promotion just made): the sign-up's mails, then the others promoted.
    const signedUp = async (id: string, others: Promoted[]): Promise<WaitlistJoin> => {
      const brand = (await brandNames(trx)).yoga;
      const own = await queueMails(
        trx,
        'class-signup',
        visitorCopy(signupMails(env, brand, { id, name: student.name, email: student.email, phone: student.phone, returning: false }, classMail(event))),
      );
      return { ok: true, status: 'signedUp', id, event, promoted: others, mails: [...own, ...(await queuePromotedMails(trx, env, event, others))] };
    };
    // Was in line already and just promoted: that promotion is the answer.
    const mine = promoted.find((p) => p.email === student.email);
    const alsoPromoted = promoted.filter((p) => p !== mine);
    if (mine) return signedUp(mine.id, alsoPromoted);
    if ((await placesTaken(trx, event)) < event.capacity) {
      const row = await insertSignup(trx, { ...fields, eventId: event.id, classTitle: event.title, date: event.date });
      if (!row) return { ok: false, status: 409, message: ALREADY_SIGNED_UP };
      return signedUp(row.id, promoted);
    }
    const entry = await insertWaitlistEntry(trx, { ...fields, eventId: event.id });
    if (!entry) return { ok: false, status: 409, message: WAITLIST_ALREADY };
    const waiting = { id: entry.id, name: student.name, email: student.email, position: await waitlistPosition(trx, event.id, entry.seq) };
    const mails = await queueMails(trx, 'waitlist-joined', visitorCopy([waitlistMail(env, (await brandNames(trx)).yoga, waiting, classMail(event))]));
    return { ok: true, status: 'waiting', id: entry.id, position: waiting.position, event, mails };
  });
}

/**
 * After the admin raises a class's capacity: the new places go to those in line, first first,
 * under the class's lock like every other change of its places, their mails written with them.
 */
export async function fillFreePlaces(
  deps: PlaceDeps,
  eventId: string,
  now = new Date(),
): Promise<{ event: ClassEvent | undefined; promoted: Promoted[]; mails: QueuedMails }> {
  return commitAnswer(deps, async (trx) => {
    const event = await lockEventById(trx, eventId);
    const promoted = event ? await promoteFromWaitlist(trx, event, now) : [];
    return { event, promoted, mails: await queuePromotedMails(trx, deps.env, event, promoted) };
  });
}

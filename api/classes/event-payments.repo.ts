/**
 * Paid class places (issue 34, decision 0043): the places held while their buyers pay, the
 * money each place was paid with (event_payments, kept when the place is given back), and the
 * refunds owed. Functions that lock or claim rows take a transaction.
 */
import { sql, type Insertable, type Transaction } from 'kysely';
import type { DB } from '../../db/client.ts';
import type { Database, EventPaymentsTable } from '../../db/schema.ts';
import { classColumns } from './signups.repo.ts';

type Trx = Transaction<Database>;

/** The sign-up row of `email` in the class, whatever its state (free, held, paid), locked. */
export async function lockSignupOf(trx: Trx, eventId: string, classTitle: string, date: string, email: string) {
  return trx
    .selectFrom('classSignups')
    .select(['id', 'payment', 'heldUntil', 'holdOrderId', 'holdAmountCents'])
    .where('email', '=', email)
    .where((eb) => eb.or([eb('eventId', '=', eventId), eb.and([eb('classTitle', '=', classTitle), eb('date', '=', date)])]))
    .forUpdate()
    .executeTakeFirst();
}

/** A new held place: counted until `heldUntil`, no waiver yet (signed when it is paid for); `holdClient` the address that asked. */
export async function insertHeldPlace(
  trx: Trx,
  row: {
    eventId: string;
    classTitle: string;
    date: string;
    name: string;
    email: string;
    phone: string;
    heldUntil: Date;
    amountCents: number;
    holdClient: string;
  },
) {
  return trx
    .insertInto('classSignups')
    .values({
      eventId: row.eventId,
      classTitle: row.classTitle,
      date: row.date,
      name: row.name,
      email: row.email,
      phone: row.phone,
      waiverAccepted: false,
      signaturePng: null,
      payment: 'held',
      heldUntil: row.heldUntil,
      holdAmountCents: row.amountCents,
      holdClient: row.holdClient,
    })
    .onConflict((oc) => oc.columns(['classTitle', 'date', 'email']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/** A held place whose hold lapsed, held anew (a new hold, from `holdClient`, until `heldUntil`). */
export async function holdAgain(trx: Trx, id: string, input: { name: string; phone: string; amountCents: number; heldUntil: Date; holdClient: string }) {
  await trx
    .updateTable('classSignups')
    .set({
      name: input.name,
      phone: input.phone,
      holdAmountCents: input.amountCents,
      holdOrderId: null,
      heldUntil: input.heldUntil,
      holdClient: input.holdClient,
    })
    .where('id', '=', id)
    .where('payment', '=', 'held')
    .execute();
}

/**
 * A live hold's buyer chose another amount (issue 47): a new order will be made for it, and the
 * hold keeps its expiry; asking again never extends a hold.
 */
export async function chooseHoldAmount(trx: Trx, id: string, amountCents: number) {
  await trx.updateTable('classSignups').set({ holdAmountCents: amountCents, holdOrderId: null }).where('id', '=', id).where('payment', '=', 'held').execute();
}

/** The class's live holds (held, not lapsed), under the class's lock: whose e-mails, from which addresses, until when. */
export async function liveHoldsOf(trx: Trx, eventId: string) {
  return trx
    .selectFrom('classSignups')
    .select(['id', 'email', 'heldUntil', 'holdClient'])
    .where('eventId', '=', eventId)
    .where('payment', '=', 'held')
    .where('heldUntil', '>', sql<Date>`now()`)
    .execute();
}

/** Names the PayPal order made for a held place, if it is still held for that amount (after the hold's commit, once PayPal answered). */
export async function setHoldOrder(db: DB, signupId: string, paypalOrderId: string, amountCents: number): Promise<boolean> {
  const r = await db
    .updateTable('classSignups')
    .set({ holdOrderId: paypalOrderId })
    .where('id', '=', signupId)
    .where('payment', '=', 'held')
    .where('holdAmountCents', '=', amountCents)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** A class by its id, not locked. */
export async function classById(db: DB | Trx, eventId: string) {
  return db.selectFrom('events').select(classColumns).where('id', '=', eventId).executeTakeFirst();
}

/** The class of the place a PayPal order was made for (not locked: the class's lock comes first). */
export async function holdOfOrder(trx: Trx, paypalOrderId: string) {
  return trx.selectFrom('classSignups').select(['id', 'eventId', 'email']).where('holdOrderId', '=', paypalOrderId).executeTakeFirst();
}

/** The held place a PayPal order was made for, locked. */
export async function lockHoldOfOrder(trx: Trx, paypalOrderId: string) {
  return trx
    .selectFrom('classSignups')
    .select(['id', 'eventId', 'email', 'payment', 'holdAmountCents'])
    .where('holdOrderId', '=', paypalOrderId)
    .forUpdate()
    .executeTakeFirst();
}

/** The held place, its waiver and signature now given, kept while PayPal captures (`heldUntil` later). */
export async function signHeldPlace(
  trx: Trx,
  id: string,
  input: { name: string; phone: string; signaturePng: Uint8Array | null; waiverRevision: number | null; waiverHash: string | null; heldUntil: Date },
) {
  await trx
    .updateTable('classSignups')
    .set({ ...input, waiverAccepted: true, heldUntil: sql<Date>`greatest(held_until, ${input.heldUntil})` })
    .where('id', '=', id)
    .execute();
}

/** The money for a place, recorded. */
export async function insertEventPayment(trx: Trx, row: Insertable<EventPaymentsTable>): Promise<string> {
  const r = await trx.insertInto('eventPayments').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** The held place is paid: a place like any other from now on. False when it is no longer held. */
export async function markPlacePaid(trx: Trx, signupId: string, paymentId: string): Promise<boolean> {
  const paid = await trx
    .updateTable('classSignups')
    .set({ payment: 'paid', paymentId, heldUntil: null, holdClient: null })
    .where('id', '=', signupId)
    .where('payment', '=', 'held')
    .returning('id')
    .executeTakeFirst();
  return paid !== undefined;
}

/** Gives a held place up (its payment failed): false when it was paid or gone meanwhile. */
export async function deleteHeldPlace(trx: Trx, signupId: string): Promise<boolean> {
  const r = await trx.deleteFrom('classSignups').where('id', '=', signupId).where('payment', '=', 'held').executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The payment made for a PayPal order (a replay's answer). */
export async function paymentOfOrder(db: DB, paypalOrderId: string) {
  return db.selectFrom('eventPayments').select(['id']).where('paypalOrderId', '=', paypalOrderId).executeTakeFirst();
}

/**
 * Held places whose hold lapsed and whose PayPal order has no open payment attempt (one being
 * captured keeps its place until it settles), with their events: what the hold runner frees.
 */
export async function lapsedHolds(db: DB, limit = 100) {
  return db
    .selectFrom('classSignups as s')
    .select(['s.id', 's.eventId'])
    .where('s.payment', '=', 'held')
    .where('s.heldUntil', '<=', sql<Date>`now()`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('paymentAttempts as a')
            .select('a.id')
            .whereRef('a.paypalOrderId', '=', 's.holdOrderId')
            .where('a.state', 'in', ['claimed', 'capturing']),
        ),
      ),
    )
    .orderBy('s.heldUntil')
    .limit(limit)
    .execute();
}

/** The same, rechecked under the class's lock: deleted only if still held and lapsed. */
export async function deleteLapsedHold(trx: Trx, signupId: string): Promise<boolean> {
  const r = await trx
    .deleteFrom('classSignups')
    .where('id', '=', signupId)
    .where('payment', '=', 'held')
    .where('heldUntil', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The money a place was paid with, locked (a give-back decides its refund under the lock). */
export async function lockPaymentOfSignup(trx: Trx, signupId: string) {
  return trx
    .selectFrom('classSignups as s')
    .innerJoin('eventPayments as p', 'p.id', 's.paymentId')
    .select(['p.id', 'p.method', 'p.amountCents', 'p.lotId', 'p.userId', 'p.refund', 's.attendance'])
    .where('s.id', '=', signupId)
    .forUpdate()
    .executeTakeFirst();
}

/** A refund is owed for this payment (once: a payment already owed or refunded is left). */
export async function owePaymentRefund(trx: Trx, paymentId: string, reason: 'cancelled-in-time' | 'event-cancelled' | 'removed'): Promise<boolean> {
  const r = await trx
    .updateTable('eventPayments')
    .set({ refund: 'due', refundReason: reason })
    .where('id', '=', paymentId)
    .where('refund', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The refund is made (PayPal answered, or the credit went back in the same transaction). */
export async function markPaymentRefunded(db: DB | Trx, paymentId: string, refundedOn: string): Promise<void> {
  await db.updateTable('eventPayments').set({ refund: 'done', refundedOn }).where('id', '=', paymentId).where('refund', '=', 'due').execute();
}

/** Refunds owed through PayPal, oldest first: what the refund runner makes. */
export async function dueRefunds(db: DB, limit = 50) {
  return db
    .selectFrom('eventPayments')
    .select(['id', 'paypalCaptureId', 'paypalOrderId', 'amountCents', 'name', 'email'])
    .where('refund', '=', 'due')
    .where('method', '=', 'paypal')
    .orderBy('createdAt')
    .limit(limit)
    .execute();
}

/** She calls the event off: false when it was called off already. */
export async function markEventCancelled(trx: Trx, eventId: string): Promise<boolean> {
  const r = await trx
    .updateTable('events')
    .set({ cancelledAt: sql<Date>`now()` })
    .where('id', '=', eventId)
    .where('cancelledAt', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Everyone with a place in the event (free or paid; held places are dropped by the caller), for the cancel mails. */
export async function placesOfEvent(trx: Trx, event: { id: string; title: string; date: string }) {
  return trx
    .selectFrom('classSignups')
    .select(['id', 'name', 'email', 'payment', 'paymentId'])
    .where((eb) => eb.or([eb('eventId', '=', event.id), eb.and([eb('classTitle', '=', event.title), eb('date', '=', event.date)])]))
    .orderBy('createdAt')
    .execute();
}

/** Drops the event's held places and its waitlist: nobody will pay for or wait on a cancelled event. */
export async function dropHoldsAndLine(trx: Trx, eventId: string): Promise<void> {
  await trx.deleteFrom('classSignups').where('eventId', '=', eventId).where('payment', '=', 'held').execute();
  await trx.deleteFrom('classWaitlist').where('eventId', '=', eventId).execute();
}

/** Among `ids`, the upcoming events not cancelled that have paid places (bulk delete refuses them). */
export async function upcomingWithPaidPlaces(db: DB, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('events as e')
    .select('e.id')
    .where('e.id', 'in', ids)
    .where('e.cancelledAt', 'is', null)
    .where('e.startsAt', '>', sql<Date>`now()`)
    .where((eb) => eb.exists(eb.selectFrom('classSignups as s').select('s.id').whereRef('s.eventId', '=', 'e.id').where('s.payment', '=', 'paid')))
    .execute();
}

/** The money a place was paid with (not locked): what the give-back page says comes back. */
export async function paymentOfSignup(db: DB, signupId: string) {
  return db
    .selectFrom('classSignups as s')
    .innerJoin('eventPayments as p', 'p.id', 's.paymentId')
    .select(['p.amountCents', 'p.method', 'p.refund'])
    .where('s.id', '=', signupId)
    .executeTakeFirst();
}

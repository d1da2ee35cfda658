/**
 * Approved but never finalized (issue 20): a client approves the payment in PayPal's window and
 * closes the tab before "Finalize Booking". PayPal holds an approved order nobody captures; the
 * slot is still free; nobody would know. Every server process looks each RECONCILE_INTERVAL_MS
 * (the reconciler's schedule) at the booking orders it made (booking_orders) that are at least
 * UNFINALIZED_BOOKING_MINUTES old and unresolved, and asks PayPal how each stands:
 *
 *   approved, no booking attempt      → finalized by the server when it can be (the slot still
 *   (or one the reconciler released)    free and to come, the amount in her range, the account
 *                                       there): captured and booked through finalizeBooking, the
 *                                       usual confirmation mails saying it was finished for them;
 *                                     → otherwise released: not captured (PayPal lets the approval
 *                                       lapse), the client and the teacher mailed why
 *   the client finalized              → resolved (its mails went out then), also when they booked
 *   (or booked the slot another way)    the slot with another payment or the coupon
 *   a finalize under way              → left to it (and to the reconciler)
 *   not approved yet                  → looked at again next time; after UNAPPROVED_LAPSE_MS, lapsed
 *   voided, unknown at PayPal         → lapsed
 *   PayPal unreachable                → looked at again next time
 *
 * Nothing silent: every approval ends in a booking or in two mails. One replica looks at each
 * order at a time (takeBookingOrder), and finalizeBooking's payment attempt makes a client who
 * finalizes at the same moment and the server book once, mailed once.
 */
import type { Services } from '../services/index.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { PayPalError } from '../services/payments/paypal.ts';
import { findUserById } from '../accounts/users.repo.ts';
import { findAttempt } from '../money/attempts.repo.ts';
import { PROCESS_ID } from '../lib/process.ts';
import { brandNames } from '../site/brand.ts';
import { finalizeBooking, type BookingResult } from './finalize-booking.ts';
import { acceptedAmounts } from './start-booking-payment.ts';
import { findSlotForBooking } from './booking.repo.ts';
import { releasedBookingMails, type ReleaseReason } from './mails.ts';
import { letGoBookingOrder, openBookingOrderIds, resolveBookingOrder, takeBookingOrder, type BookingOrder } from './booking-orders.repo.ts';

type Deps = Pick<Services, 'db' | 'env' | 'payments' | 'mailer' | 'realtime' | 'clock'>;

/** PayPal lets an order nobody approved lapse after about three hours: then it is looked at no more. */
export const UNAPPROVED_LAPSE_MS = 3 * 60 * 60_000;

export interface UnfinalizedReport {
  finalized: number;
  released: number;
  /** Resolved without a mail: finalized by the client, never approved, voided. */
  closed: number;
  /** Looked at and left for next time. */
  leftOpen: number;
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The refusals of finalizeBooking that mean the booking can't be made: the approval is released. */
const RELEASE_ON: Partial<Record<Exclude<BookingResult, { ok: true }>['kind'], ReleaseReason>> = {
  'slot-taken': 'slot-taken',
  'claim-lost': 'slot-taken',
  'slot-past': 'slot-past',
  'slot-not-found': 'slot-gone',
  'amount-out-of-range': 'amount-out-of-range',
  'unknown-account': 'account-gone',
  'capture-failed': 'capture-failed',
};

/** Releases the approval: records it (once) with the mails to the client and the teacher, then sends them. */
async function release(deps: Deps, order: BookingOrder, reason: ReleaseReason, startsAt: Date | null): Promise<boolean> {
  const { db, env } = deps;
  const account = order.userId ? await findUserById(db, order.userId) : undefined;
  const { result: released } = await commitWithMails(deps, async (trx) => {
    if (!(await resolveBookingOrder(trx, order.paypalOrderId, 'released', `approved, never finalized: ${reason}; left uncaptured`)))
      return { result: false, mails: [] };
    const brand = (await brandNames(trx)).yoga;
    const mails = await queueMails(
      trx,
      'booking-released',
      releasedBookingMails(
        env,
        brand,
        {
          firstName: account?.firstName ?? '',
          lastName: account?.lastName ?? '',
          email: account?.email ?? '',
          userId: account ? order.userId : null,
          sessionType: order.sessionType,
          startsAt,
          amountCents: order.amountCents,
          paypalOrderId: order.paypalOrderId,
        },
        reason,
      ),
    );
    return { result: true, mails };
  });
  if (!released) return false;
  console.warn(`[booking] PayPal order ${order.paypalOrderId} approved and never finalized: released (${reason})`);
  return true;
}

type Outcome = 'finalized' | 'released' | 'closed' | 'left-open';

/** What can be known before PayPal is asked to capture: why the booking can't be made, if it can't. */
async function releaseReasonBefore(deps: Deps, order: BookingOrder): Promise<{ reason?: ReleaseReason; startsAt: Date | null }> {
  const slot = await findSlotForBooking(deps.db, order.slotId);
  const startsAt = slot ? new Date(slot.startsAt) : null;
  if (!order.userId || !(await findUserById(deps.db, order.userId))) return { reason: 'account-gone', startsAt };
  if (!slot) return { reason: 'slot-gone', startsAt };
  if (slot.bookedAt !== null) return { reason: 'slot-taken', startsAt };
  if (startsAt!.getTime() <= Date.now()) return { reason: 'slot-past', startsAt };
  const { range } = await acceptedAmounts(deps.db, order.sessionType);
  if (order.amountCents < range.min * 100 || order.amountCents > range.max * 100) return { reason: 'amount-out-of-range', startsAt };
  return { startsAt };
}

/** The look at one order this process holds. */
async function resolveOne(deps: Deps, order: BookingOrder): Promise<Outcome> {
  const { db, payments } = deps;
  const id = order.paypalOrderId;
  const attempt = await findAttempt(db, id);
  if (attempt && (attempt.state === 'claimed' || attempt.state === 'capturing')) return 'left-open';
  if (attempt?.state === 'completed') {
    await resolveBookingOrder(
      db,
      id,
      attempt.settledBy === 'checkout' ? 'finalized-by-client' : 'finalized-by-server',
      `booked (${attempt.settledBy ?? 'checkout'})`,
    );
    return 'closed';
  }
  // The client's own finalize was refused (a declined capture): they read it on the page.
  if (attempt?.state === 'released' && attempt.settledBy === 'checkout') {
    await resolveBookingOrder(db, id, 'released', `the client's finalize was refused: ${attempt.outcome ?? ''}`.trim());
    return 'closed';
  }

  let status: string;
  try {
    status = (await payments.getOrder(id)).status;
  } catch (err) {
    if (err instanceof PayPalError && err.status === 404) {
      await resolveBookingOrder(db, id, 'lapsed', 'PayPal knows no such order');
      return 'closed';
    }
    console.error(`[booking] could not ask PayPal about order ${id} (${why(err)}); trying again later`);
    return 'left-open';
  }

  if (status === 'VOIDED') {
    await resolveBookingOrder(db, id, 'lapsed', 'voided at PayPal');
    return 'closed';
  }
  if (status === 'COMPLETED') {
    // Captured, yet no attempt of ours recorded it: only PayPal's dashboard can tell who did.
    console.error(`[booking] PayPal order ${id} is captured with no booking attempt: check it in PayPal`);
    await resolveBookingOrder(db, id, 'lapsed', 'captured at PayPal without a booking attempt: check PayPal');
    return 'closed';
  }
  if (status !== 'APPROVED') {
    if (Date.now() - new Date(order.createdAt).getTime() >= UNAPPROVED_LAPSE_MS) {
      await resolveBookingOrder(db, id, 'lapsed', `never approved (${status})`);
      return 'closed';
    }
    return 'left-open';
  }

  // Approved and never finalized: book it if it can be, else release it.
  const slot = await findSlotForBooking(db, order.slotId);
  if (slot?.bookedAt && slot.bookedBy === order.userId) {
    // The client booked this slot with another payment (or the coupon): theirs already, this approval just lapses.
    await resolveBookingOrder(db, id, 'lapsed', 'approved, never used: the client booked the slot another way');
    return 'closed';
  }
  const before = await releaseReasonBefore(deps, order);
  if (before.reason) return (await release(deps, order, before.reason, before.startsAt)) ? 'released' : 'closed';
  const account = (await findUserById(db, order.userId!))!;
  const result = await finalizeBooking(deps, {
    slotId: order.slotId,
    userId: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    sessionType: order.sessionType,
    message: '',
    payment: { kind: 'paypal', orderId: id },
    finalizedByServer: true,
  });
  if (result.ok) {
    await resolveBookingOrder(db, id, 'finalized-by-server', 'approved, never finalized: captured and booked by the server');
    return 'finalized';
  }
  const reason = RELEASE_ON[result.kind];
  if (reason) return (await release(deps, order, reason, before.startsAt)) ? 'released' : 'closed';
  if (result.kind === 'payment-unavailable') return 'left-open';
  console.error(`[booking] PayPal order ${id}: could not finalize (${result.kind})`);
  await resolveBookingOrder(db, id, 'lapsed', `could not be finalized: ${result.kind}`);
  return 'closed';
}

/**
 * One pass over the open booking orders at least `ageMs` old (UNFINALIZED_BOOKING_MINUTES) that
 * this process manages to take. Returns what it did.
 */
export async function resolveUnfinalizedBookings(deps: Deps, options: { ageMs?: number; holder?: string } = {}): Promise<UnfinalizedReport> {
  const { db, env } = deps;
  const ageMs = options.ageMs ?? env.UNFINALIZED_BOOKING_MINUTES * 60_000;
  const holder = options.holder ?? PROCESS_ID;
  // A look that died with its process is taken over after the payment attempts' stale window.
  const claimStaleMs = env.PAYMENT_ATTEMPT_STALE_MS;
  const report: UnfinalizedReport = { finalized: 0, released: 0, closed: 0, leftOpen: 0 };
  for (const id of await openBookingOrderIds(db, ageMs, claimStaleMs)) {
    const order = await takeBookingOrder(db, id, holder, claimStaleMs);
    if (!order) continue; // another replica is looking at it
    let outcome: Outcome = 'left-open';
    try {
      outcome = await resolveOne(deps, order);
    } finally {
      if (outcome === 'left-open') await letGoBookingOrder(db, id, holder);
    }
    if (outcome === 'finalized') report.finalized += 1;
    else if (outcome === 'released') report.released += 1;
    else if (outcome === 'closed') report.closed += 1;
    else report.leftOpen += 1;
  }
  return report;
}

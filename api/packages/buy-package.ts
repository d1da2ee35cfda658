/**
 * A client buys a package through PayPal (issue 32, decision 0038): the third purchase kind of
 * the one payment lifecycle (api/money/settle.ts), beside the shop's order and the booking.
 *
 *   startPackagePayment: the PayPal order, made by the server for this package and this client,
 *     for an amount on the package's scale;
 *   buyPackage: checks the approved order, opens the payment attempt (committed before any
 *     capture), captures with no transaction open, and in the completing transaction grants the
 *     lot (ledger.ts grantPackage, method 'paypal') and queues the mails (the outbox).
 *
 * A crash between the capture and the commit leaves the attempt open: the client's retry, the
 * reconciler or PayPal's webhook completes it through the adapter registered below. The attempt
 * completes once (a conditional UPDATE) and the lot names its PayPal order (unique), so the
 * credits are granted once whoever gets there. Nothing is claimed before the capture (a package
 * has no stock), so a release gives nothing back.
 */
import type { Services } from '../services/index.ts';
import type { DB } from '../../db/client.ts';
import type { PackageAttemptDetails } from '../../db/schema.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { brandNames } from '../site/brand.ts';
import { findAttempt, openAttempt, type PaymentAttempt } from '../money/attempts.repo.ts';
import { attemptFor, createPayPalOrder, readApprovedOrder } from '../money/capture.ts';
import { acceptsApprovedUsd, answerSettled, captureAndSettle, replayPurchase } from '../money/settle.ts';
import type { PaidAnswers, PaymentDeps, Purchase, PurchaseRefusal } from '../money/settle.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { findPackage } from './packages.repo.ts';
import { clientContact, lotOfPaypalOrder } from '../money/ledger.repo.ts';
import { cardPartOfAttempt, giveBackCardPart, grantPackage, spendCard } from '../money/ledger.ts';
import { packageBoughtMails } from './mails.ts';

/** The PayPal order a package is paid with: made by us for this package and this client. */
export const packageOrderReference = (packageId: string, userId: string) => `package:${packageId}:${userId}`;

export type Offered = NonNullable<Awaited<ReturnType<typeof findPackage>>>;

/** An amount off the package's scale: the package, for the refusal's words. */
export interface PackageAmountRefusal {
  ok: false;
  kind: 'amount-out-of-range';
  package: Offered;
}

export const onScale = (p: Offered, cents: number) => cents >= p.minPriceCents && cents <= p.maxPriceCents;

/** The package offered now (active), or undefined. */
export async function offered(db: DB, packageId: string): Promise<Offered | undefined> {
  const p = await findPackage(db, packageId);
  return p?.active ? p : undefined;
}

export type PackagePaymentResult =
  { ok: true; orderId: string } | { ok: false; kind: 'package-not-found' | 'unknown-account' | 'payment-unavailable' } | PackageAmountRefusal;

/** Creates the PayPal order for an active package, tied to it and to this client, for an amount on its scale. */
export async function startPackagePayment(
  deps: Pick<Services, 'db' | 'payments'>,
  /** `cardCents`: what a gift card pays of the amount (issue 33; the gift cards' folder read it); the order is for the rest. */
  input: { userId: string; packageId: string; amountCents: number; cardCents?: number },
): Promise<PackagePaymentResult> {
  const pkg = await offered(deps.db, input.packageId);
  if (!pkg) return { ok: false, kind: 'package-not-found' };
  if (!onScale(pkg, input.amountCents)) return { ok: false, kind: 'amount-out-of-range', package: pkg };
  if (!(await clientContact(deps.db, input.userId))) return { ok: false, kind: 'unknown-account' };
  const charge = input.amountCents - (input.cardCents ?? 0);
  const order = { amountCents: charge, referenceId: packageOrderReference(pkg.id, input.userId), description: pkg.name };
  return createPayPalOrder(deps.payments, order, 'a package order');
}

/** Why buyPackage granted nothing (PurchaseRefusal: the payment's reasons). */
export type BuyRefusal = 'package-not-found' | 'unknown-account' | PurchaseRefusal | 'gift-card-changed';

/** A gift card paying part of a package (issue 33), read by the gift cards' folder: its lot, what it holds now, the whole price. */
export interface CardPart {
  lotId: string;
  balanceCents: number;
  priceCents: number;
}

export type BuyResult = { ok: true; lotId: string; payerFirstName: string } | { ok: false; kind: BuyRefusal } | PackageAmountRefusal;

type BuyDeps = PaymentDeps & Pick<Services, 'clock'>;

/** The card's part could not be taken under its lock: the attempt's transaction rolls back. */
class CardChanged extends Error {}

/** What the completing transaction recorded. */
interface Granted {
  lotId: string;
}

/**
 * Buys the package with the PayPal order the client approved: the order must be ours for this
 * package and this client, approved, in USD and on the package's scale as it is now. A replay of
 * the same order answers the lot it granted, waits for it, or after a crash completes it.
 */
export async function buyPackage(deps: BuyDeps, input: { userId: string; packageId: string; paypalOrderId: string; card?: CardPart }): Promise<BuyResult> {
  const { db, payments } = deps;
  const client = await clientContact(db, input.userId);
  if (!client) return { ok: false, kind: 'unknown-account' };
  const firstName = client.firstName;

  const mine = (a: PaymentAttempt) => a.kind === 'package' && a.userId === client.id && (a.details as PackageAttemptDetails).packageId === input.packageId;
  const existing = await findAttempt(db, input.paypalOrderId);
  if (existing && existing.state !== 'released') return mine(existing) ? replay(deps, existing, firstName) : { ok: false, kind: 'order-for-another-purchase' };

  const pkg = await offered(db, input.packageId);
  if (!pkg) return { ok: false, kind: 'package-not-found' };
  const read = await readApprovedOrder(payments, input.paypalOrderId, 'a package order');
  if (!read.ok) return read;
  const { order } = read;
  if (order.referenceId !== packageOrderReference(pkg.id, client.id)) return { ok: false, kind: 'order-for-another-purchase' };
  if (order.status === 'COMPLETED') {
    // A concurrent request for the same order may have captured since we looked: follow it.
    const late = await findAttempt(db, input.paypalOrderId);
    return late && mine(late) ? replay(deps, late, firstName) : { ok: false, kind: 'order-already-used' };
  }
  if (order.status !== 'APPROVED') return { ok: false, kind: 'order-not-approved' };
  // The scale as it is now: a change of hers since the order was made applies. With a gift card
  // the whole price is on the scale and the order is for exactly what the card does not hold now.
  const price = input.card?.priceCents ?? order.amountCents;
  if (order.currency !== 'USD' || !onScale(pkg, price)) return { ok: false, kind: 'amount-out-of-range', package: pkg };
  const cardCents = input.card ? Math.min(input.card.balanceCents, price) : 0;
  if (input.card && price - cardCents !== order.amountCents) return { ok: false, kind: 'gift-card-changed' };

  const details: PackageAttemptDetails = {
    packageId: pkg.id,
    name: pkg.name,
    sessionTypes: pkg.sessionTypes,
    sessions: pkg.sessions,
    monthsValid: pkg.monthsValid,
    // The money comes in now (the capture follows at once); a recovery later still dates it today.
    paidOn: zonedNow(deps.env.SITE_TIMEZONE, deps.clock.now()).date,
  };
  // The attempt, committed before the capture: what a crash leaves for the reconciler to find.
  // With a gift card, its part is debited with the attempt, under its lot's lock (a release gives it back).
  let attempt: PaymentAttempt | undefined;
  try {
    attempt = await db.transaction().execute(async (trx) => {
      const attempt = await openAttempt(trx, attemptFor('package', order, details, client.id));
      if (attempt && input.card && !(await spendCard(trx, { lotId: input.card.lotId, cents: cardCents, attemptId: attempt.id, by: 'client' })).ok)
        throw new CardChanged();
      return attempt;
    });
  } catch (err) {
    // Another purchase spent the card between the look and the lock: rolled back, nothing captured.
    if (err instanceof CardChanged) return { ok: false, kind: 'gift-card-changed' };
    throw err;
  }
  if (!attempt) {
    // A concurrent request for this same order opened it first (a double click): follow it.
    const other = await findAttempt(db, order.id);
    return other && mine(other) ? replay(deps, other, firstName) : { ok: false, kind: 'order-for-another-purchase' };
  }
  return answerSettled(packageAnswers(db), attempt, await captureAndSettle(deps, packagePurchase(deps.env), attempt), firstName);
}

function replay(deps: BuyDeps, first: PaymentAttempt, firstName: string): Promise<BuyResult> {
  return replayPurchase(deps, packagePurchase(deps.env), packageAnswers(deps.db), first, firstName);
}

/** The package's words for how settling ended (api/money/settle.ts answerSettled). */
function packageAnswers(db: DB): PaidAnswers<Granted, BuyResult, 'unknown-account'> {
  return {
    nothingToRecord: 'unknown-account',
    recorded: (granted, payerFirstName) => ({ ok: true, lotId: granted.lotId, payerFirstName }),
    async recordedBefore(attempt, payerFirstName) {
      const lot = await lotOfPaypalOrder(db, attempt.paypalOrderId);
      return lot ? { ok: true, lotId: lot.id, payerFirstName } : undefined;
    },
  };
}

/**
 * The package's adapter of the payment lifecycle: the approved amount in USD, completed (a
 * PENDING capture is not money yet and is refunded); nothing held to give back on a release; on
 * completion the lot granted with the package's terms as they were offered, and the mails queued.
 */
export function packagePurchase(env: PaymentDeps['env']): Purchase<Granted> {
  return {
    kind: 'package',
    log: '[packages]',
    accepts: acceptsApprovedUsd,
    async release(trx, attempt) {
      // No stock and no slot; a gift card's part of it goes back on the card (issue 33).
      await giveBackCardPart(trx, { attemptId: attempt.id, note: 'PayPal did not take the rest of a package' });
    },
    async record(trx, attempt) {
      // The client erased her account meanwhile: nothing to grant (the capture is refunded).
      const client = attempt.userId ? await clientContact(trx, attempt.userId) : undefined;
      if (!client) return null;
      const d = attempt.details as PackageAttemptDetails;
      // The price is what PayPal took and what a gift card paid with it (issue 33): income now, the card's too.
      const cardCents = await cardPartOfAttempt(trx, attempt.id);
      const lotId = await grantPackage(trx, {
        userId: client.id,
        package: { id: d.packageId, name: d.name, sessionTypes: d.sessionTypes, sessions: d.sessions, monthsValid: d.monthsValid },
        priceCents: attempt.amountCents + cardCents,
        method: 'paypal',
        paidOn: d.paidOn,
        createdBy: 'client',
        paypalOrderId: attempt.paypalOrderId,
      });
      const mails = await queueMails(
        trx,
        'package-bought',
        packageBoughtMails(env, (await brandNames(trx)).yoga, {
          userId: client.id,
          firstName: client.firstName,
          lastName: client.lastName,
          email: client.email,
          name: d.name,
          sessions: d.sessions,
          sessionTypes: d.sessionTypes,
          amountCents: attempt.amountCents,
          ...(cardCents ? { giftCardCents: cardCents } : {}),
          // As grantPackage dated the lot.
          expiresOn: addMonths(d.paidOn, d.monthsValid),
          paypalOrderId: attempt.paypalOrderId,
        }),
      );
      return { recorded: { lotId }, mails };
    },
  };
}

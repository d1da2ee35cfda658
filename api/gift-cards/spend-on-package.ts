/**
 * A package bought with a gift card (issue 33, decision 0042): paid all by the card, or the card's
 * part with PayPal for the rest. Here in the gift cards' folder, which reaches the packages'
 * ledger and purchase (never the other way round), and served at
 * `POST /api/user/{id}/packages/{packageId}/gift-card` (and `…/gift-card/paypal-order`).
 */
import type { Services } from '../services/index.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { grantPackage, spendCard } from '../money/ledger.ts';
import { clientContact } from '../money/ledger.repo.ts';
import { buyPackage, offered, onScale, startPackagePayment, type BuyRefusal, type PackageAmountRefusal } from '../packages/buy-package.ts';
import { packageBoughtMails } from '../packages/mails.ts';
import { cardToSpend, type CardRefusal } from '../money/cards.ts';

export type CardBuyResult =
  | { ok: true; lotId: string; payerFirstName: string }
  | { ok: false; kind: 'package-not-found' | 'unknown-account' | CardRefusal | 'gift-card-changed' }
  | { ok: false; kind: 'gift-card-short'; balanceCents: number; amountCents: number }
  | PackageAmountRefusal;

/**
 * Buys the package with a gift card that pays it all (issue 33): the amount on the package's
 * scale, the card's debit under its lot's lock and the credits granted in one transaction (sold
 * as method 'gift_card', so the books count the card's money as income now), the mails queued
 * with them. A card that holds less is refused with what it holds; nothing is taken.
 */
export async function buyPackageWithCard(
  deps: Pick<Services, 'db' | 'env' | 'mailer' | 'clock'>,
  input: { userId: string; packageId: string; code: string; amountCents: number },
): Promise<CardBuyResult> {
  const { db, env } = deps;
  const client = await clientContact(db, input.userId);
  if (!client) return { ok: false, kind: 'unknown-account' };
  const pkg = await offered(db, input.packageId);
  if (!pkg) return { ok: false, kind: 'package-not-found' };
  if (!onScale(pkg, input.amountCents)) return { ok: false, kind: 'amount-out-of-range', package: pkg };
  const card = await cardToSpend(db, input.code);
  if (!card.ok) return card;
  if (card.balanceCents < input.amountCents) return { ok: false, kind: 'gift-card-short', balanceCents: card.balanceCents, amountCents: input.amountCents };
  const paidOn = zonedNow(env.SITE_TIMEZONE, deps.clock.now()).date;
  const done = await commitWithMails(deps, async (trx) => {
    // Of two purchases spending one card, one finds it enough; the other takes nothing.
    if (!(await spendCard(trx, { lotId: card.lotId, cents: input.amountCents, by: 'client' })).ok) return { result: undefined, mails: [] };
    const terms = { id: pkg.id, name: pkg.name, sessionTypes: pkg.sessionTypes, sessions: pkg.sessions, monthsValid: pkg.monthsValid };
    const lotId = await grantPackage(trx, {
      userId: client.id,
      package: terms,
      priceCents: input.amountCents,
      method: 'gift_card',
      paidOn,
      createdBy: 'client',
    });
    const bought = {
      ...client,
      userId: client.id,
      ...terms,
      amountCents: input.amountCents,
      expiresOn: addMonths(paidOn, pkg.monthsValid),
      paypalOrderId: null,
    };
    const mails = await queueMails(trx, 'package-bought', packageBoughtMails(env, (await brandNames(trx)).yoga, bought));
    return { result: lotId, mails };
  });
  return done.result ? { ok: true, lotId: done.result, payerFirstName: client.firstName } : { ok: false, kind: 'gift-card-changed' };
}

/** Why a package paid partly by a card was not started or bought: the card's, and the PayPal purchase's (buy-package.ts). */
export type PartCardResult<T> = T | { ok: false; kind: CardRefusal | 'gift-card-pays-all' | BuyRefusal } | PackageAmountRefusal;

/**
 * The PayPal order for what a gift card does not hold of a package's price (issue 33): the card
 * read now; one that holds it all is bought with the card alone (buyPackageWithCard).
 */
export async function startPackagePaymentWithCard(
  deps: Pick<Services, 'db' | 'payments'>,
  input: { userId: string; packageId: string; code: string; amountCents: number },
): Promise<PartCardResult<{ ok: true; orderId: string }>> {
  const card = await cardToSpend(deps.db, input.code);
  if (!card.ok) return card;
  if (card.balanceCents >= input.amountCents) return { ok: false, kind: 'gift-card-pays-all' };
  return startPackagePayment(deps, { userId: input.userId, packageId: input.packageId, amountCents: input.amountCents, cardCents: card.balanceCents });
}

/**
 * Buys the package with the card's part and the approved PayPal order for the rest: the card read
 * now and handed to the package's purchase, which debits it with the payment attempt (a release
 * gives it back) and refuses an order that no longer matches what the card holds.
 */
export async function buyPackageWithCardAndPayPal(
  deps: Parameters<typeof buyPackage>[0],
  input: { userId: string; packageId: string; code: string; amountCents: number; paypalOrderId: string },
): Promise<PartCardResult<{ ok: true; lotId: string; payerFirstName: string }>> {
  const card = await cardToSpend(deps.db, input.code);
  if (!card.ok) return card;
  return buyPackage(deps, {
    userId: input.userId,
    packageId: input.packageId,
    paypalOrderId: input.paypalOrderId,
    card: { lotId: card.lotId, balanceCents: card.balanceCents, priceCents: input.amountCents },
  });
}

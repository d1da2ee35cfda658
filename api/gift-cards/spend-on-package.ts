/**
 * A package bought with a gift card that pays it all (issue 33, decision 0042): here in the gift
 * cards' folder, which reaches the packages' ledger (never the other way round), and served at
 * `POST /api/user/{id}/packages/{packageId}/gift-card`.
 */
import type { Services } from '../services/index.ts';
import { queueMails } from '../mail/outbox.repo.ts';
import { commitWithMails } from '../mail/commit.ts';
import { brandNames } from '../site/brand.ts';
import { addMonths, zonedNow } from '../lib/time.ts';
import { grantPackage, spendCard } from '../packages/ledger.ts';
import { clientContact } from '../packages/ledger.repo.ts';
import { offered, onScale, type PackageAmountRefusal } from '../packages/buy-package.ts';
import { packageBoughtMails } from '../packages/mails.ts';
import { cardToSpend, type CardRefusal } from './gift-cards.ts';

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

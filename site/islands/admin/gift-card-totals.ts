/**
 * Her gift-card figures (issues 33 and 50), from the list she sees: apart from the page so a unit
 * test can hold them without a browser. Each kind of money on its own line, so they add up:
 * sold + given + adjusted − spent = still owed, over the cards not voided.
 */
import type { AdminGiftCardView } from '../../../contract/gift-cards.ts';

export interface GiftCardTotals {
  /** What buyers paid for the cards not voided. */
  soldCents: number;
  /** What she put on the cards she gave (a prize, a make-good): no money came in. */
  givenCents: number;
  /** Her adjustments, summed with their signs. */
  adjustedCents: number;
  delivered: number;
  /** What the cards paid for, less what came back to them. */
  spentCents: number;
  /** What is still on them: owed, and income only when it buys something. */
  outstandingCents: number;
}

type Counted = Pick<
  AdminGiftCardView,
  'amountCents' | 'balanceCents' | 'paidCents' | 'adjustedCents' | 'spentCents' | 'createdBy' | 'deliveredAt' | 'voidedAt'
>;

/** A voided card counts for nothing: its money went back, so it was neither sold nor spent. */
export function giftCardTotals(cards: readonly Counted[]): GiftCardTotals {
  const live = cards.filter((c) => !c.voidedAt);
  const sum = (f: (c: Counted) => number) => live.reduce((n, c) => n + f(c), 0);
  return {
    soldCents: sum((c) => (c.createdBy === 'buyer' ? c.paidCents : 0)),
    givenCents: sum((c) => (c.createdBy === 'admin' ? c.amountCents : 0)),
    adjustedCents: sum((c) => c.adjustedCents),
    delivered: live.filter((c) => c.deliveredAt).length,
    spentCents: sum((c) => c.spentCents),
    outstandingCents: sum((c) => c.balanceCents),
  };
}

/**
 * A card's amounts: what is left of what was put on it, her adjustments counted in (a +$10
 * make-good on a $40 card reads "$50.00 left of $50.00 ($40.00 +$10.00 by you)", never "$50.00
 * left of $40.00"), and the detail only when she adjusted it.
 */
export function cardAmounts(c: Pick<AdminGiftCardView, 'amountCents' | 'balanceCents' | 'adjustedCents'>, usd: (cents: number) => string) {
  const adjusted = c.adjustedCents === 0 ? '' : ` (${usd(c.amountCents)} ${c.adjustedCents < 0 ? '−' : '+'}${usd(Math.abs(c.adjustedCents))} by you)`;
  return { left: usd(c.balanceCents), of: usd(c.amountCents + c.adjustedCents), adjusted };
}

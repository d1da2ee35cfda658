/**
 * Her gift-card figures (issue 33), from the list she sees: apart from the page so a unit test can
 * hold them without a browser.
 */
import type { AdminGiftCardView } from '../../../contract/gift-cards.ts';

export interface GiftCardTotals {
  /** What the cards not voided were worth when made. */
  soldCents: number;
  delivered: number;
  /** What has come off them: spent, or taken by her adjustments. */
  spentCents: number;
  /** What is still on them: owed, and income only when it buys something. */
  outstandingCents: number;
}

type Counted = Pick<AdminGiftCardView, 'amountCents' | 'balanceCents' | 'deliveredAt' | 'voidedAt'>;

/** A voided card counts for nothing: its money went back, so it was neither sold nor spent. */
export function giftCardTotals(cards: readonly Counted[]): GiftCardTotals {
  const live = cards.filter((c) => !c.voidedAt);
  const sum = (f: (c: Counted) => number) => live.reduce((n, c) => n + f(c), 0);
  return {
    soldCents: sum((c) => c.amountCents),
    delivered: live.filter((c) => c.deliveredAt).length,
    spentCents: sum((c) => c.amountCents - c.balanceCents),
    outstandingCents: sum((c) => c.balanceCents),
  };
}

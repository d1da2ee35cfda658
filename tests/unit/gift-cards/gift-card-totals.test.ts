/**
 * Issue 33: her Gift cards page's figures. A card's money is owed until spent; a voided card's
 * went back, so it counts neither as sold nor as spent.
 */
import { describe, expect, it } from 'vitest';
import { giftCardTotals } from '../../../site/islands/admin/gift-card-totals.ts';

const card = (amountCents: number, balanceCents: number, state: 'waiting' | 'delivered' | 'voided' = 'delivered') => ({
  amountCents,
  balanceCents,
  deliveredAt: state === 'delivered' ? '2026-12-01T17:00:00.000Z' : null,
  voidedAt: state === 'voided' ? '2026-12-02T17:00:00.000Z' : null,
});

describe('giftCardTotals', () => {
  it('sold, delivered, spent and owed, a voided card left out', () => {
    const cards = [card(50_00, 20_00), card(100_00, 100_00), card(25_00, 25_00, 'waiting'), card(40_00, 0, 'voided')];
    expect(giftCardTotals(cards)).toEqual({ soldCents: 175_00, delivered: 2, spentCents: 30_00, outstandingCents: 145_00 });
  });

  it('no cards: nothing sold, nothing owed', () => {
    expect(giftCardTotals([])).toEqual({ soldCents: 0, delivered: 0, spentCents: 0, outstandingCents: 0 });
  });
});

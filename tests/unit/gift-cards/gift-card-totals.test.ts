/**
 * Issues 33 and 50: her Gift cards page's figures. A card's money is owed until spent; a voided
 * card's went back, so it counts neither as sold nor as spent; a card she gives is not sold; her
 * adjustments are their own line and never move "Spent"; the lines add up to what is owed.
 */
import { describe, expect, it } from 'vitest';
import { cardAmounts, giftCardTotals } from '../../../site/islands/admin/gift-card-totals.ts';

type State = 'waiting' | 'delivered' | 'voided';
const card = (
  amountCents: number,
  spentCents: number,
  { state = 'delivered', by = 'buyer', adjustedCents = 0 }: { state?: State; by?: 'buyer' | 'admin'; adjustedCents?: number } = {},
) => ({
  amountCents,
  paidCents: by === 'buyer' ? amountCents : 0,
  adjustedCents,
  spentCents,
  balanceCents: state === 'voided' ? 0 : amountCents + adjustedCents - spentCents,
  createdBy: by,
  deliveredAt: state === 'delivered' ? '2026-12-01T17:00:00.000Z' : null,
  voidedAt: state === 'voided' ? '2026-12-02T17:00:00.000Z' : null,
});

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

describe('giftCardTotals', () => {
  it('sold, delivered, spent and owed, a voided card left out', () => {
    const cards = [card(50_00, 30_00), card(100_00, 0), card(25_00, 0, { state: 'waiting' }), card(40_00, 0, { state: 'voided' })];
    expect(giftCardTotals(cards)).toEqual({ soldCents: 175_00, givenCents: 0, adjustedCents: 0, delivered: 2, spentCents: 30_00, outstandingCents: 145_00 });
  });

  it('a card she gives is given, not sold; a +$10 make-good is an adjustment, and Spent stays what was spent', () => {
    const bought = card(50_00, 20_00);
    const given = card(40_00, 0, { by: 'admin', adjustedCents: 10_00 });
    const t = giftCardTotals([bought, given]);
    expect(t).toEqual({ soldCents: 50_00, givenCents: 40_00, adjustedCents: 10_00, delivered: 2, spentCents: 20_00, outstandingCents: 80_00 });
    // The lines add up: sold + given + adjusted − spent = still owed.
    expect(t.soldCents + t.givenCents + t.adjustedCents - t.spentCents).toBe(t.outstandingCents);
  });

  it('no cards: nothing sold, nothing owed', () => {
    expect(giftCardTotals([])).toEqual({ soldCents: 0, givenCents: 0, adjustedCents: 0, delivered: 0, spentCents: 0, outstandingCents: 0 });
  });
});

describe('cardAmounts', () => {
  it('never reads more left than was put on: a +$10 on a $40 card is $50 of $50, the adjustment named', () => {
    expect(cardAmounts({ amountCents: 40_00, balanceCents: 50_00, adjustedCents: 10_00 }, usd)).toEqual({
      left: '$50.00',
      of: '$50.00',
      adjusted: ' ($40.00 +$10.00 by you)',
    });
    expect(cardAmounts({ amountCents: 40_00, balanceCents: 35_00, adjustedCents: -5_00 }, usd)).toEqual({
      left: '$35.00',
      of: '$35.00',
      adjusted: ' ($40.00 −$5.00 by you)',
    });
    expect(cardAmounts({ amountCents: 40_00, balanceCents: 12_00, adjustedCents: 0 }, usd)).toEqual({ left: '$12.00', of: '$40.00', adjusted: '' });
  });
});

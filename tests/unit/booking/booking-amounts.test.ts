/**
 * Issue 30 (decision 0032): one amount range per session type (contract/settings.ts), the one
 * source of the booking page's label, field, Continue and click check, of the server's check and
 * of the sliding-scale sentence; seeded from the spec's sliding scale so the spec's label and its
 * check's words hold. A stored issue-20 value reads in the new shape (api/settings/stored-upgrades.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  amountLabel,
  amountOutOfRange,
  amountRange,
  continueBlockers,
  continueHint,
  DEFAULT_SETTINGS,
  invalidPaymentAmount,
  settingsSchema,
  settingsUpdate,
  slidingScale,
  type BookingAmounts,
} from '../../../contract/settings.ts';
import { INVALID_PAYMENT_AMOUNT } from '../../../contract/booking.ts';
import { check } from '../../../contract/check.ts';
import { upgradeStored } from '../../../api/settings/stored-upgrades.ts';

const seeded = DEFAULT_SETTINGS.bookingAmounts;
const YOGA = 'Individual Yoga Session (60 min)';
const THERAPY = 'Yoga Therapy Session (60 min)';
const ready = { slotChosen: true, couponValid: false };

describe('one amount range per session type', () => {
  it('is seeded from the spec’s sliding scale: individual yoga $80–$110, yoga therapy $10–$80', () => {
    expect(amountRange(seeded, YOGA)).toEqual({ range: { min: 80, max: 110 }, typeWords: 'individual yoga' });
    expect(amountRange(seeded, THERAPY)).toEqual({ range: { min: 10, max: 80 }, typeWords: 'yoga therapy' });
    // No type chosen yet: both together, the spec's label "$10-$110".
    expect(amountRange(seeded, '')).toEqual({ range: { min: 10, max: 110 } });
    expect(amountLabel(seeded, '')).toBe('Payment amount ($10-$110)');
    expect(amountLabel(seeded, THERAPY)).toBe('Payment amount ($10-$80)');
    expect(amountLabel(seeded, YOGA)).toBe('Payment amount ($80-$110)');
  });

  it('writes the sliding-scale sentence from the ranges and her words: the spec’s sentence by default', () => {
    expect(slidingScale(seeded)).toBe(
      'Sliding scale: individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026. Pay what is sustainable for you. I suggest committing to at least 8 weeks.',
    );
    const hers: BookingAmounts = {
      ranges: { individualYoga: { min: 90, max: 90, note: '' }, yogaTherapy: { min: 20, max: 70, note: 'until I qualify' } },
      slidingScaleNote: '',
    };
    expect(slidingScale(hers)).toBe('Sliding scale: individual yoga $90 per hour; yoga therapy $20–$70 per hour until I qualify.');
  });

  it('enables Continue for a therapy client typing $30, and says what a disabled Continue lacks in the chosen type’s range', () => {
    expect(continueBlockers(seeded, { ...ready, sessionType: THERAPY, amount: '30' })).toEqual([]);
    expect(continueHint(continueBlockers(seeded, { ...ready, sessionType: THERAPY, amount: '90' }))).toBe(
      'To continue, enter an amount between $10 and $80 for yoga therapy.',
    );
    expect(continueHint(continueBlockers(seeded, { ...ready, sessionType: YOGA, amount: '30' }))).toBe(
      'To continue, enter an amount between $80 and $110 for individual yoga.',
    );
    expect(continueBlockers(seeded, { ...ready, sessionType: YOGA, amount: '80' })).toEqual([]);
    expect(continueBlockers(seeded, { ...ready, sessionType: YOGA, amount: '110' })).toEqual([]);
    expect(continueBlockers(seeded, { ...ready, sessionType: YOGA, amount: '141' })).toHaveLength(1);
    const none = { slotChosen: false, sessionType: '', couponValid: false, amount: '' };
    expect(continueHint(continueBlockers(seeded, none))).toBe('To continue, pick a time, choose a session type and enter an amount between $10 and $110.');
    // A valid coupon needs no amount.
    expect(continueBlockers(seeded, { slotChosen: true, sessionType: YOGA, couponValid: true, amount: '' })).toEqual([]);
    expect(continueHint([])).toBe('');
  });

  it('gives the spec’s words on Continue for therapy’s lowest amount, and the type’s bound otherwise', () => {
    const therapy = amountRange(seeded, THERAPY).range;
    expect(invalidPaymentAmount(therapy, 5)).toBe(INVALID_PAYMENT_AMOUNT);
    expect(invalidPaymentAmount(therapy, NaN)).toBe(INVALID_PAYMENT_AMOUNT);
    expect(invalidPaymentAmount(therapy, 95)).toBe('The amount must be at most $80. Please adjust your entry and try again.');
    expect(invalidPaymentAmount(amountRange(seeded, YOGA).range, 30)).toBe('The amount must be at least $80. Please adjust your entry and try again.');
    expect(amountOutOfRange(therapy, 'yoga therapy')).toBe('The amount for yoga therapy must be between $10 and $80.');
  });

  it('is validated: whole dollars, min not above max, one line after “per hour”, each refusal naming its field', () => {
    expect(check(settingsUpdate, { bookingAmounts: seeded }).ok).toBe(true);
    const cases: [unknown, string][] = [
      [
        { ...seeded, ranges: { ...seeded.ranges, yogaTherapy: { min: 80, max: 10, note: '' } } },
        'bookingAmounts.ranges.yogaTherapy.max: the lowest amount (min) must not be above the highest (max)',
      ],
      [
        { ...seeded, ranges: { ...seeded.ranges, individualYoga: { min: 79.5, max: 110, note: '' } } },
        'bookingAmounts.ranges.individualYoga.min: must be a whole number of dollars',
      ],
      [
        { ...seeded, ranges: { ...seeded.ranges, individualYoga: { min: 0, max: 110, note: '' } } },
        'bookingAmounts.ranges.individualYoga.min: must be at least $1',
      ],
      [
        { ...seeded, ranges: { ...seeded.ranges, yogaTherapy: { min: 10, max: 80, note: 'a\nb' } } },
        'bookingAmounts.ranges.yogaTherapy.note: must be one line',
      ],
      [{ ranges: seeded.ranges }, 'bookingAmounts.slidingScaleNote: must be text'],
    ];
    for (const [bookingAmounts, message] of cases) {
      const res = check(settingsUpdate, { bookingAmounts });
      expect(res.ok, message).toBe(false);
      if (!res.ok) expect(res.message).toBe(message);
    }
  });
});

describe('a stored issue-20 value', () => {
  const issue20 = {
    label: { min: 10, max: 110 },
    accepted: { min: 50, max: 200 },
    continue: { min: 50, max: 140 },
    clickMax: 201,
    perType: { individualYoga: null, yogaTherapy: null },
    slidingScale:
      'Sliding scale: individual yoga $80–$110 per hour; yoga therapy $10–$80 per hour through June 2026. Pay what is sustainable for you. I suggest committing to at least 8 weeks.',
  };
  const read = (v: unknown) => settingsSchema.shape.bookingAmounts.parse(upgradeStored('bookingAmounts', v));

  it('left at the spec’s numbers reads as the seeded ranges', () => {
    expect(read(issue20)).toEqual(seeded);
  });

  it('keeps a type’s own range, what her page let through for a type without one, and her sentence as the note', () => {
    const hers = {
      ...issue20,
      accepted: { min: 60, max: 150 },
      continue: { min: 50, max: 140 },
      clickMax: 120,
      perType: { individualYoga: null, yogaTherapy: { min: 15, max: 75 } },
      slidingScale: 'Pay what you can.',
    };
    expect(read(hers)).toEqual({
      ranges: { individualYoga: { min: 60, max: 120, note: '' }, yogaTherapy: { min: 15, max: 75, note: 'through June 2026' } },
      slidingScaleNote: 'Pay what you can.',
    });
  });

  it('today’s shape and anything unknown pass through untouched', () => {
    expect(upgradeStored('bookingAmounts', seeded)).toBe(seeded);
    expect(upgradeStored('bookingAmounts', { nonsense: 1 })).toEqual({ nonsense: 1 });
    expect(upgradeStored('cancelNoticeHours', 48)).toBe(48);
  });
});

/**
 * Issue 20: her amount ranges (contract/settings.ts), one set of rules for the server and the
 * booking island: the spec's readings by default, a session type's own range when she sets one,
 * and the line that says what a disabled Continue lacks.
 */
import { describe, expect, it } from 'vitest';
import { amountRules, continueBlockers, continueHint, DEFAULT_SETTINGS, settingsUpdate, type BookingAmounts } from '../../contract/settings.ts';
import { check } from '../../contract/check.ts';

const spec = DEFAULT_SETTINGS.bookingAmounts;
const YOGA = 'Individual Yoga Session (60 min)';
const THERAPY = 'Yoga Therapy Session (60 min)';
const hers: BookingAmounts = { ...spec, perType: { individualYoga: { min: 80, max: 110 }, yogaTherapy: { min: 10, max: 80 } } };

describe('the amount rules', () => {
  it('default to SPEC.md section 5: accepted 50-200, Continue 50-140, the click check 50-201', () => {
    expect(amountRules(spec, YOGA)).toEqual({ accepted: { min: 50, max: 200 }, continue: { min: 50, max: 140 }, click: { min: 50, max: 201 } });
    expect(amountRules(spec, '')).toEqual(amountRules(spec, THERAPY));
    expect(spec.label).toEqual({ min: 10, max: 110 });
  });

  it('use a session type’s own range for all three when she sets one', () => {
    const therapy = { min: 10, max: 80 };
    expect(amountRules(hers, THERAPY)).toEqual({ accepted: therapy, continue: therapy, click: therapy, typeWords: 'yoga therapy' });
    expect(amountRules({ ...spec, perType: { individualYoga: null, yogaTherapy: therapy } }, YOGA).typeWords).toBeUndefined();
  });

  it('say what a disabled Continue lacks', () => {
    const state = { slotChosen: false, sessionType: '', couponValid: false, amount: '' };
    expect(continueHint(continueBlockers(spec, state))).toBe('To continue, pick a time, choose a session type and enter an amount between $50 and $140.');
    expect(continueHint(continueBlockers(hers, { slotChosen: true, sessionType: THERAPY, couponValid: false, amount: '90' }))).toBe(
      'To continue, enter an amount between $10 and $80 for yoga therapy.',
    );
    expect(continueBlockers(hers, { slotChosen: true, sessionType: THERAPY, couponValid: false, amount: '30' })).toEqual([]);
    // A therapy client typing $30 under the spec's defaults: told why, not just a dead button.
    expect(continueHint(continueBlockers(spec, { slotChosen: true, sessionType: THERAPY, couponValid: false, amount: '30' }))).toBe(
      'To continue, enter an amount between $50 and $140.',
    );
    // A valid coupon needs no amount.
    expect(continueBlockers(spec, { slotChosen: true, sessionType: YOGA, couponValid: true, amount: '' })).toEqual([]);
    expect(continueHint([])).toBe('');
  });

  it('are validated: whole dollars, min not above max, each refusal naming its field', () => {
    expect(check(settingsUpdate, { bookingAmounts: hers }).ok).toBe(true);
    const bad = check(settingsUpdate, { bookingAmounts: { ...spec, continue: { min: 150, max: 140 } } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toBe('bookingAmounts.continue.max: the lowest amount (min) must not be above the highest (max)');
    const half = check(settingsUpdate, { bookingAmounts: { ...spec, label: { min: 9.5, max: 110 } } });
    if (!half.ok) expect(half.message).toBe('bookingAmounts.label.min: must be a whole number of dollars');
    expect(half.ok).toBe(false);
  });
});
